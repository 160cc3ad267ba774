// Package rg is rg 15.2.0's command line run on rgkit's library engines:
// the same flags, defaults, messages, exit codes and output bytes as rg,
// with no rg binary needed. cmd/rgkit's `rgkit grep` and the `rg` it
// installs are thin wrappers around it; a program that wants "rg inside
// itself" (a sandboxed shell, a WebAssembly build, a test harness) calls
// Main.
//
// By default it searches with the pure-Go engine alone, so a program that
// imports it links no subprocess or network code of rgkit's. A Program
// can name other engines (Engines) and hand the whole command line to a
// real rg when one is present (Delegate).
package rg

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"golang.org/x/term"

	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/internal/rgcli"
	"github.com/rgkit/rgkit/search"
)

// Program is one configuration of the rg command line. The zero value is
// the pure-Go rg: the native engine, the process environment, no handover.
type Program struct {
	// Getenv reads the environment (RIPGREP_CONFIG_PATH, NO_COLOR, ...);
	// nil is os.Getenv.
	Getenv func(string) string
	// Engines returns the Chain for a --backend value ("auto", "fastest",
	// "native", ...); nil is NativeOnly.
	Engines func(backend string) (*search.Chain, error)
	// Delegate, when set, runs the command line with a real rg whose
	// version starts with versionPrefix ("15." or "" for any) and reports
	// ran=false when there is none. It is asked before the library
	// searches with --backend auto or ripgrep, so that rg itself answers
	// where it is installed.
	Delegate func(ctx context.Context, versionPrefix string, args []string, in io.Reader, out, errOut io.Writer) (exit int, ran bool)
	// Version writes what --version prints below "ripgrep 15.2.0": what
	// this program is; nil is DefaultAbout.
	Version func(ctx context.Context, w io.Writer)
	// Preprocess runs rg --pre's command for one file: command with path
	// (as rg names the file) as its one argument and stdin reading the
	// file, returning its output (see internal/preproc, which rgkit's
	// command line uses). nil refuses --pre: the package itself starts no
	// programs.
	Preprocess func(ctx context.Context, command, path string, stdin *os.File) (io.ReadCloser, error)
	// Hostname runs rg --hostname-bin's program and returns the host name
	// it printed (see internal/preproc.Hostname); on an error the system's
	// host name serves, as in rg. nil refuses --hostname-bin where a
	// hyperlink would use it.
	Hostname func(ctx context.Context, program string) (string, error)
	// Threads, when set, is told rg's -j/--threads (n >= 1) before the
	// search. A command passes SetProcs, so that -j1 runs on one core as
	// rg's does (garbage collection and the walk included); nil leaves the
	// process alone, and -j only bounds the native engine's workers.
	Threads func(n int)
}

// SetProcs is the Threads of a command: rg -jN becomes GOMAXPROCS=N for
// the rest of the process.
func SetProcs(n int) { runtime.GOMAXPROCS(n) }

// Main runs one rg command line (args without the program name) with the
// zero Program and returns rg's exit status: 0 a match, 1 none, 2 an error.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var p Program
	return p.Main(ctx, args, stdin, stdout, stderr)
}

// NativeOnly is the default Engines: the pure-Go engine for "auto",
// "fastest" and "native", and an error naming the choice for any other.
func NativeOnly(backend string) (*search.Chain, error) {
	switch backend {
	case "auto", "fastest", "native":
		return &search.Chain{Engines: []search.Engine{native.New()}}, nil
	}
	return nil, fmt.Errorf("%q is not available in this program (it has the native engine only)", backend)
}

// streams are the standard streams of one run.
type streams struct {
	in          io.Reader
	out, errOut io.Writer
}

// Main runs one rg command line and returns its exit status. Messages go
// to stderr prefixed "rg: " as rg's do.
func (p *Program) Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	s := streams{in: stdin, out: stdout, errOut: stderr}
	getenv := p.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	delegate := func(prefix string, args []string) (int, bool) {
		if p.Delegate == nil {
			return 0, false
		}
		return p.Delegate(ctx, prefix, args, stdin, stdout, stderr)
	}
	if o, err := rgcli.Parse(args); err == nil && o.Special != rgcli.NoSpecial {
		return p.special(ctx, s, o, args, delegate)
	}
	cfg, err := rgcli.ConfigArgs(getenv, args)
	var cfgErr *rgcli.ConfigReadError
	if errors.As(err, &cfgErr) {
		fmt.Fprintln(s.errOut, "rg:", err) // rg warns and searches without it
	} else if err != nil {
		fmt.Fprintln(s.errOut, "rg:", err)
		return 2
	}
	o, err := rgcli.Parse(append(cfg, args...))
	if err != nil {
		// rg itself, when it is here, has the last word on its own command
		// line (a spelling rgcli does not know yet still works).
		if len(StripRgkitFlags(args)) == len(args) {
			if code, ok := delegate("15.", args); ok {
				return code
			}
		}
		fmt.Fprintln(s.errOut, "rg:", err)
		return 2
	}
	if o.Special != rgcli.NoSpecial { // from the config file (rg aborts there)
		return p.special(ctx, s, o, args, delegate)
	}
	if o.Format != "rgkit-json" && (o.Backend == "" || o.Backend == "auto" || o.Backend == "ripgrep") {
		if code, ok := delegate("15.", StripRgkitFlags(args)); ok {
			return code
		}
	}
	if o.Mode == rgcli.ModeTypeList {
		return printTypeList(s, o)
	}
	return p.runLibrary(ctx, s, o)
}

// StripRgkitFlags removes rgkit's own flags (--backend, --format) before
// the arguments go to a real rg.
func StripRgkitFlags(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		name, _, hasVal := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		if strings.HasPrefix(a, "--") && isRgkitFlag(name) {
			if !hasVal {
				i++
			}
			continue
		}
		out = append(out, a)
	}
	return out
}

func isRgkitFlag(name string) bool {
	for _, f := range rgcli.RgkitOnly {
		if f == name {
			return true
		}
	}
	return false
}

// isTerminal reports whether w is a terminal.
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// stdinReadable applies rg's rule for searching stdin when no PATH is
// given: stdin is a file, a pipe or a socket (not a terminal, not
// /dev/null). A reader that is not a file (an in-process caller's) counts.
func stdinReadable(in io.Reader) bool {
	if in == nil {
		return false
	}
	f, ok := in.(*os.File)
	if !ok {
		return true
	}
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	m := fi.Mode()
	return m.IsRegular() || m&os.ModeNamedPipe != 0 || m&os.ModeSocket != 0
}

// errUnsupported is a flag the library's engines cannot honour, with why.
type errUnsupported struct{ flag, why string }

func (e *errUnsupported) Error() string {
	return fmt.Sprintf("%s is not supported by rgkit's engines (%s); install rg 15 (rgkit fetch) to use it", e.flag, e.why)
}
