package proc

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Spec describes one external engine run. Every external engine goes
// through Run so that the subprocess hygiene rules (docs/design.md) hold
// in one place: absolute path, no shell, stdin /dev/null, own
// process group, SIGTERM then SIGKILL on cancel, capped stdout and stderr.
type Spec struct {
	Path      string   // absolute path of the binary; a relative one is refused
	Args      []string // arguments after argv[0]
	Dir       string   // working directory; empty = the current one
	Env       []string // the complete environment (nil = empty, never inherited)
	MaxStdout int64    // stdout bytes delivered to the callback; <= 0 = no cap
	MaxStderr int      // stderr bytes kept; <= 0 = defaultMaxStderr
	// Grace is how long a cancelled process group has between SIGTERM and
	// SIGKILL, and how long Wait waits for stdout/stderr to close after the
	// process exits (a grandchild may hold them open). <= 0 = defaultGrace.
	Grace time.Duration
	// Stdin is the process's standard input; nil = /dev/null.
	Stdin io.Reader
	// Unavailable is the sentinel a start failure wraps; nil = ErrUnavailable.
	// Search engines pass search.ErrUnavailable so the Chain falls through.
	Unavailable error
	// MaxMemory caps the child's resident anonymous memory (heap and stacks,
	// not the file pages it maps), in bytes; <= 0 = no cap. On Linux the
	// group is killed with SIGKILL once a sample of /proc/PID/status (every
	// 5 ms) shows more, and RLIMIT_DATA is set a few times higher as a
	// backstop (see limitData for the measurement behind both). Run then
	// reports Result.MemoryCapped and an error wrapping ErrMemoryCap.
	// Elsewhere (macOS, the BSDs, Windows) nothing enforces it: there is no
	// /proc to sample, and the rlimits there either count file mappings or
	// do not exist.
	MaxMemory int64
}

// Result is what Run observed.
type Result struct {
	ExitCode     int           // the exit status; -1 when killed by a signal or never started
	Stderr       []byte        // at most MaxStderr bytes of stderr
	StdoutCapped bool          // stdout passed MaxStdout: the rest was dropped and the process stopped
	Killed       bool          // Run signalled the process group (cancel, timeout, cap, reader gave up)
	CPU          time.Duration // user+system CPU time of the process (not of grandchildren it left behind)
	PeakRSS      int64         // peak resident set in bytes, where the OS reports it (0 otherwise)
	// MemoryCapped says the child was stopped for passing Spec.MaxMemory:
	// killed by Run when its memory passed the cap, or killed by a signal
	// after it had reserved at least half of its RLIMIT_DATA backstop (an
	// allocation refused there aborts a Rust program). A crash says false.
	MemoryCapped bool
}

const (
	defaultGrace     = 2 * time.Second
	defaultMaxStderr = 64 << 10
)

// DefaultMaxStdout bounds what an external engine may write before it is
// stopped; a search's own output cap is normally hit long before.
const DefaultMaxStdout = 1 << 30

// ErrUnavailable is wrapped by Run's error when the program cannot be
// started at all (missing, not executable, relative path), unless
// Spec.Unavailable names another sentinel to wrap.
var ErrUnavailable = errors.New("program unavailable")

// ErrMemoryCap is wrapped by Run's error when the child was stopped for
// passing Spec.MaxMemory (Result.MemoryCapped).
var ErrMemoryCap = errors.New("memory cap passed")

// errReaderDone closes the fallback stdout pipe once the callback has
// returned, so the copying goroutine of os/exec stops instead of blocking.
var errReaderDone = errors.New("proc: stdout reader returned")

