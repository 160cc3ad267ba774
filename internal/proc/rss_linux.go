//go:build linux

package proc

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strconv"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// rssSampleEvery is how often a running child's memory is read.
const rssSampleEvery = 5 * time.Millisecond

// memSample is what one read of /proc/PID/status says, in bytes.
type memSample struct {
	hwm  int64 // VmHWM: peak resident set
	anon int64 // RssAnon: resident anonymous memory (heap, stacks), not file pages
	data int64 // VmData: private writable mappings, what RLIMIT_DATA limits
}

// watchMemory samples process pid's memory until the returned stop is
// called. When maxAnon > 0 and the resident anonymous memory passes it,
// onCap is called once (it kills the process group).
//
// The peak is VmHWM, not the child's rusage: Go starts children with
// vfork, so until exec the child shares the parent's memory and ru_maxrss
// keeps the parent's resident set (a 200 MiB parent makes `rg --version`
// report 202 MiB). VmHWM belongs to the address space exec created, so it is
// the child's own. It is sampled, so growth in the last few milliseconds
// before exit can be missed; that bounds the error, it does not inflate it.
//
// The cap is checked against RssAnon, not VmHWM: the file pages rg maps to
// search a large file are resident too, but the kernel can drop them at any
// time, so they are no threat to the host and no sign of a runaway.
func watchMemory(pid int, maxAnon int64, onCap func()) (stop func() memWatch) {
	// The file is opened once and read again from its start for each
	// sample: an open of a /proc file costs ten times the read (58 µs
	// against 5.5 µs here), and at one sample every 5 ms over a search of
	// a second and a half the opens took an eighth of the ripgrep
	// engine's CPU. The open file is also the child's for good, where a
	// path opened again could name a process that took its pid.
	f, _ := os.Open("/proc/" + strconv.Itoa(pid) + "/status") // (nil: the child is gone already)
	buf := make([]byte, 8<<10)
	var (
		mu sync.Mutex
		w  = memWatch{sampled: true}
	)
	sample := func() {
		s, ok := readMemSample(f, buf)
		if !ok {
			return
		}
		mu.Lock()
		w.peak = max(w.peak, s.hwm)
		w.peakData = max(w.peakData, s.data)
		fire := maxAnon > 0 && s.anon > maxAnon && !w.capped
		if fire {
			w.capped = true
		}
		mu.Unlock()
		if fire {
			onCap()
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
	return func() memWatch {
		close(done)
		<-finished
		if f != nil {
			f.Close()
		}
		mu.Lock()
		defer mu.Unlock()
		return w
	}
}

// readMemSample reads the memory lines of an open /proc status file, from
// its start, into buf (large enough for the whole file).
func readMemSample(f *os.File, buf []byte) (memSample, bool) {
	if f == nil {
		return memSample{}, false
	}
	n, err := f.ReadAt(buf, 0)
	if n == 0 || err != nil && !errors.Is(err, io.EOF) {
		return memSample{}, false
	}
	b := buf[:n]
	s := memSample{hwm: statusKB(b, "VmHWM:"), anon: statusKB(b, "RssAnon:"), data: statusKB(b, "VmData:")}
	return s, s.hwm > 0
}

// statusKB returns the value of a "Name:   123 kB" line of a /proc status
// file in bytes, or 0.
func statusKB(b []byte, name string) int64 {
	_, rest, ok := bytes.Cut(b, []byte(name))
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

// dataLimitFactor sets the RLIMIT_DATA backstop of a capped child to this
// many times Spec.MaxMemory (see limitData).
const dataLimitFactor = 8

// limitData sets the RLIMIT_DATA backstop of the running child pid for a
// memory cap of maxMemory and returns it, or 0 when it could not be set.
//
// Why the sampler enforces the cap and the rlimit is only a backstop,
// measured with rg 15.2.0 on one 20 MB line of "A" searched for "A" (rg
// --json builds the whole 1.1 GB record before it prints it):
//   - RLIMIT_DATA counts address space reserved for the heap, and rg's
//     growing buffers leave 2.5 to 4 times their resident size reserved
//     (VmData 3028 MB at RssAnon 766 MB). A 1 GiB RLIMIT_DATA stopped rg at
//     322 MB resident, a quarter of the cap it claims; and rg then aborts
//     itself ("memory allocation of N bytes failed", SIGABRT), which looks
//     like any crash.
//   - The sampler kills the group when RssAnon, the memory that really
//     weighs on the host, passes the cap, 5 ms of growth late at worst, and
//     knows that it did.
//
// The rlimit catches what the sampler cannot: a goroutine starved for long
// enough that the child races far past the cap. RLIMIT_DATA rather than
// RLIMIT_AS: it leaves file mappings (rg maps large files) and glibc's
// PROT_NONE arena reservations (one per thread) alone. It is set with
// prlimit just after the child started, so the child runs unlimited for the
// moment between exec and the call (exec itself, before any search); the
// sampler watches it from the first sample on.
func limitData(pid int, maxMemory int64) int64 {
	lim := maxMemory * dataLimitFactor
	if lim/dataLimitFactor != maxMemory {
		return 0 // overflow: no useful backstop
	}
	r := unix.Rlimit{Cur: uint64(lim), Max: uint64(lim)}
	if err := unix.Prlimit(pid, unix.RLIMIT_DATA, &r, nil); err != nil {
		return 0
	}
	return lim
}
