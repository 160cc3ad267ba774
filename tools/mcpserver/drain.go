package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"sync"
	"time"
)

// drain sits between the stdio streams and the SDK's transport.
//
// On the way in it checks every line (checkLine) and answers a malformed
// one itself with a JSON-RPC error, so that the SDK, which ends the
// connection on a line it cannot decode, sees only well-formed messages.
//
// It also holds back the end of the input until every request read so far
// has been answered, so a client that writes its requests and closes stdin
// at once (`printf ... | rgkit mcp`, a script) still gets every response:
// without it the SDK closes the connection at EOF and drops the answers in
// flight. It counts the requests it passes in and the responses (an id, no
// method) on the way out, one message per line as the stdio transport
// frames them.
type drain struct {
	in      *bufio.Reader
	out     io.Writer
	pending []byte // the rest of the line being passed to the reader
	maxWait time.Duration
	ctx     context.Context
	log     *slog.Logger

	mu        sync.Mutex    // guards the fields below and every write to out
	changed   chan struct{} // closed and replaced when responses grows
	requests  int
	responses int
	partial   []byte // output not yet ended by a newline
}

func newDrain(ctx context.Context, in io.Reader, out io.Writer, maxWait time.Duration, log *slog.Logger) *drain {
	return &drain{in: bufio.NewReaderSize(in, 64<<10), out: out, maxWait: maxWait, ctx: ctx, log: log,
		changed: make(chan struct{})}
}

// Read passes the checked input through a line at a time; at EOF it waits
// (at most maxWait, or until ctx ends) for the outstanding responses first.
func (d *drain) Read(p []byte) (int, error) {
	for len(d.pending) == 0 {
		line, tooLong, err := d.readLine()
		if len(line) > 0 || tooLong {
			var msg *message
			var bad *rpcError
			if tooLong {
				bad = invalid(nil, "the message is longer than %d bytes", MaxLineBytes)
			} else {
				msg, bad = checkLine(line)
			}
			switch {
			case bad != nil:
				d.log.Warn("rgkit mcp: refused an input line", "code", bad.code, "reason", bad.msg)
				if werr := d.writeOwn(bad.response()); werr != nil {
					return 0, werr
				}
			case msg != nil:
				if msg.request {
					d.mu.Lock()
					d.requests++
					d.mu.Unlock()
				}
				d.pending = append(msg.line, '\n')
			}
			continue
		}
		if errors.Is(err, io.EOF) {
			d.awaitResponses()
			return 0, io.EOF
		}
		if err != nil {
			return 0, err
		}
	}
	n := copy(p, d.pending)
	d.pending = d.pending[n:]
	return n, nil
}

// readLine returns the next line without its newline. A line longer than
// MaxLineBytes is read to its end and dropped (tooLong), so memory stays
// bounded whatever the client sends. err is set only when line is empty.
func (d *drain) readLine() (line []byte, tooLong bool, err error) {
	for {
		chunk, err := d.in.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > MaxLineBytes+1 {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		switch {
		case err == nil:
			return bytes.TrimSuffix(line, []byte("\n")), tooLong, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case len(line) > 0 || tooLong:
			return line, tooLong, nil // the last line, without a newline
		default:
			return nil, false, err
		}
	}
}

// writeOwn writes one of the drain's own responses between two of the
// SDK's lines.
func (d *drain) writeOwn(line []byte) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	_, err := d.out.Write(line)
	return err
}

func (d *drain) awaitResponses() {
	timer := time.NewTimer(d.maxWait)
	defer timer.Stop()
	for {
		d.mu.Lock()
		done, changed := d.responses >= d.requests, d.changed
		d.mu.Unlock()
		if done {
			return
		}
		select {
		case <-changed:
		case <-timer.C:
			return
		case <-d.ctx.Done():
			return
		}
	}
}

// Write passes the output through a whole line at a time (so that writeOwn
// never splits one) and counts the responses in it.
func (d *drain) Write(p []byte) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.partial = append(d.partial, p...)
	i := bytes.LastIndexByte(d.partial, '\n')
	if i < 0 {
		return len(p), nil
	}
	lines := d.partial[:i+1]
	_, err := d.out.Write(lines)
	for _, l := range bytes.Split(lines[:i], []byte("\n")) {
		if isResponse(l) {
			d.responses++
			close(d.changed)
			d.changed = make(chan struct{})
		}
	}
	d.partial = append([]byte(nil), d.partial[i+1:]...)
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

// Close ends nothing: stdin and stdout belong to the process.
func (d *drain) Close() error { return nil }

type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

func parseEnvelope(line []byte) (envelope, bool) {
	var e envelope
	if err := json.Unmarshal(line, &e); err != nil {
		return e, false
	}
	return e, len(e.ID) > 0 && string(e.ID) != "null"
}

func isRequest(line []byte) bool {
	e, hasID := parseEnvelope(line)
	return hasID && e.Method != ""
}

func isResponse(line []byte) bool {
	e, hasID := parseEnvelope(line)
	return hasID && e.Method == ""
}
