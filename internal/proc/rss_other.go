//go:build !linux

package proc

// watchPeakRSS has nothing to sample here: the child's rusage says it.
func watchPeakRSS(pid int) (stop func() (peak int64, ok bool)) {
	return func() (int64, bool) { return 0, false }
}
