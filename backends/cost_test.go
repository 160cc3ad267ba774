package backends

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/rgkit/rgkit/internal/searchtest"
	"github.com/rgkit/rgkit/search"
)

func TestClassifyPutsEachBenchmarkQueryInItsClass(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		q    search.Query
		want queryClass
	}{
		{search.Query{Pattern: "ErrUnexpectedEOF"}, classLiteral},
		{search.Query{Pattern: "a.b", Fixed: true}, classLiteral},
		{search.Query{Pattern: "http", Case: search.CaseInsensitive}, classLiteralFold},
		{search.Query{Pattern: "http", Case: search.CaseSmart}, classLiteralFold},
		{search.Query{Pattern: "HTTP", Case: search.CaseSmart}, classLiteral},
		{search.Query{Pattern: "(?i)http"}, classLiteralFold},
		{search.Query{Pattern: "ErrShortWrite|ErrUnexpectedEOF"}, classAlternation},
		{search.Query{Pattern: `\w+\d\s*=\s*\d`}, classRegex},
		{search.Query{Pattern: `(ERR|WARN)_[A-Z]+`}, classRegex},
		{search.Query{Pattern: `\w{5}\s+\w{5}\s+\w{5}`}, classNoLiteral},
		{search.Query{Pattern: `\b{start}foo`}, classRegex}, // rg's dialect, not Go's
		{search.Query{Pattern: `[[:alpha:]--a]`}, classNoLiteral},
		{search.Query{Pattern: `(get|set)Value`}, classAlternation},
		{search.Query{Pattern: "func", Mode: search.ModeCount}, classCount},
		{search.Query{Pattern: "func", Mode: search.ModeFilesWithMatches}, classFiles},
		{search.Query{Pattern: "package", Root: root, Paths: []string{"a.go"}}, classOneFile},
		{search.Query{Pattern: "package", Root: root, Paths: []string{"."}}, classLiteral},
	} {
		if got := classify(tt.q); got != tt.want {
			t.Errorf("classify(%+v) = %v, want %v", tt.q, got, tt.want)
		}
	}
}

// Without rg, the default chain's cost model has native answer every
// class that git grep and grep measured slower in, in a git work tree too,
// and both stay reachable by name (--backend).
func TestDefaultWithoutRgAnswersWithNative(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	searchtest.WriteFile(t, filepath.Join(root, "a.txt"), "hay\nneedle 1\n")
	searchtest.WriteFile(t, filepath.Join(root, "d/b.txt"), "NEEDLE\n")
	gitInit(t, root)
	noRg := func(context.Context) (string, error) { return "", errors.New("no rg here") }
	chain := Default(Options{Locate: noRg})
	discard := search.SinkFunc(func(search.Line) error { return nil })
	for _, q := range []search.Query{
		{Pattern: "needle", Root: root},
		{Pattern: "NEEDLE", Root: root, Case: search.CaseInsensitive},
		{Pattern: "needle|hay", Root: root},
		{Pattern: `\w+\d`, Root: root, Mode: search.ModeCount},
		{Pattern: "needle", Root: root, Mode: search.ModeFilesWithMatches},
		{Pattern: "needle", Root: root, Paths: []string{"a.txt"}},
	} {
		nq, err := search.Normalize(q)
		if err != nil {
			t.Fatal(err)
		}
		c := classify(nq)
		if measuredCost["gitgrep"][c] <= 1 || measuredCost["grep"][c] <= 1 {
			t.Logf("%v: a tool measured faster than native; it answers", c)
			continue
		}
		res, err := chain.Search(context.Background(), q, discard)
		if err != nil {
			t.Fatal(err)
		}
		if res.Backend != "native" || len(res.Skipped) != 1 || res.Skipped[0].Backend != "ripgrep" {
			t.Errorf("%v (%q): ran on %s, skipped %v; want native after ripgrep", c, q.Pattern, res.Backend, res.Skipped)
		}
	}
	for _, name := range []string{"gitgrep", "grep"} {
		e, err := chain.ByName(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Available(context.Background()); err != nil {
			t.Logf("%s: %v", name, err)
			continue
		}
		one := &search.Chain{Engines: []search.Engine{e}}
		res, err := one.Search(context.Background(), search.Query{Pattern: "needle", Root: root}, discard)
		if err != nil || res.Backend != name || res.Stats.MatchedLines != 1 {
			t.Errorf("--backend %s: ran %s, %d lines, %v; want 1 line", name, res.Backend, res.Stats.MatchedLines, err)
		}
	}
}

func TestClassExamplesCoverTheTableInOrder(t *testing.T) {
	t.Parallel()
	for i, q := range ClassExamples(t.TempDir()) {
		if got := classify(q); got != queryClass(i) {
			t.Errorf("example %d (%q) is in class %v, want %v", i, q.Pattern, got, queryClass(i))
		}
	}
}