// Run runs spec and streams its stdout to the stdout callback, which runs
// in its own goroutine while the process runs and must read until io.EOF (or
// return early: the rest of the output is then discarded and the process
// group stopped).
//
// A non-zero exit status is not an error: the caller maps statuses per tool.
// The error is the callback's error, the start error (wrapping ErrUnavailable
// when the binary is missing or not executable), or, when ctx ended first,
// an error wrapping ctx.Err() (context.DeadlineExceeded on a timeout). In
// every case what the callback had consumed stays with the caller: that is
// how a timeout yields partial results.
//
// After the process exits, its whole process group is killed, so a
// grandchild that keeps stdout open cannot outlive the search; Run
// returns at most about 2×Grace after ctx ends.
func Run(ctx context.Context, spec Spec, stdout func(io.Reader) error) (Result, error) {
	res := Result{ExitCode: -1}
	unavailable := spec.Unavailable
	if unavailable == nil {
		unavailable = ErrUnavailable
	}
	if !filepath.IsAbs(spec.Path) {
		return res, fmt.Errorf("%w: refusing to run %q: not an absolute path", unavailable, spec.Path)
	}
	grace := spec.Grace
	if grace <= 0 {
		grace = defaultGrace
	}
	maxErr := spec.MaxStderr
	if maxErr <= 0 {
		maxErr = defaultMaxStderr
	}

	runCtx, stop := context.WithCancel(ctx)
	defer stop()

	var killed atomic.Bool
	cmd := exec.CommandContext(runCtx, spec.Path, spec.Args...)
	cmd.Dir = spec.Dir
	cmd.Env = spec.Env
	if cmd.Env == nil {
		cmd.Env = []string{}
	}
	cmd.Stdin = spec.Stdin // nil = /dev/null
	setProcGroup(cmd)
	var killTimer *time.Timer
	var timerMu sync.Mutex
	cmd.Cancel = func() error {
		killed.Store(true)
		p := cmd.Process
		err := signalGroup(p, false)
		if errors.Is(err, syscall.ESRCH) {
			// Nothing left of the group: the child exited on its own
			// (and was reaped) as the run stopped. os/exec reports that
			// as no failure; ESRCH itself it would report as one.
			return os.ErrProcessDone
		}
		timerMu.Lock()
		killTimer = time.AfterFunc(grace, func() { _ = signalGroup(p, true) })
		timerMu.Unlock()
		return err
	}
	cmd.WaitDelay = grace

	out := newStdoutHandoff()
	cmd.Stdout = out
	src := &stdoutReader{max: spec.MaxStdout, onCap: stop}
	errBuf := &cappedBuffer{max: maxErr}
	cmd.Stderr = errBuf

	if err := cmd.Start(); err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) || errors.Is(err, exec.ErrNotFound) {
			return res, fmt.Errorf("%w: start %s: %w", unavailable, spec.Path, err)
		}
		if errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.ENOMEM) {
			// Out of processes or memory: the Chain
			// falls back to an in-process engine rather than retry.
			return res, fmt.Errorf("%w: cannot start %s now: %w", unavailable, spec.Path, err)
		}
		return res, fmt.Errorf("start %s: %w", spec.Path, err)
	}
	pgid := cmd.Process.Pid
	var dataLimit int64
	if spec.MaxMemory > 0 {
		dataLimit = limitData(pgid, spec.MaxMemory)
	}
	var memKilled atomic.Bool
	stopWatch := watchMemory(pgid, spec.MaxMemory, func() {
		// SIGKILL at once: a runaway can grow by gigabytes in a grace period.
		memKilled.Store(true)
		killed.Store(true)
		_ = signalGroup(cmd.Process, true)
	})

	cbDone := make(chan error, 1)
	go func() {
		src.r = <-out.to
		err := stdout(src)
		if !src.eof {
			// The reader stopped early: nobody wants the rest.
			stop()
		}
		out.returned(src)
		cbDone <- err
	}()

	waitErr := cmd.Wait()
	mem := stopWatch()
	// Whatever is left of the group (a grandchild holding a pipe, a child
	// that ignored SIGTERM) goes now; ESRCH when nothing is left.
	killLeftovers(pgid)
	timerMu.Lock()
	if killTimer != nil {
		killTimer.Stop()
	}
	timerMu.Unlock()
	out.finish()
	cbErr := <-cbDone

	res.Stderr = errBuf.bytes()
	res.StdoutCapped = src.capped
	res.Killed = killed.Load()
	if ps := cmd.ProcessState; ps != nil {
		res.ExitCode = ps.ExitCode()
		res.CPU = ps.UserTime() + ps.SystemTime()
		res.PeakRSS = peakRSS(ps)
		if mem.sampled {
			res.PeakRSS = mem.peak
		}
		res.MemoryCapped = memKilled.Load() ||
			(dataLimit > 0 && !res.Killed && signaled(ps) && mem.peakData >= dataLimit/2)
	}
	switch {
	case ctx.Err() != nil:
		// First: output cut by the kill may not parse, and that is not
		// the reason the run ended.
		return res, fmt.Errorf("%s stopped: %w", filepath.Base(spec.Path), context.Cause(ctx))
	case res.MemoryCapped:
		// Before the callback's error, which is only the cut output's.
		return res, fmt.Errorf("%s needed more than %s of memory and was stopped: %w",
			filepath.Base(spec.Path), FormatBytes(spec.MaxMemory), ErrMemoryCap)
	case cbErr != nil && !errors.Is(cbErr, errReaderDone):
		return res, cbErr
	}
	var exitErr *exec.ExitError
	// Run itself cancels runCtx when the reader stops early or stdout passes
	// its cap; os/exec then reports the kill it asked for as runCtx's
	// error, which is no failure of the child.
	stoppedByRun := runCtx.Err() != nil && errors.Is(waitErr, context.Canceled)
	if waitErr != nil && !stoppedByRun && !errors.As(waitErr, &exitErr) && !errors.Is(waitErr, exec.ErrWaitDelay) &&
		!errors.Is(waitErr, errReaderDone) && !errors.Is(waitErr, io.ErrClosedPipe) {
		return res, fmt.Errorf("wait %s: %w", spec.Path, waitErr)
	}
	return res, nil
}

