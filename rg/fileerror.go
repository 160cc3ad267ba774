package rg

import (
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/rgkit/rgkit/internal/rgcli"
	"github.com/rgkit/rgkit/search"
)

// fileErrors prints the files a search could not read on stderr, in rg's
// words, as they happen, and remembers that there were some: rg's exit
// status is then 2 (0 still with -q and a match).
type fileErrors struct {
	w      io.Writer
	silent bool // --no-messages
	// single: rg walks with one thread (--sort, -j1), through a walker
	// that words its errors "IO error for operation on PATH: ...".
	single bool
	count  int64 // every error
	files  int64 // errors reading a file (not the walk's): rg counts those files as searched
}

// report prints e, found under target t.
func (f *fileErrors) report(t target, e search.FileError) {
	f.count++
	if !e.Walk {
		f.files++
	}
	if f.silent {
		return
	}
	path := t.printedPath(e.Path)
	if e.Walk {
		path = t.walkedPath(e.Path)
	}
	var loop *search.LoopError
	var pe *fs.PathError
	switch {
	case errors.As(e.Err, &loop):
		fmt.Fprintf(f.w, "rg: File system loop found: %s points to an ancestor %s\n", path, t.walkedPath(loop.Ancestor))
	case errors.As(e.Err, &pe) && e.Walk && f.single:
		fmt.Fprintf(f.w, "rg: %s: IO error for operation on %s: %s\n", path, path, rgcli.OSError(pe.Err))
	case errors.As(e.Err, &pe):
		fmt.Fprintf(f.w, "rg: %s: %s\n", path, rgcli.OSError(pe.Err))
	default:
		fmt.Fprintf(f.w, "rg: %s: %s\n", path, rgcli.OSError(e.Err))
	}
}

// walkedPath is how rg names a path of its directory walk: as
// printedPath, except that the walk of the working directory (no PATH
// given) names its entries "./x", where results are printed "x".
func (t target) walkedPath(rel string) string {
	if t.display == "" && !t.file {
		if rel == "" {
			return "./"
		}
		return "./" + rel
	}
	if rel == "" {
		return t.display
	}
	return t.printedPath(rel)
}

// FileError implements search.FileErrorSink.
func (s *rgSink) FileError(e search.FileError) error {
	s.run.errs.report(s.t, e)
	return nil
}

// errorSink is a Sink whose FileErrors go to the run's stderr, for the
// searches of the listing modes that collect lines with a SinkFunc.
type errorSink struct {
	search.Sink
	run *rgRun
	t   target
}

// FileError implements search.FileErrorSink.
func (s errorSink) FileError(e search.FileError) error {
	s.run.errs.report(s.t, e)
	return nil
}
