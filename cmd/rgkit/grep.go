package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/rgkit/rgkit/internal/rgcli"
	"github.com/rgkit/rgkit/search"
)

// newGrepCmd is `rgkit grep`: rg 15's command line, parsed by rgcli
// rather than by cobra so that bundles, negations and rg's messages are
// rg's own.
func newGrepCmd(s streams) *cobra.Command {
	return &cobra.Command{
		Use:     "grep [rg flags] PATTERN [PATH...]",
		Aliases: []string{"rg"},
		Short:   "Search like rg 15 (the same flags and bytes; any engine)",
		Long: `Search files with rg 15.2.0's command line and output.

With --backend auto (the default) or ripgrep, an rg 15.x found on this
machine runs with your arguments and its output passes straight through.
Otherwise the library's engines search and an rg-exact printer prints.
rgkit adds two flags: --backend auto|fastest|ripgrep|gitgrep|grep|native
and --format rg|rgkit-json (rgkit's compact JSON Lines).

Exit status: 0 a match was found, 1 no match, 2 an error.`,
		DisableFlagParsing: true,
		// rgcli parses the flags, so it completes them too: rg's long
		// flags and the values of --backend, --sort, --color, -t, ...
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			if c := rgcli.Complete(args, toComplete, search.TypeNames); c != nil {
				return c, cobra.ShellCompDirectiveNoFileComp
			}
			return nil, cobra.ShellCompDirectiveDefault
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if code := runRg(cmd.Context(), s, args); code != 0 {
				return &exitError{code: code}
			}
			return nil
		},
	}
}

// rgEnv is what the rg command line reads from its environment; tests
// substitute it.
type rgEnv struct {
	getenv func(string) string
}

// runRg runs one rg command line and returns its exit status. Messages go
// to stderr prefixed "rg: " as rg's do.
func runRg(ctx context.Context, s streams, args []string) int {
	env := rgEnv{getenv: os.Getenv}
	cfg, err := rgcli.ConfigArgs(env.getenv, args)
	if err != nil {
		fmt.Fprintln(s.errOut, "rg:", err)
		return 2
	}
	o, err := rgcli.Parse(append(cfg, args...))
	if err != nil {
		// rg itself, when it is here, has the last word on its own command
		// line (a spelling rgcli does not know yet still works).
		if len(stripRgkitFlags(args)) == len(args) {
			if rg, ok := passthroughRg(ctx, env); ok {
				return execRg(ctx, s, rg, args)
			}
		}
		fmt.Fprintln(s.errOut, "rg:", err)
		return 2
	}
	switch o.Mode {
	case rgcli.ModeVersion:
		printVersion(ctx, s.out)
		return 0
	case rgcli.ModeHelp:
		fmt.Fprint(s.out, rgHelp)
		return 0
	}
	if o.Format != "rgkit-json" && (o.Backend == "" || o.Backend == "auto" || o.Backend == "ripgrep") {
		if rg, ok := passthroughRg(ctx, env); ok {
			return execRg(ctx, s, rg, stripRgkitFlags(args))
		}
	}
	if o.PCRE2 && o.Format != "rgkit-json" && (o.Backend == "" || o.Backend == "auto" || o.Backend == "ripgrep") {
		// PCRE2 exists only inside rg: any rg found runs it, in its own
		// version's output format (rg 15's is identical; 13 and 14 differ
		// in details, see docs/cli.md).
		if rg, ok := findRg(ctx, env, ""); ok {
			return execRg(ctx, s, rg, stripRgkitFlags(args))
		}
	}
	if o.Mode == rgcli.ModeTypeList {
		return printTypeList(s, o)
	}
	return runLibrary(ctx, s, o)
}

// stripRgkitFlags removes rgkit's own flags (--backend, --format) before
// the arguments go to a real rg.
func stripRgkitFlags(args []string) []string {
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
