package proc

import (
	"errors"
	"io"
	"os"
	"strings"
)

// stdoutHandoff is a Cmd's Stdout that hands the read end of os/exec's pipe
// to Run's callback instead of copying the output through it. os/exec
// copies a non-file Stdout with io.Copy from the pipe, which calls
// ReadFrom: that passes the pipe on and returns only once the callback is
// done, so os/exec's rules still hold (Wait waits for the output to be
// read, and WaitDelay closes the pipe under a grandchild that holds it).
// Copying through an io.Pipe cost a goroutine switch and a copy per 32 KB:
// for rg --json printing 42 MB, more CPU than decoding it.
type stdoutHandoff struct {
	to   chan io.Reader // the callback's source, sent once
	done chan struct{}  // closed when the callback has returned
	sent bool
	// The fallback should os/exec ever call Write instead of ReadFrom.
	pw *io.PipeWriter
}

func newStdoutHandoff() *stdoutHandoff {
	return &stdoutHandoff{to: make(chan io.Reader, 1), done: make(chan struct{})}
}

// ReadFrom passes r to the callback and waits until it has returned.
func (h *stdoutHandoff) ReadFrom(r io.Reader) (int64, error) {
	h.hand(r)
	<-h.done
	return 0, nil
}

// Write is the fallback: the output goes through an io.Pipe. What comes
// after the callback returned is dropped (Run stops the process).
func (h *stdoutHandoff) Write(p []byte) (int, error) {
	if h.pw == nil {
		var pr *io.PipeReader
		pr, h.pw = io.Pipe()
		h.hand(pr)
	}
	_, _ = h.pw.Write(p)
	return len(p), nil
}

func (h *stdoutHandoff) hand(r io.Reader) {
	h.sent = true
	h.to <- r
}

// finish runs after Wait: the callback reaches io.EOF if the fallback
// pipe carried the output, or if nothing was handed to it.
func (h *stdoutHandoff) finish() {
	if !h.sent {
		h.hand(strings.NewReader(""))
	}
	if h.pw != nil {
		h.pw.Close()
	}
}

// returned says the callback is done with src; the fallback pipe then
// drops what is still written to it.
func (h *stdoutHandoff) returned(src *stdoutReader) {
	if pr, ok := src.r.(*io.PipeReader); ok {
		pr.CloseWithError(errReaderDone)
	}
	close(h.done)
}

// stdoutReader is the callback's stdout: at most max bytes (<= 0 = all),
// after which it calls onCap once (which stops the process) and ends. It
// records whether the callback read to the end.
type stdoutReader struct {
	r      io.Reader
	max, n int64
	onCap  func()
	capped bool
	eof    bool
}

func (s *stdoutReader) Read(p []byte) (int, error) {
	if s.eof {
		return 0, io.EOF
	}
	if s.max > 0 {
		// One byte past the cap tells that there is more.
		p = p[:min(int64(len(p)), s.max-s.n+1)]
	}
	k, err := s.r.Read(p)
	if s.max > 0 && s.n+int64(k) > s.max {
		k, err = int(s.max-s.n), io.EOF
		s.capped = true
		s.onCap()
	}
	s.n += int64(k)
	if errors.Is(err, os.ErrClosed) {
		// os/exec closed the pipe WaitDelay after the process exited: a
		// grandchild holds it, and what was read is all there is.
		err = io.EOF
	}
	if err == io.EOF {
		s.eof = true
	}
	return k, err
}
