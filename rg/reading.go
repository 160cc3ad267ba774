package rg

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/internal/decompress"
	"github.com/rgkit/rgkit/internal/rgcli"
	"github.com/rgkit/rgkit/search"
)

// fileReports prints, as rg does, the files that could not be searched as
// the command line asks (a corrupt compressed file with -z, a --pre
// command that failed): "rg: PATH: reason" on stderr, and the run then
// exits 2. The native engine reports them from its workers.
type fileReports struct {
	errOut io.Writer
	quiet  bool // --no-messages
	mu     sync.Mutex
	t      target // the target being searched (targets go one at a time)
	failed atomic.Bool
	// byPath: rg sorts by path (--sort path, --sortr path) and so, searching
	// one file at a time, reports failures in that order: they are held
	// until the target is done (held), then printed in it.
	byPath, reverse bool
	held            []heldReport
	failedPaths     map[string]bool // as printed
}

// failedFile reports whether the file rg prints as path failed.
func (f *fileReports) failedFile(path string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.failedPaths[path]
}

type heldReport struct{ path, msg string }

// flush prints the held reports in rg's order.
func (f *fileReports) flush() {
	f.mu.Lock()
	defer f.mu.Unlock()
	slices.SortStableFunc(f.held, func(a, b heldReport) int {
		if f.reverse {
			return search.ComparePaths(b.path, a.path)
		}
		return search.ComparePaths(a.path, b.path)
	})
	for _, h := range f.held {
		fmt.Fprint(f.errOut, h.msg)
	}
	f.held = f.held[:0]
}

// setTarget names the target whose files are reported next.
func (f *fileReports) setTarget(t target) {
	f.mu.Lock()
	f.t = t
	f.mu.Unlock()
}

// printed is how rg names the file at rel of the current target.
func (f *fileReports) printed(rel string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.t.printedPath(rel)
}

// report is native.Engine.OnFileError.
func (f *fileReports) report(rel string, err error) {
	f.failed.Store(true)
	name := f.printed(rel)
	f.mu.Lock()
	if f.failedPaths == nil {
		f.failedPaths = map[string]bool{}
	}
	f.failedPaths[name] = true
	f.mu.Unlock()
	if f.quiet {
		return
	}
	var de *decompress.Error
	if errors.As(err, &de) {
		de.Path = name // the tool rg runs is given the path rg has
	}
	msg := err.Error()
	var pe *os.PathError
	if errors.As(err, &pe) {
		msg = rgcli.OSError(pe.Err)
	}
	line := fmt.Sprintf("rg: %s: %s\n", name, msg)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.byPath {
		f.held = append(f.held, heldReport{name, line})
		return
	}
	fmt.Fprint(f.errOut, line)
}

// setupReading hands the native engines of chain what the command line
// asks of reading files: the --pre command (through p.Preprocess) and
// where to report a file that fails. Only the native engine runs a
// preprocessor, so with --pre the chain keeps its native engines alone
// (an error when it has none: --backend grep, say).
func (p *Program) setupReading(chain *search.Chain, o *rgcli.Options, reports *fileReports) error {
	var pre *native.Preprocessor
	if o.Pre != "" && p.Preprocess != nil {
		command := o.Pre
		pre = &native.Preprocessor{Globs: o.PreGlobs, Run: func(ctx context.Context, rel string, stdin *os.File) (io.ReadCloser, error) {
			return p.Preprocess(ctx, command, reports.printed(rel), stdin)
		}}
	}
	var natives []search.Engine
	for _, e := range chain.Engines {
		if n, ok := e.(*native.Engine); ok {
			n.Preprocessor = pre
			n.OnFileError = reports.report
			natives = append(natives, n)
		}
	}
	if pre != nil {
		if len(natives) == 0 {
			return fmt.Errorf("--pre: only the native engine runs a preprocessor (use --backend native or auto)")
		}
		chain.Engines = natives
	}
	return nil
}

// checkPreprocess refuses --pre in a program that runs no commands.
func (p *Program) checkPreprocess(o *rgcli.Options) error {
	if o.Pre != "" && p.Preprocess == nil {
		return &errUnsupported{flag: "--pre", why: "this program runs no commands (rg.Program.Preprocess is not set; rgkit's own command line sets it)"}
	}
	if o.HostnameBin != "" && o.HyperlinkFormatActive() && p.Hostname == nil {
		return &errUnsupported{flag: "--hostname-bin with --hyperlink-format", why: "this program runs no commands (rg.Program.Hostname is not set; rgkit's own command line sets it)"}
	}
	return nil
}

// hostname is --hyperlink-format's {host}: what --hostname-bin's program
// prints, else (no program, or it failed) the system's host name.
func (p *Program) hostname(ctx context.Context, o *rgcli.Options) string {
	if o.HostnameBin != "" && p.Hostname != nil {
		if host, err := p.Hostname(ctx, o.HostnameBin); err == nil {
			return host
		}
	}
	host, _ := os.Hostname()
	return host
}

// readsTransformed reports whether the file at abs, named on the command
// line, is searched as other bytes than its own (decompressed, transcoded,
// preprocessed): its raw bytes then say nothing of what is printed.
func readsTransformed(o *rgcli.Options, abs string) bool {
	if o.Pre != "" || o.NullData || (o.Encoding != "" && o.Encoding != "auto") {
		return true
	}
	_, ok := decompress.ForPath(abs)
	return o.SearchZip && ok
}

// readingQuery sets q's reading fields from the command line.
func readingQuery(q *search.Query, o *rgcli.Options) {
	q.Encoding, q.SearchZip, q.CRLF, q.NoUnicode, q.NullData = o.Encoding, o.SearchZip, o.CRLF, o.NoUnicode, o.NullData
	switch {
	case o.Mmap == nil:
	case *o.Mmap:
		q.Mmap = search.MmapAlways
	default:
		q.Mmap = search.MmapNever
	}
	switch {
	case o.Text:
		q.Binary = search.BinaryText
	case o.Binary:
		q.Binary = search.BinarySearch
	}
}
