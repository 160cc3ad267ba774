package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"
	"time"
)

// drain sits between the stdio streams and the SDK's transport. It holds
// back the end of the input until every request read so far has been
// answered, so a client that writes its requests and closes stdin at once
// (`printf ... | rgkit mcp`, a script) still gets every response: without
// it the SDK closes the connection at EOF and drops the answers in flight.
//
// It counts JSON-RPC requests (an id and a method) on the way in and
// responses (an id, no method) on the way out, one message per line as the
// stdio transport frames them.
type drain struct {
	in      *bufio.Reader
	out     io.Writer
	pending []byte // the rest of the line being passed to the reader
	maxWait time.Duration
	ctx     context.Context

	mu        sync.Mutex
	changed   chan struct{} // closed and replaced when responses grows
	requests  int
	responses int
	partial   []byte // output not yet ended by a newline
}

func newDrain(ctx context.Context, in io.Reader, out io.Writer, maxWait time.Duration) *drain {
	return &drain{in: bufio.NewReaderSize(in, 64<<10), out: out, maxWait: maxWait, ctx: ctx,
		changed: make(chan struct{})}
}

// Read passes the input through a line at a time; at EOF it waits (at most
// maxWait, or until ctx ends) for the outstanding responses first.
func (d *drain) Read(p []byte) (int, error) {
	if len(d.pending) == 0 {
		line, err := d.in.ReadBytes('\n')
		if len(line) > 0 {
			if isRequest(line) {
				d.mu.Lock()
				d.requests++
				d.mu.Unlock()
			}
			d.pending = line
		} else if errors.Is(err, io.EOF) {
			d.awaitResponses()
			return 0, io.EOF
		} else if err != nil {
			return 0, err
		}
	}
	n := copy(p, d.pending)
	d.pending = d.pending[n:]
	return n, nil
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

// Write passes the output through and counts the responses in it.
func (d *drain) Write(p []byte) (int, error) {
	n, err := d.out.Write(p)
	d.mu.Lock()
	defer d.mu.Unlock()
	d.partial = append(d.partial, p[:n]...)
	for {
		i := bytes.IndexByte(d.partial, '\n')
		if i < 0 {
			break
		}
		if isResponse(d.partial[:i]) {
			d.responses++
			close(d.changed)
			d.changed = make(chan struct{})
		}
		d.partial = d.partial[i+1:]
	}
	return n, err
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
