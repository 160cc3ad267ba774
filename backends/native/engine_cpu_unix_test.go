//go:build unix

package native_test

import (
	"syscall"
	"time"
)

// cpuTimes returns the CPU time (user+system) used so far by this process
// and by its waited-for children: on a shared machine, CPU time compares
// engines more steadily than wall time.
func cpuTimes() (self, children time.Duration) {
	var s, c syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &s)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &c)
	return rusageTime(s), rusageTime(c)
}

func rusageTime(r syscall.Rusage) time.Duration {
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}
