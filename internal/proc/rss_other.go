//go:build !linux

package proc

// watchMemory has nothing to sample here (no /proc): the peak comes from
// the child's rusage once it exited, and Spec.MaxMemory is not enforced.
func watchMemory(pid int, maxAnon int64, onCap func()) (stop func() memWatch) {
	return func() memWatch { return memWatch{} }
}

// limitData sets no limit outside Linux (see Spec.MaxMemory).
func limitData(pid int, maxMemory int64) int64 { return 0 }
