//go:build unix

package ripgrep

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/internal/proc/proctest"
	"github.com/rgkit/rgkit/internal/searchtest"
	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/search"
)

// fakeRipgrep is the ripgrep engine running a stand-in rg.
func fakeRipgrep(t *testing.T, name string) *Engine {
	path := proctest.FakeEngine(t, name)
	rg := New(func(context.Context) (string, error) { return path, nil })
	rg.Grace = 200 * time.Millisecond
	return rg
}

func readPid(t *testing.T, root string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, ".pid"))
	if err != nil {
		t.Fatalf("the stand-in left no pid: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

func TestRipgrepTimeoutKeepsPartialResultsAndLeavesNoOrphan(t *testing.T) {
	root := t.TempDir()
	q, err := search.Normalize(search.Query{Pattern: "foo", Root: root})
	searchtest.Must(t, err)
	// The deadline "expires" as soon as the first line has arrived, whatever
	// the machine's load.
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	log := searchtest.NewResultLog()
	_, err = fakeRipgrep(t, "rg-hang").Search(ctx, q, expireOnLine{log, func() { cancel(context.DeadlineExceeded) }})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want one wrapping context.DeadlineExceeded (the Chain marks it Partial)", err)
	}
	if !strings.Contains(log.String(), `match 1 col=1 spans=[{0 3}] "foo"`) {
		t.Errorf("the match printed before the hang was lost:\n%s", log)
	}
	proctest.AssertGroupGone(t, readPid(t, root))
}

// expireOnLine passes everything to a resultLog and calls expire on the
// first line.
type expireOnLine struct {
	*searchtest.ResultLog
	expire func()
}

func (e expireOnLine) Line(l search.Line) error {
	err := e.ResultLog.Line(l)
	e.expire()
	return err
}

func TestRipgrepGrandchildHoldingStdout(t *testing.T) {
	root := t.TempDir()
	log, _, err := searchtest.Run(t, fakeRipgrep(t, "rg-grandchild"), search.Query{Pattern: "foo", Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "end matched=1") {
		t.Errorf("results lost:\n%s", log)
	}
	proctest.AssertGroupGone(t, readPid(t, root))
}

func TestRipgrepRetriesEAGAINWithOneThread(t *testing.T) {
	root := t.TempDir()
	log, _, err := searchtest.Run(t, fakeRipgrep(t, "rg-eagain-once"), search.Query{Pattern: "foo", Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "end matched=1") {
		t.Errorf("results of the retry missing:\n%s", log)
	}
	b, err := os.ReadFile(filepath.Join(root, ".args"))
	searchtest.Must(t, err)
	runs := strings.Split(strings.TrimSuffix(string(b), "--end--\n"), "--end--\n")
	if len(runs) != 2 {
		t.Fatalf("rg ran %d times, want 2 (one retry):\n%s", len(runs), b)
	}
	if strings.Contains(runs[0], "--threads") {
		t.Errorf("first run already limited threads:\n%s", runs[0])
	}
	first := strings.Split(strings.TrimSpace(runs[0]), "\n")
	second := strings.Split(strings.TrimSpace(runs[1]), "\n")
	if len(second) != len(first)+1 || !strings.Contains(runs[1], "\n--threads=1\n") {
		t.Errorf("the retry should be the same command plus --threads=1:\nfirst:\n%s\nsecond:\n%s", runs[0], runs[1])
	}
}

func TestRipgrepOutputFloodIsCapped(t *testing.T) {
	root := t.TempDir()
	rg := fakeRipgrep(t, "rg-flood")
	rg.MaxStdout = 1 << 20
	q, err := search.Normalize(search.Query{Pattern: "foo", Root: root})
	searchtest.Must(t, err)
	lines := 0
	_, err = rg.Search(context.Background(), q, search.SinkFunc(func(search.Line) error { lines++; return nil }))
	if err == nil || !strings.Contains(err.Error(), "cap") {
		t.Errorf("err = %v, want the output cap reported", err)
	}
	if lines == 0 || lines > (1<<20)/100 {
		t.Errorf("%d lines delivered from 1 MiB of records", lines)
	}
	proctest.AssertGroupGone(t, readPid(t, root))
}

func TestRipgrepExit2KeepsResultsAndCountsUnreadable(t *testing.T) {
	root := t.TempDir()
	log, st, err := searchtest.Run(t, fakeRipgrep(t, "rg-unreadable"), search.Query{Pattern: "foo", Root: root})
	if err != nil {
		t.Fatalf("err = %v, want nil: exit 2 with results is a partial success", err)
	}
	if st.Unreadable != 1 {
		t.Errorf("Unreadable = %d, want 1", st.Unreadable)
	}
	if !strings.Contains(log.String(), "end matched=1") {
		t.Errorf("results lost:\n%s", log)
	}
}

// standIn writes an executable rg that reports version v and runs the real
// rg underneath, logging each run's arguments (one per line, runs
// separated by "--END--") to the returned log file.
func standIn(t *testing.T, real, v string) (script, log string) {
	t.Helper()
	dir := t.TempDir()
	log = filepath.Join(dir, "args")
	script = filepath.Join(dir, "rg")
	searchtest.Must(t, os.WriteFile(script, []byte("#!/bin/sh\n[ \"$1\" = --version ] && { echo 'ripgrep "+v+" (rev abc)'; exit 0; }\n"+
		"for a; do printf '%s\\n' \"$a\" >> "+log+"; done; echo --END-- >> "+log+"\nexec "+real+" \"$@\"\n"), 0o755))
	return script, log
}

// TestRipgrepOlderThanTheReferenceOnlyPrunes: an rg older than the
// reference (here any real rg behind a stand-in that says 14.1.1) is given
// the native walker's files by name with --no-ignore and the bare pattern
// (no -w, -m, context, globs or types), and the answer is the native
// engine's: the reference's by construction, whatever the tree's ignore
// files hold and whatever rg 14's -U -m or -c -m -A would say.
func TestRipgrepOlderThanTheReferenceOnlyPrunes(t *testing.T) {
	real := testtool.Need(t, "rg")
	script, log := standIn(t, real, "14.1.1")
	rg := New(func(context.Context) (string, error) { return script, nil })
	rg.SkipByteStats() // the byte counts are approximate: rg -l may prune
	root := searchtest.WriteTree(t, rgCorpus)
	for _, q := range []search.Query{
		{Pattern: "foo", Word: true},
		{Pattern: `\w[a-z]\w*`, Word: true},
		{Pattern: "foo", Word: true, Case: search.CaseInsensitive, Before: 1},
		{Pattern: "foo", Mode: search.ModeCount, MaxCountPerFile: 1, After: 2},
		{Pattern: "foo", Mode: search.ModeFilesWithMatches, Globs: []string{"*.txt"}},
		{Pattern: "foo", Types: []string{"ts"}},
		{Pattern: "alpha\nbeta", Multiline: true, MaxCountPerFile: 1},
		{Pattern: "foo", Paths: []string{"src", "bin.dat"}},
		{Pattern: "nothing matches this"},
	} {
		q.Root = root
		searchtest.Must(t, os.RemoveAll(log))
		want, _, err := searchtest.Run(t, native.New(), q)
		searchtest.Must(t, err)
		got, _, err := searchtest.Run(t, rg, q)
		if err != nil {
			t.Fatalf("%+v: %v", q, err)
		}
		if got.String() != want.String() {
			t.Errorf("%+v: rg 14 stand-in\n%s\nnative\n%s", q, got, want)
		}
		b, err := os.ReadFile(log)
		searchtest.Must(t, err)
		args := strings.Split(string(b), "\n")
		if !slices.Contains(args, "--no-ignore") || !slices.Contains(args, "--files-with-matches") {
			t.Errorf("%+v: rg was not run as a -l --no-ignore prefilter: %q", q, args)
		}
		for _, a := range args {
			if a == "--word-regexp" || strings.HasPrefix(a, "--glob") || strings.HasPrefix(a, "--type") ||
				strings.HasPrefix(a, "--max-count") || strings.HasPrefix(a, "--after") || a == root {
				t.Errorf("%+v: the prefilter was given %q", q, a)
			}
		}
	}
	// Whoever reads the byte counts gets rg 15's: rg 14 counts a binary
	// file whole, so nothing is pruned and it is not run.
	searchtest.Must(t, os.RemoveAll(log))
	exact := New(func(context.Context) (string, error) { return script, nil })
	q := search.Query{Pattern: "foo", Root: root}
	_, want, err := searchtest.Run(t, native.New(), q)
	searchtest.Must(t, err)
	_, got, err := searchtest.Run(t, exact, q)
	searchtest.Must(t, err)
	if got.BytesSearched != want.BytesSearched || got.Binary != want.Binary || got.FilesSearched != want.FilesSearched {
		t.Errorf("stats %+v, native's %+v", got, want)
	}
	if _, err := os.Stat(log); err == nil {
		t.Error("rg 14 was run to prune a search whose byte counts are read")
	}
}

// TestRipgrep13RefusesNotWordBoundary: rg 13 never matches \B before ^,
// so its -l would miss files; the engine refuses before running it.
func TestRipgrep13RefusesNotWordBoundary(t *testing.T) {
	real := testtool.Need(t, "rg")
	script, log := standIn(t, real, "13.0.0")
	rg := New(func(context.Context) (string, error) { return script, nil })
	root := searchtest.WriteTree(t, map[string]string{"t": "(x\nx\n\n y\n9a\n"})
	for _, p := range []string{`\B^{2}`, `\B`, `a\Bb`} {
		out, _, err := searchtest.Run(t, rg, search.Query{Pattern: p, Root: root})
		if !errors.Is(err, search.ErrUnsupported) || out.String() != "" {
			t.Errorf("%q: err = %v, output %q; want ErrUnsupported and nothing", p, err, out)
		}
	}
	if _, err := os.Stat(log); err == nil {
		t.Error("rg 13 was run")
	}
	// An escaped backslash before B is a literal: searched.
	if _, _, err := searchtest.Run(t, rg, search.Query{Pattern: `\\B`, Root: root}); err != nil {
		t.Errorf(`\\B: %v`, err)
	}
}

// TestRipgrepRefusalBeforeSearchingIsUnsupported: rg exiting 2 before
// reading any file (a regex over its size limit, a pattern a newer rg
// refuses) lets the Chain try the next engine.
func TestRipgrepRefusalBeforeSearchingIsUnsupported(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "rg")
	searchtest.Must(t, os.WriteFile(script, []byte("#!/bin/sh\n[ \"$1\" = --version ] && { echo 'ripgrep 15.2.0'; exit 0; }\n"+
		"echo 'rg: compiled regex exceeds size limit of 10485760' >&2\nexit 2\n"), 0o755))
	rg := New(func(context.Context) (string, error) { return script, nil })
	_, _, err := searchtest.Run(t, rg, search.Query{Pattern: "foo", Root: t.TempDir()})
	if !errors.Is(err, search.ErrUnsupported) || !strings.Contains(err.Error(), "size limit") {
		t.Errorf("err = %v, want ErrUnsupported carrying rg's message", err)
	}
}
