//go:build unix

package native

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user+system) this process has used: on a
// shared machine it measures the searcher more steadily than wall time.
func processCPU() time.Duration {
	var r syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &r)
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}
