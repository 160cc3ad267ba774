package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/rgkit/rgkit/backends"
	"github.com/rgkit/rgkit/bench"
	"github.com/rgkit/rgkit/internal/realrg"
	"github.com/rgkit/rgkit/search"
)

// benchOptions are `rgkit bench`'s flags.
type benchOptions struct {
	backends   []string
	patterns   []string
	ignoreCase bool
	runs       int
	warmup     int
	format     string
	svg        string
	scale      string
	logScale   bool
	rg         string
}

func newBenchCmd(s streams) *cobra.Command {
	var o benchOptions
	cmd := &cobra.Command{
		Use:   "bench [flags] [PATH]",
		Short: "Measure the search engines against each other on a tree, and check they agree",
		Long: `bench runs every available engine on every pattern over PATH (default: the current
directory) beside rg itself (--rg): warm-up runs, then interleaved rounds. Each run prints every
matching line to a pipe, as rgkit grep does, and reports wall time (median and range), time to
the first result, CPU time and peak memory, the ratio to rg's time (without an rg on PATH
the rg row is missing and the report says so; an --rg that cannot run is an error), and whether every engine
found the same matches. Without -e it runs a default suite: rare literal, common literal,
case-insensitive literal, alternation, class regex, no-literal regex, word match, file listing.

Exit status: 0 when the engines agree, 3 when they disagree, 2 on error.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			root := "."
			if len(args) == 1 {
				root = args[0]
			}
			return runBench(cmd, s, o, root)
		},
	}
	f := cmd.Flags()
	f.StringSliceVar(&o.backends, "backends", nil, "engines to measure, comma-separated (default: every available one: ripgrep,gitgrep,grep,native)")
	f.StringArrayVarP(&o.patterns, "regexp", "e", nil, "a pattern to measure (repeatable; default: the built-in suite)")
	f.BoolVarP(&o.ignoreCase, "ignore-case", "i", false, "match the -e patterns case-insensitively")
	f.IntVar(&o.runs, "runs", 10, "measured runs per engine and pattern")
	f.IntVar(&o.warmup, "warmup", 1, "unmeasured warm-up runs per engine and pattern")
	f.StringVar(&o.format, "format", "table", "output format: table, markdown, json or csv")
	f.StringVar(&o.svg, "svg", "", "also write a bar chart to this SVG file")
	f.StringVar(&o.scale, "scale", "auto", "chart time axis: auto (log when times span more than 20×), linear or log")
	f.BoolVar(&o.logScale, "log", false, "same as --scale log")
	f.StringVar(&o.rg, "rg", "rg", `the rg every engine is compared with, run directly (a path, or a name on PATH; "" for none)`)
	completeValues(cmd, "format", "table", "markdown", "json", "csv")
	completeValues(cmd, "scale", "auto", "linear", "log")
	completeValues(cmd, "backends", "ripgrep", "gitgrep", "grep", "native")
	return cmd
}

func runBench(cmd *cobra.Command, s streams, o benchOptions, root string) error {
	format, err := bench.ParseFormat(o.format)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	scale, err := bench.ParseScale(o.scale)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	if o.logScale {
		scale = bench.ScaleLog
	}
	if o.runs < 1 {
		return &exitError{code: 2, err: errors.New("--runs must be at least 1")}
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return &exitError{code: 2, err: fmt.Errorf("bench needs a directory: %s", root)}
	}
	ctx := cmd.Context()
	engines, skipped, err := bench.Engines(ctx, o.backends, backends.Options{Locate: realrg.Locate()})
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	if o.rg != "" {
		base, err := bench.NewBaseline(ctx, o.rg)
		switch {
		case err == nil:
			engines = append([]bench.Engine{base}, engines...)
		case cmd.Flags().Changed("rg"):
			return &exitError{code: 2, err: fmt.Errorf("%w (give --rg PATH, or --rg \"\" to measure without it)", err)}
		default:
			// No rg on this machine: measure the engines without the
			// baseline, and say its row and the ratios to it are missing.
			skipped = append(skipped, search.Skip{Backend: bench.BaselineName,
				Reason: fmt.Errorf("no rg row, no ratios to rg (give --rg PATH to compare): %w", err)})
		}
	}
	tasks := benchTasks(o)

	opts := bench.Options{Root: abs, Engines: engines, Tasks: tasks, Runs: o.runs, Warmup: o.warmup, Skipped: skipped}
	opts.Progress = progressBar(s.errOut)
	rep, err := bench.Run(ctx, opts)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	if err := writeBench(s, rep, format, o.svg, scale); err != nil {
		return &exitError{code: 2, err: err}
	}
	return disagreementExit(rep)
}

// benchTasks is the default suite, or one task per --pattern.
func benchTasks(o benchOptions) []bench.Task {
	tasks := bench.DefaultSuite()
	if len(o.patterns) > 0 {
		tasks = nil
		for _, p := range o.patterns {
			q := search.Query{Pattern: p}
			if o.ignoreCase {
				q.Case = search.CaseInsensitive
			}
			tasks = append(tasks, bench.Task{Name: p, Query: q})
		}
	}
	return tasks
}

// writeBench prints the report and, with --svg, writes its chart.
func writeBench(s streams, rep *bench.Report, format bench.Format, svg string, scale bench.Scale) error {
	if err := rep.Write(s.out, format); err != nil {
		return err
	}
	if svg == "" {
		return nil
	}
	var b strings.Builder
	if err := rep.WriteSVG(&b, bench.ChartOptions{Scale: scale}); err != nil {
		return err
	}
	return os.WriteFile(svg, []byte(b.String()), 0o644)
}

// disagreementExit is exit status 3 when engines found different matches:
// a benchmark of engines that disagree must not pass in a script.
func disagreementExit(rep *bench.Report) error {
	if len(rep.Disagreements) == 0 {
		return nil
	}
	return &exitError{code: 3, err: fmt.Errorf("%w: %d task(s) differ; see above", bench.ErrDisagree, len(rep.Disagreements))}
}

// progressBar draws the measurement's progress on a terminal stderr, and
// is nil (no progress) otherwise.
func progressBar(errOut io.Writer) func(done, total int) {
	f, ok := errOut.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	var bar *progressbar.ProgressBar
	return func(done, total int) {
		if bar == nil {
			bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(f),
				progressbar.OptionSetDescription("measuring"), progressbar.OptionClearOnFinish(),
				progressbar.OptionShowCount())
		}
		_ = bar.Set(done)
	}
}
