package backends

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// resultLog is a Sink that records what an engine reports, in a canonical
// text form that two engines can be compared by: one block per file, files
// sorted, lines in the order received.
type resultLog struct {
	mu    sync.Mutex
	files map[string][]string
	open  map[string]bool
	errs  []string
}

func newResultLog() *resultLog {
	return &resultLog{files: map[string][]string{}, open: map[string]bool{}}
}

func (r *resultLog) Begin(p string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.open[p] {
		r.errs = append(r.errs, "Begin twice: "+p)
	}
	r.open[p] = true
	r.files[p] = append(r.files[p], "begin")
	return nil
}

func (r *resultLog) Line(l Line) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.open[l.Path] {
		r.errs = append(r.errs, "Line outside Begin/End: "+l.Path)
	}
	kind := "match"
	if l.Kind == KindContext {
		kind = "ctx"
	}
	r.files[l.Path] = append(r.files[l.Path], fmt.Sprintf("%s %d col=%d spans=%v %q", kind, l.Number, l.Column, l.Submatches, l.Text))
	return nil
}

func (r *resultLog) End(s FileSummary) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.open[s.Path] {
		r.errs = append(r.errs, "End without Begin: "+s.Path)
	}
	delete(r.open, s.Path)
	r.files[s.Path] = append(r.files[s.Path], fmt.Sprintf("end matched=%d", s.MatchedLines))
	return nil
}

func (r *resultLog) String() string {
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

// writeTree creates files (path -> content; a path ending in "/" is a
// directory) under a new temporary directory and returns it.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, c := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if strings.HasSuffix(p, "/") {
			must(t, os.MkdirAll(full, 0o755))
			continue
		}
		must(t, os.MkdirAll(filepath.Dir(full), 0o755))
		must(t, os.WriteFile(full, []byte(c), 0o644))
	}
	return root
}

// runEngine normalises q and runs one engine, returning its log.
func runEngine(t *testing.T, b Backend, q Query) (*resultLog, Stats, error) {
	t.Helper()
	nq, err := Normalize(q)
	if err != nil {
		t.Fatalf("Normalize: %v", err)
	}
	log := newResultLog()
	st, err := b.Search(context.Background(), nq, log)
	return log, st, err
}

func itoa(n int) string { return fmt.Sprint(n) }

func spansString(s []Span) string { return fmt.Sprint(s) }

func quote(b []byte) string { return fmt.Sprintf("%q", b) }

// countingSink counts the lines it receives.
type countingSink struct{ n *int }

func (c countingSink) Begin(string) error    { return nil }
func (c countingSink) Line(Line) error       { *c.n++; return nil }
func (c countingSink) End(FileSummary) error { return nil }
