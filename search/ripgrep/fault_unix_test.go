//go:build unix

package ripgrep

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rgkit/rgkit/internal/proc/proctest"
	"github.com/rgkit/rgkit/internal/searchtest"
	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/search"
	"github.com/rgkit/rgkit/search/native"
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

// TestRipgrep15WordUsesRg13Semantics: with an rg whose -w is not rg 13's,
// rg runs rg 13's wrapper and the native matcher places the spans, so the
// answer is the native engine's; a multiline Word query is refused before
// rg runs. The stand-in reports 15.1.0 and runs the real rg underneath.
func TestRipgrep15WordUsesRg13Semantics(t *testing.T) {
	real := testtool.Need(t, "rg")
	dir := t.TempDir()
	ran := filepath.Join(dir, "ran")
	script := filepath.Join(dir, "rg")
	searchtest.Must(t, os.WriteFile(script, []byte("#!/bin/sh\n[ \"$1\" = --version ] && { echo 'ripgrep 15.1.0 (rev abc)'; exit 0; }\n"+
		"for a; do [ \"$a\" = --word-regexp ] && echo used-w >> "+ran+"; done\nexec "+real+" \"$@\"\n"), 0o755))
	rg := New(func(context.Context) (string, error) { return script, nil })
	info, err := rg.Available(context.Background())
	if err != nil || info.Version != "15.1.0" {
		t.Fatalf("Available = %+v, %v", info, err)
	}
	root := searchtest.WriteTree(t, rgCorpus)
	for _, q := range []search.Query{
		{Pattern: "foo", Word: true},
		{Pattern: "foo", Word: true, Case: search.CaseInsensitive, Before: 1},
		{Pattern: `\w+o`, Word: true},
		{Pattern: "é", Word: true},
		{Pattern: "foo", Word: true, Mode: search.ModeCount},
		{Pattern: `\w[a-z]\w*`, Word: true},
		{Pattern: `-bar|_bar`, Word: true},
		{Pattern: `o*`, Word: true},
		{Pattern: "FOO", Word: true, Fixed: true, Case: search.CaseInsensitive, MaxCountPerFile: 1, After: 1},
	} {
		q.Root = root
		want, _, err := searchtest.Run(t, native.New(), q)
		searchtest.Must(t, err)
		got, _, err := searchtest.Run(t, rg, q)
		if err != nil {
			t.Fatalf("%+v: %v", q, err)
		}
		if got.String() != want.String() {
			t.Errorf("%q: rg 15 stand-in\n%s\nnative\n%s", q.Pattern, got, want)
		}
	}
	if _, err := os.Stat(ran); err == nil {
		t.Error("rg 15 was given --word-regexp")
	}
	log, _, err := searchtest.Run(t, rg, search.Query{Pattern: "foo", Root: root, Word: true, Multiline: true})
	if !errors.Is(err, search.ErrUnsupported) || log.String() != "" {
		t.Errorf("multiline: err = %v, output %q; want ErrUnsupported and nothing", err, log)
	}
}

// TestRipgrepRefusalBeforeSearchingIsUnsupported: rg exiting 2 before
// reading any file (a regex over its size limit, a pattern a newer rg
// refuses) lets the Chain try the next engine.
func TestRipgrepRefusalBeforeSearchingIsUnsupported(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "rg")
	searchtest.Must(t, os.WriteFile(script, []byte("#!/bin/sh\n[ \"$1\" = --version ] && { echo 'ripgrep 14.1.1'; exit 0; }\n"+
		"echo 'rg: compiled regex exceeds size limit of 10485760' >&2\nexit 2\n"), 0o755))
	rg := New(func(context.Context) (string, error) { return script, nil })
	_, _, err := searchtest.Run(t, rg, search.Query{Pattern: "foo", Root: t.TempDir()})
	if !errors.Is(err, search.ErrUnsupported) || !strings.Contains(err.Error(), "size limit") {
		t.Errorf("err = %v, want ErrUnsupported carrying rg's message", err)
	}
}
