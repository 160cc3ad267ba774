// Package searchtest holds what the search engines' tests share: a Sink that
// records results canonically and tree builders.
package searchtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/rgkit/rgkit/search"
)

// ResultLog is a Sink that records what an engine reports, in a canonical
// text form that two engines can be compared by: one block per file, files
// sorted, lines in the order received.
type ResultLog struct {
	mu    sync.Mutex
	files map[string][]string
	open  map[string]bool
	errs  []string
}

func NewResultLog() *ResultLog {
	return &ResultLog{files: map[string][]string{}, open: map[string]bool{}}
}

func (r *ResultLog) Begin(p string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.open[p] {
		r.errs = append(r.errs, "Begin twice: "+p)
	}
	r.open[p] = true
	r.files[p] = append(r.files[p], "begin")
	return nil
}

func (r *ResultLog) Line(l search.Line) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.open[l.Path] {
		r.errs = append(r.errs, "Line outside Begin/End: "+l.Path)
	}
	kind := "match"
	if l.Kind == search.KindContext {
		kind = "ctx"
	}
	r.files[l.Path] = append(r.files[l.Path], fmt.Sprintf("%s %d col=%d spans=%v %q", kind, l.Number, l.Column, l.Submatches, l.Text))
	return nil
}

func (r *ResultLog) End(s search.FileSummary) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.open[s.Path] {
		r.errs = append(r.errs, "End without Begin: "+s.Path)
	}
	delete(r.open, s.Path)
	r.files[s.Path] = append(r.files[s.Path], fmt.Sprintf("end matched=%d", s.MatchedLines))
	return nil
}

func (r *ResultLog) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	paths := make([]string, 0, len(r.files))
	for p := range r.files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var b strings.Builder
	for _, p := range paths {
		fmt.Fprintf(&b, "== %q\n", p)
		for _, l := range r.files[p] {
			b.WriteString("   " + l + "\n")
		}
	}
	for _, e := range r.errs {
		b.WriteString("!! " + e + "\n")
	}
	return b.String()
}

// WriteTree creates files (path -> content; a path ending in "/" is a
// directory) under a new temporary directory and returns it.
func WriteTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, c := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if strings.HasSuffix(p, "/") {
			Must(t, os.MkdirAll(full, 0o755))
			continue
		}
		Must(t, os.MkdirAll(filepath.Dir(full), 0o755))
		Must(t, os.WriteFile(full, []byte(c), 0o644))
	}
	return root
}

// Run normalises q and runs one engine, returning its log.
func Run(t *testing.T, b search.Engine, q search.Query) (*ResultLog, search.Stats, error) {
	t.Helper()
	nq, err := search.Normalize(q)
	if err != nil {
		t.Fatalf("Normalize: %v", err)
	}
	log := NewResultLog()
	st, err := b.Search(context.Background(), nq, log)
	return log, st, err
}

// Must fails the test at once on a non-nil error.
func Must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// WriteFile writes text to path, creating its directory.
func WriteFile(t *testing.T, path, text string) {
	t.Helper()
	Must(t, os.MkdirAll(filepath.Dir(path), 0o755))
	Must(t, os.WriteFile(path, []byte(text), 0o644))
}
