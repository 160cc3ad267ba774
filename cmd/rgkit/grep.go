package main

import (
	"context"
	"io"
	"sync"

	"github.com/spf13/cobra"

	"github.com/rgkit/rgkit/backends"
	_ "github.com/rgkit/rgkit/internal/decompress/brotli" // rg -z reads .br files (it links net/http, so the library does not)
	"github.com/rgkit/rgkit/internal/preproc"
	"github.com/rgkit/rgkit/internal/realrg"
	"github.com/rgkit/rgkit/internal/rgcli"
	"github.com/rgkit/rgkit/rg"
	"github.com/rgkit/rgkit/search"
)

// newGrepCmd is `rgkit grep`: rg 15's command line, parsed by package rg
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

// runRg runs one rg command line and returns its exit status: package
// rg's pure-Go rg with every engine rgkit has, handing over to a real rg
// 15 where one is installed.
func runRg(ctx context.Context, s streams, args []string) int {
	p := rg.Program{
		Engines: engineChain,
		// --pre is the user's own command on the command line: the CLI runs
		// it (the library never does).
		Preprocess: preproc.Start,
		Hostname:   preproc.Hostname,
		Delegate: func(ctx context.Context, prefix string, args []string, in io.Reader, out, errOut io.Writer) (int, bool) {
			path, ok := realrg.Find(ctx, prefix)
			if !ok {
				return 0, false
			}
			return realrg.Exec(ctx, path, args, in, out, errOut), true
		},
		Version: printVersion,
		Threads: rg.SetProcs,
	}
	return p.Main(ctx, args, s.in, s.out, s.errOut)
}

// engineChain is the Chain for a --backend value: the default chain for
// auto, ordered by cost for fastest, else the one engine named.
func engineChain(backend string) (*search.Chain, error) {
	all := backends.Default(backends.Options{Locate: locateOnce(realrg.Locate())})
	switch backend {
	case "auto":
		return all, nil
	case "fastest":
		all.Policy = search.PolicyFastest
		return all, nil
	}
	b, err := all.ByName(backend)
	if err != nil {
		return nil, err
	}
	return &search.Chain{Engines: []search.Engine{b}}, nil
}

// locateOnce resolves rg once per command line: the listing modes (-v,
// --passthru) run one search per batch of listed files, and each would
// ask the resolver again (8 µs, a tenth of a one-file search).
func locateOnce(locate func(context.Context) (string, error)) func(context.Context) (string, error) {
	var (
		mu   sync.Mutex
		done bool
		path string
		err  error
	)
	return func(ctx context.Context) (string, error) {
		mu.Lock()
		defer mu.Unlock()
		if !done {
			path, err = locate(ctx)
			done = ctx.Err() == nil
		}
		return path, err
	}
}
