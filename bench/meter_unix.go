//go:build linux || darwin

package bench

import (
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rgkit/rgkit/search"
)

// defaultMeter reads getrusage for CPU time (this process plus the children it
// waited for). Peak memory is the child's own, as the engine reports it, for
// external engines; for in-process ones it is this whole process's peak
// resident set during the run (VmHWM, reset on Linux after returning freed
// heap to the OS), which includes the benchmark's own baseline.
type defaultMeter struct{}

type unixMeasurement struct{ self, children syscall.Rusage }

func (defaultMeter) Start() Measurement {
	var m unixMeasurement
	// Return the heap left by earlier runs to the OS first, so an
	// in-process engine's peak is its own and not what ran before it.
	runtime.GC()
	debug.FreeOSMemory()
	resetPeakRSS()
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &m.self)
	_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &m.children)
	return &m
}

func (m *unixMeasurement) Stop(usage search.Stats) Sample {
	var self, children syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children)
	cpu := cpuOf(self) - cpuOf(m.self) + cpuOf(children) - cpuOf(m.children)
	peak := usage.ProcessPeakRSS
	if peak == 0 {
		peak = selfPeakRSS()
	}
	return Sample{CPU: cpu, PeakRSS: peak}
}

func cpuOf(r syscall.Rusage) time.Duration {
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}

// resetPeakRSS asks Linux to restart this process's peak RSS count
// (proc(5), /proc/pid/clear_refs "5"); a no-op elsewhere.
func resetPeakRSS() {
	if runtime.GOOS == "linux" {
		_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
	}
}

// selfPeakRSS is this process's peak resident set since the last reset, in bytes.
func selfPeakRSS() int64 {
	if runtime.GOOS != "linux" {
		var r syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &r)
		return int64(r.Maxrss) // bytes on darwin
	}
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb * 1024
		}
	}
	return 0
}
