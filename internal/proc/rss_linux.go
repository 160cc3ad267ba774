//go:build linux

package proc

import (
	"bytes"
	"os"
	"strconv"
	"sync"
	"time"
)

// rssSampleEvery is how often a running child's peak resident set is read.
const rssSampleEvery = 5 * time.Millisecond

// watchPeakRSS samples the peak resident set (VmHWM) of process pid until the
// returned stop is called, and stop returns the largest value seen, in bytes.
//
// The child's rusage cannot be used on Linux: Go starts children with
// vfork, so until exec the child shares the parent's memory and ru_maxrss
// keeps the parent's resident set (a 200 MiB parent makes `rg --version`
// report 202 MiB). VmHWM belongs to the address space exec created, so it is
// the child's own. It is sampled, so growth in the last few milliseconds
// before exit can be missed; that bounds the error, it does not inflate it.
func watchPeakRSS(pid int) (stop func() (peak int64, ok bool)) {
	path := "/proc/" + strconv.Itoa(pid) + "/status"
	var (
		mu   sync.Mutex
		peak int64
	)
	sample := func() {
		if v := readVmHWM(path); v > 0 {
			mu.Lock()
			peak = max(peak, v)
			mu.Unlock()
		}
	}
	sample()
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(rssSampleEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				sample()
			}
		}
	}()
	return func() (int64, bool) {
		close(done)
		<-finished
		mu.Lock()
		defer mu.Unlock()
		return peak, true
	}
}

// readVmHWM returns the "VmHWM:" line of a /proc status file in bytes, or 0.
func readVmHWM(path string) int64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	_, rest, ok := bytes.Cut(b, []byte("VmHWM:"))
	if !ok {
		return 0
	}
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	kb, err := strconv.ParseInt(string(bytes.TrimSpace(bytes.TrimSuffix(bytes.TrimSpace(line), []byte("kB")))), 10, 64)
	if err != nil {
		return 0
	}
	return kb * 1024
}
