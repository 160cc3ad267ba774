package ripgrep

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/search"
)

// Issue 11, item 1: rg 15 builds a line's whole --json record before it
// prints it, so one 50 MB line of "A" searched for "A" cost the rg child
// 6.4 GB and 4 minutes, whatever rgkit's own caps. The engine now caps rg's
// memory, and the Chain answers with the next engine. The cap is set low
// here (rg passes it within seconds); DefaultMaxMemory is 1 GiB.

const (
	testMemoryCap = 64 << 20
	// testMemorySlack is what rg's peak may pass the cap by: its file pages
	// (not capped) and the growth between two samples.
	testMemorySlack = 64 << 20
)

// longLineTree writes a tree whose one file is longLineLen bytes of "A"
// and a newline, plus the extra files given.
func longLineTree(t *testing.T, extra map[string]string) string {
	t.Helper()
	root := t.TempDir()
	line := make([]byte, longLineLen+1)
	for i := range longLineLen {
		line[i] = 'A'
	}
	line[longLineLen] = '\n'
	if err := os.WriteFile(filepath.Join(root, "long.txt"), line, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, body := range extra {
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// referenceRipgrep is the engine running the reference rg (the first rg on
// PATH, or RGKIT_REFERENCE_RG when an older rg is first, as in CI's rg 14
// pass): older ones never print a line's matches (see searchOlder).
func referenceRipgrep(t *testing.T) *Engine {
	t.Helper()
	ref := testtool.ReferenceRg(t)
	r := New(func(context.Context) (string, error) { return ref, nil })
	info, err := r.Available(context.Background())
	if err != nil || info.Version != search.ReferenceVersion {
		testtool.Missing(t, fmt.Sprintf("needs rg %s (found %q at %s, %v)", search.ReferenceVersion, info.Version, ref, err))
	}
	r.MaxMemory = testMemoryCap
	return r
}

// lineSummary describes what a search reported, line by line.
type lineSummary struct {
	begins map[string]int
	lines  []string
}

func (s *lineSummary) Begin(path string) error { s.begins[path]++; return nil }
func (s *lineSummary) End(search.FileSummary) error {
	return nil
}
func (s *lineSummary) Line(l search.Line) error {
	s.lines = append(s.lines, fmt.Sprintf("%s:%d text=%d cut=%d spans=%d more=%d",
		l.Path, l.Number, len(l.Text), l.Cut, len(l.Submatches), l.MoreSubmatches))
	return nil
}

func searchChain(t *testing.T, engines []search.Engine, q search.Query) (*lineSummary, search.Result, error) {
	t.Helper()
	got := &lineSummary{begins: map[string]int{}}
	res, err := (&search.Chain{Engines: engines}).Search(context.Background(), q, got)
	return got, res, err
}

func TestOneLongLineStaysWithinRgsMemoryCap(t *testing.T) {
	if testing.Short() {
		t.Skip("searches a line of 20 million matches")
	}
	r := referenceRipgrep(t)
	root := longLineTree(t, nil)
	q := search.Query{Root: root, Pattern: "A", MaxColumns: 500}
	wantMsg := fmt.Sprintf("rg needed more than %d MiB of memory searching %s", testMemoryCap>>20, root)

	t.Run("the engine stops rg at the cap and says why", func(t *testing.T) {
		stats, err := r.Search(context.Background(), q, search.Discard)
		if !errors.Is(err, search.ErrMemoryCap) || !strings.Contains(fmt.Sprint(err), wantMsg) {
			t.Fatalf("err = %v, want ErrMemoryCap saying %q", err, wantMsg)
		}
		if stats.ProcessPeakRSS == 0 || stats.ProcessPeakRSS > testMemoryCap+testMemorySlack {
			t.Errorf("rg's peak resident set %d MiB, want at most %d MiB", stats.ProcessPeakRSS>>20, (testMemoryCap+testMemorySlack)>>20)
		}
		t.Logf("rg's peak %d MiB", stats.ProcessPeakRSS>>20)
	})

	want, _, err := searchChain(t, []search.Engine{native.New()}, q)
	if err != nil {
		t.Fatal(err)
	}
	for _, sort := range []search.SortOrder{search.SortPath, search.SortNone} {
		t.Run(fmt.Sprintf("the Chain answers with native (sort %d)", sort), func(t *testing.T) {
			q := q
			q.Sort = sort
			got, res, err := searchChain(t, []search.Engine{r, native.New()}, q)
			if err != nil || res.Partial {
				t.Fatalf("err %v, partial %v; want the native engine's full answer", err, res.Partial)
			}
			if res.Backend != "native" || len(res.Skipped) != 1 || !errors.Is(res.Skipped[0].Reason, search.ErrMemoryCap) {
				t.Errorf("backend %q, skipped %v; want native after ripgrep's memory cap", res.Backend, res.Skipped)
			}
			if w := strings.Join(res.Warnings, "\n"); !strings.Contains(w, wantMsg) || !strings.Contains(w, "; searched with native instead") {
				t.Errorf("warnings %q, want %q and the engine that answered", w, wantMsg)
			}
			if fmt.Sprint(got.lines) != fmt.Sprint(want.lines) {
				t.Errorf("lines %v, want the native engine's %v", got.lines, want.lines)
			}
			if res.Stats.ProcessPeakRSS == 0 || res.Stats.ProcessPeakRSS > testMemoryCap+testMemorySlack {
				t.Errorf("rg's peak resident set %d MiB, want at most %d MiB", res.Stats.ProcessPeakRSS>>20, (testMemoryCap+testMemorySlack)>>20)
			}
		})
	}
}

// With SortNone, files rg finished before it was stopped may already have
// reached the caller: the Chain then cannot start over without repeating
// them, and says the answer is partial. Which happens first depends on
// rg's threads; either way nothing reaches the caller twice.
func TestRgStoppedForMemoryAfterStreamingNeverRepeats(t *testing.T) {
	if testing.Short() {
		t.Skip("searches a line of 20 million matches")
	}
	r := referenceRipgrep(t)
	root := longLineTree(t, map[string]string{"a.txt": "A\n", "b.txt": "xA\n"})
	q := search.Query{Root: root, Pattern: "A", MaxColumns: 500, Sort: search.SortNone}
	got, res, err := searchChain(t, []search.Engine{r, native.New()}, q)
	for path, n := range got.begins {
		if n > 1 {
			t.Errorf("%s began %d times", path, n)
		}
	}
	switch {
	case err == nil:
		if res.Backend != "native" || len(got.lines) != 3 {
			t.Errorf("backend %q, lines %v; want native's three lines", res.Backend, got.lines)
		}
	case errors.Is(err, search.ErrMemoryCap):
		if !res.Partial || !strings.Contains(err.Error(), "results are partial") {
			t.Errorf("partial %v, err %v; want a partial answer that says so", res.Partial, err)
		}
	default:
		t.Fatalf("err %v, want none or ErrMemoryCap", err)
	}
	t.Logf("backend %s, err %v, lines %v", res.Backend, err, got.lines)
}
