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
// waited for) and, for the in-process part of a run's memory, how far this
// process's peak resident set (VmHWM, reset on Linux at the start) rose above
// its resident set at the start, after the heap left by earlier runs was
// returned to the OS. The child's own peak is added by the caller.
type defaultMeter struct{}

type unixMeasurement struct {
	self, children syscall.Rusage
	rss            int64 // resident set at the start
}

func (defaultMeter) Start() Measurement {
	var m unixMeasurement
	// Return the heap left by earlier runs to the OS first, so an
	// in-process engine's peak is its own and not what ran before it.
	runtime.GC()
	debug.FreeOSMemory()
	resetPeakRSS()
	m.rss = selfRSS("VmRSS:")
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &m.self)
	_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &m.children)
	return &m
}

func (m *unixMeasurement) Stop(usage search.Stats) Sample {
	var self, children syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children)
	cpu := cpuOf(self) - cpuOf(m.self) + cpuOf(children) - cpuOf(m.children)
	return Sample{CPU: cpu, SelfPeakRSS: max(0, selfRSS("VmHWM:")-m.rss)}
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

// selfRSS reads one of this process's memory figures from
// /proc/self/status (VmHWM: the peak resident set since the last reset;
// VmRSS: the resident set now), in bytes. Elsewhere both are the peak
// getrusage reports.
func selfRSS(field string) int64 {
	if runtime.GOOS != "linux" {
		var r syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &r)
		return int64(r.Maxrss) // bytes on darwin
	}
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	return statusField(string(b), field)
}

// childPeakRSS is a waited-for child's peak resident set in bytes (getrusage
// counts kilobytes on Linux, bytes on darwin). On Linux it is no measure of
// the child: Go starts children with vfork, and exec records the parent's
// resident set as the child's peak (watchRSS is used there instead).
func childPeakRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss)
	}
	return int64(ru.Maxrss) * 1024
}

// loadAverage is the 1-minute load average (Linux's /proc/loadavg), 0 where
// it cannot be read.
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f, _, _ := strings.Cut(string(b), " ")
	v, _ := strconv.ParseFloat(f, 64)
	return v
}

// rssEvery is how often watchRSS reads a running child's peak.
const rssEvery = time.Millisecond

// watchRSS samples the peak resident set (VmHWM) of the running process pid
// until stop is called; stop returns the largest value read, in bytes, or 0
// where /proc cannot say. VmHWM belongs to the address space the child's
// exec created, so it is the child's own; growth in its last millisecond can
// be missed.
func watchRSS(pid int) (stop func() int64) {
	path := "/proc/" + strconv.Itoa(pid) + "/status"
	read := func() int64 {
		b, err := os.ReadFile(path)
		if err != nil {
			return 0
		}
		return statusField(string(b), "VmHWM:")
	}
	peak := make(chan int64, 1)
	done := make(chan struct{})
	// The first read is made here, at once: Start returns once the child
	// has exec'd, and a child that exits within milliseconds (rg --files
	// on a small tree) may be gone by the time a new goroutine runs.
	first := read()
	go func() {
		best := first
		t := time.NewTicker(rssEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				peak <- best
				return
			case <-t.C:
				best = max(best, read())
			}
		}
	}()
	return func() int64 {
		close(done)
		return <-peak
	}
}

// statusField is a "Field: N kB" line of a /proc status file, in bytes.
func statusField(status, field string) int64 {
	for _, line := range strings.Split(status, "\n") {
		if rest, ok := strings.CutPrefix(line, field); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb * 1024
		}
	}
	return 0
}
