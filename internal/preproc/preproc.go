// Package preproc runs rg --pre's command for one file, through
// internal/proc (the one subprocess runner), as rg runs it: the command
// with the file's path as its one argument and the file as its stdin, one
// process per file, its stdout searched. Only rgkit's command line uses it
// (rg.Program.Preprocess): the library never starts a program a query or
// a searched tree names.
package preproc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/rgkit/rgkit/internal/proc"
	"github.com/rgkit/rgkit/internal/rgcli"
)

// Error is a preprocessor that could not start or failed, worded as rg
// words it: "preprocessor command failed: '"cmd" "path"': " and the
// command's stderr between two rules of dashes (or "<stderr is empty>").
type Error struct {
	Command string // rg's rendering of the command line: "cmd" "path"
	Start   bool   // it could not start
	Err     error  // the start error
	Stderr  []byte // what it printed to stderr, when it failed
}

func (e *Error) Error() string {
	if e.Start {
		return fmt.Sprintf("preprocessor command could not start: '%s': %s", e.Command, rgcli.OSError(e.Err))
	}
	msg := strings.TrimSpace(string(e.Stderr))
	if msg == "" {
		return fmt.Sprintf("preprocessor command failed: '%s': <stderr is empty>", e.Command)
	}
	div := strings.Repeat("-", 79)
	return fmt.Sprintf("preprocessor command failed: '%s': \n%s\n%s\n%s", e.Command, div, msg, div)
}

func (e *Error) Unwrap() error { return e.Err }

// Start runs command for the file at path (the path as rg would name it:
// the command's one argument) with stdin as its standard input, and
// returns its stdout. The command is looked up on PATH when it has no
// slash, and runs with this process's environment (the user's own
// choice, as in rg). Read returns the failure, once the output ends, of a
// command that exits with another status than 0; Close stops a command
// whose output was not read to the end (as rg does, that is no failure
// unless it wrote to stderr) and waits for it.
func Start(ctx context.Context, command, path string, stdin *os.File) (io.ReadCloser, error) {
	desc := strconv.Quote(command) + " " + strconv.Quote(path)
	bin, err := resolve(command)
	if err != nil {
		return nil, &Error{Command: desc, Start: true, Err: syscall.ENOENT}
	}
	r := &reader{desc: desc, got: make(chan io.Reader, 1), done: make(chan struct{}), result: make(chan runResult, 1)}
	go func() {
		res, err := proc.Run(ctx, proc.Spec{Path: bin, Args: []string{path}, Env: os.Environ(), Stdin: stdin},
			func(out io.Reader) error {
				r.got <- out
				<-r.done
				return nil
			})
		r.result <- runResult{res, err}
	}()
	select {
	case out := <-r.got:
		r.out = out
		return r, nil
	case rr := <-r.result:
		// It never started.
		err := rr.err
		var perr *fs.PathError
		if errors.As(err, &perr) {
			err = perr.Err
		}
		return nil, &Error{Command: desc, Start: true, Err: err}
	}
}

// resolve is the absolute path of the program a user named, looked up
// on PATH when the name has no '/' (internal/proc runs absolute paths
// only).
func resolve(program string) (string, error) {
	bin := program
	if !strings.Contains(program, "/") {
		p, err := exec.LookPath(program)
		if err != nil {
			return "", err
		}
		bin = p
	}
	if abs, err := filepath.Abs(bin); err == nil {
		bin = abs
	}
	return bin, nil
}

// maxHostname bounds what Hostname reads of its program's output.
const maxHostname = 64 << 10

// Hostname runs rg --hostname-bin's program (no arguments, stdin empty)
// and returns what it printed, trimmed of surrounding white space, for
// --hyperlink-format's {host}. An error (it could not start, it failed,
// it printed nothing) is for the caller to fall back on the system's host
// name, as rg does.
func Hostname(ctx context.Context, program string) (string, error) {
	bin, err := resolve(program)
	if err != nil {
		return "", err
	}
	var out []byte
	res, err := proc.Run(ctx, proc.Spec{Path: bin, Env: os.Environ(), MaxStdout: maxHostname}, func(r io.Reader) error {
		var rerr error
		out, rerr = io.ReadAll(r)
		return rerr
	})
	switch {
	case err != nil:
		return "", err
	case res.ExitCode != 0:
		return "", fmt.Errorf("%s exited with status %d", program, res.ExitCode)
	}
	host := strings.TrimSpace(string(out))
	if host == "" {
		return "", fmt.Errorf("%s printed no host name", program)
	}
	return host, nil
}

type runResult struct {
	res proc.Result
	err error
}

// reader is a running preprocessor's output.
type reader struct {
	desc   string
	out    io.Reader
	got    chan io.Reader
	done   chan struct{}
	result chan runResult
	eof    bool
	closed bool
	final  error
}

func (r *reader) Read(p []byte) (int, error) {
	if r.eof {
		return 0, io.EOF
	}
	n, err := r.out.Read(p)
	if errors.Is(err, io.EOF) {
		r.eof = true
		if ferr := r.wait(); ferr != nil {
			return n, ferr
		}
	}
	return n, err
}

// wait lets the run finish and returns its failure, once.
func (r *reader) wait() error {
	if r.closed {
		return r.final
	}
	r.closed = true
	close(r.done)
	rr := <-r.result
	switch {
	case rr.err != nil && !errors.Is(rr.err, context.Canceled) && !errors.Is(rr.err, context.DeadlineExceeded):
		r.final = &Error{Command: r.desc, Stderr: []byte(rr.err.Error())}
	case rr.res.ExitCode != 0 && (r.eof || len(rr.res.Stderr) > 0):
		// rg forgives a command it stopped reading early (it closed the
		// pipe) unless it complained on stderr.
		r.final = &Error{Command: r.desc, Stderr: rr.res.Stderr}
	}
	return r.final
}

func (r *reader) Close() error {
	if r.eof && r.closed {
		return nil // its failure, if any, was Read's
	}
	return r.wait()
}
