package backends

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/search"
)

// A confined query (search.Query.Confine, what the agent tools and the MCP
// server send) goes straight to the in-process engine on the default chain:
// rg refuses it, and git grep or grep would only choose files whose lines
// are re-read beneath the root anyway. Before, the chain passed over rg and
// ran git grep, spawning a process for the answer the native engine gives.
func TestConfinedQueryGoesStraightToTheInProcessEngine(t *testing.T) {
	t.Parallel()
	testtool.Need(t, "rg")
	testtool.Need(t, "git")
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("one needle\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitInit(t, root)
	held, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { held.Close() })
	for _, policy := range []search.Policy{search.PolicyFallback, search.PolicyFastest} {
		for _, confined := range []bool{false, true} {
			name := map[bool]string{false: "unconfined", true: "confined"}[confined]
			t.Run(name+"/policy "+map[search.Policy]string{search.PolicyFallback: "fallback", search.PolicyFastest: "fastest"}[policy], func(t *testing.T) {
				t.Parallel()
				q := search.Query{Pattern: "needle", Root: root}
				if confined {
					q.Confine = held
				}
				lines := 0
				chain := Default(Options{Policy: policy})
				chain.CountFiles = func(context.Context, search.Query, int) int { return 1 << 20 } // a large tree: no reordering for size
				res, err := chain.Search(context.Background(), q, search.SinkFunc(func(search.Line) error { lines++; return nil }))
				if err != nil {
					t.Fatal(err)
				}
				if lines != 1 {
					t.Errorf("%d lines, want 1", lines)
				}
				want := "ripgrep"
				if confined {
					want = "native"
				}
				if res.Backend != want || len(res.Skipped) != 0 {
					t.Errorf("ran %s after passing over %v, want %s straight away", res.Backend, res.Skipped, want)
				}
			})
		}
	}
}
