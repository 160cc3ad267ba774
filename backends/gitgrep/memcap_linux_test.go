package gitgrep

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/search"
)

// TestGitGrepMemoryIsBounded: each git the engine starts runs under its
// memory cap (proc.Spec.MaxMemory, enforced on Linux), so a git that
// passes it is stopped and a Chain answers with its next engine, with the
// same lines. A cap far below what git needs to start shows it: without
// the cap git answers and the capped case fails.
func TestGitGrepMemoryIsBounded(t *testing.T) {
	t.Parallel()
	root := gitCorpus(t)
	q := search.Query{Pattern: "needle", Root: root, Sort: search.SortPath}
	run := func(engines ...search.Engine) (search.Result, []string) {
		t.Helper()
		var got []string
		res, err := (&search.Chain{Engines: engines}).Search(context.Background(), q,
			search.SinkFunc(func(l search.Line) error { got = append(got, fmt.Sprintf("%s:%d", l.Path, l.Number)); return nil }))
		if err != nil {
			t.Fatal(err)
		}
		return res, got
	}
	_, want := run(native.New())
	for _, c := range []struct {
		name     string
		maxMem   int64
		answerer string
	}{
		{"capped", 64 << 10, "native"},
		{"default cap", 0, "gitgrep"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := New()
			g.NoStats = true // git grep runs only when it can prune
			g.MaxMemory = c.maxMem
			res, got := run(g, native.New())
			// The cap is enforced by sampling (and an rlimit set just
			// after the start): a git that runs its course while the
			// sampler is starved by the other tests answers. Two more
			// tries tell that race from a cap never enforced.
			for try := 1; try < 3 && res.Backend != c.answerer && c.answerer == "native"; try++ {
				t.Logf("try %d answered by %s; trying again", try, res.Backend)
				res, got = run(g, native.New())
			}
			var why []string
			for _, s := range res.Skipped {
				why = append(why, s.Reason.Error())
			}
			why = append(why, res.Warnings...)
			if res.Backend != c.answerer {
				t.Fatalf("answered by %s (skipped or warned: %q), want %s", res.Backend, why, c.answerer)
			}
			// (How git fails under a cap this small varies: the sampler
			// kills it, or an allocation fails first and git says so, as
			// "out of memory" or as a PCRE2 JIT error; either way it must
			// not answer.)
			if c.answerer == "native" && (len(res.Skipped) == 0 || res.Skipped[0].Backend != "gitgrep") {
				t.Errorf("skipped %v, want git grep skipped", res.Skipped)
			}
			t.Logf("skipped or warned: %q", why)
			if !slices.Equal(got, want) {
				t.Errorf("lines %q, want native's %q", got, want)
			}
		})
	}
}