// memWatch is what watchMemory saw of a child once stopped (all zero where
// nothing samples it).
type memWatch struct {
	peak     int64 // largest VmHWM, in bytes
	peakData int64 // largest VmData, in bytes
	capped   bool  // RssAnon passed the cap and the group was killed
	sampled  bool  // peak is the child's own (see watchMemory)
}

// signaled reports whether the process was ended by a signal.
func signaled(ps *os.ProcessState) bool {
	ws, ok := ps.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled()
}

// FormatBytes writes n for a person: "1 GiB", "512 MiB", "1536 KiB",
// "100 bytes" (the largest unit that divides it, so caps read as set).
func FormatBytes(n int64) string {
	for _, u := range []struct {
		size int64
		name string
	}{{1 << 40, "TiB"}, {1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}} {
		if n >= u.size && n%u.size == 0 {
			return fmt.Sprintf("%d %s", n/u.size, u.name)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}

// cappedBuffer keeps the first half and the last half of max bytes
// written to it: a tool's reason for failing comes last, after whatever it
// echoed (git quotes the whole pattern before "Invalid regular expression"),
// so a cap that kept only the head lost the reason.
type cappedBuffer struct {
	mu      sync.Mutex
	max     int
	buf     []byte // the head, up to max/2
	tail    []byte // a ring of the last max-max/2 bytes past the head
	at      int    // where the ring's next byte goes
	dropped bool   // bytes between the head and the tail were lost
}

func (c *cappedBuffer) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(p)
	if room := c.max/2 - len(c.buf); room > 0 {
		k := min(room, len(p))
		c.buf = append(c.buf, p[:k]...)
		p = p[k:]
	}
	size := c.max - c.max/2
	for len(p) > 0 && size > 0 {
		if len(c.tail) < size {
			k := min(size-len(c.tail), len(p))
			c.tail = append(c.tail, p[:k]...)
			p = p[k:]
			continue
		}
		if len(p) >= size {
			c.dropped = true
			p = p[len(p)-size:]
		}
		k := copy(c.tail[c.at:], p)
		if k < len(p) {
			copy(c.tail, p[k:])
		}
		c.at = (c.at + len(p)) % size
		c.dropped = true
		p = nil
	}
	return n, nil
}

// cutMark stands for the bytes a capped buffer dropped.
const cutMark = "\n[...]\n"

func (c *cappedBuffer) bytes() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := append([]byte(nil), c.buf...)
	if c.dropped {
		out = append(out, cutMark...)
	}
	out = append(out, c.tail[c.at:]...)
	return append(out, c.tail[:c.at]...)
}

// Output runs spec like Run and returns its stdout (at most MaxStdout
// bytes when MaxStdout > 0).
func Output(ctx context.Context, spec Spec) ([]byte, Result, error) {
	var out bytes.Buffer
	res, err := Run(ctx, spec, func(r io.Reader) error {
		_, err := io.Copy(&out, r)
		return err
	})
	return out.Bytes(), res, err
}

// Brief is a tool's stderr for an error message: trimmed, and when long,
// its start and its end (where the reason is) around a cut mark.
func Brief(stderr []byte) string {
	const head, tail = 512, 1536
	b := bytes.TrimSpace(stderr)
	if len(b) <= head+tail+len(cutMark) {
		return string(b)
	}
	return string(b[:head]) + cutMark + string(b[len(b)-tail:])
}

// FirstLine is b's first line, for error messages quoting a tool's output.
func FirstLine(b []byte) string {
	s, _, _ := strings.Cut(string(b), "\n")
	return s
}

// AllowEnv keeps the named variables of env (case-insensitively on the name,
// as Windows would).
func AllowEnv(env []string, names ...string) []string {
	out := []string{}
	for _, kv := range env {
		k, _, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		for _, n := range names {
			if strings.EqualFold(k, n) {
				out = append(out, kv)
				break
			}
		}
	}
	return out
}

// ReadNulList reads a tool's NUL-terminated path list (rg --files --null,
// grep -l --null, git -z: "a\x00b\x00") and calls fn with each path, as
// raw bytes with no quoting. Empty entries are skipped; a last entry
// without its NUL still counts.
func ReadNulList(r io.Reader, fn func(string) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		p, err := br.ReadBytes(0)
		if len(p) > 0 && p[len(p)-1] == 0 {
			p = p[:len(p)-1]
		}
		if len(p) > 0 {
			if ferr := fn(string(p)); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
