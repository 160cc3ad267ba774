package backends

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/backends/ripgrep"
	"github.com/rgkit/rgkit/backends/sysgrep"
	"github.com/rgkit/rgkit/internal/searchtest"
	"github.com/rgkit/rgkit/search"
)

// These tests run the Chain over the real engines that can run here (each
// alone in a one-engine Chain), on a temp tree that is a git work tree when
// git is installed, so every engine gets a turn.

// engineTree writes files f00..f11, each with "hit N" on lines 2 and 4 and
// context around them, plus one very long line.
func engineTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for i := range 12 {
		searchtest.WriteFile(t, filepath.Join(root, fmt.Sprintf("d%d/f%02d.txt", i%3, i)),
			fmt.Sprintf("a\nhit %d\nb\nhit %d again\nc\n", i, i))
	}
	searchtest.WriteFile(t, filepath.Join(root, "long.txt"), "x"+strings.Repeat("é", 3000)+" hit long\n")
	gitInit(t, root)
	return root
}

// gitInit makes root a git work tree with every file tracked, when git is
// installed; the gitgrep engine needs one.
func gitInit(t *testing.T, root string) {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		return
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}} {
		cmd := exec.Command(git, args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
}

// defaultEngines are Default's engines, made once per test binary: each
// remembers its tool's version, so the tests sharing them start rg, git
// and grep to ask once, not once per test.
var defaultEngines = sync.OnceValue(func() []search.Engine { return Default(Options{}).Engines })

// realEngines are DefaultChain's engines that can run in root.
func realEngines(t *testing.T, root string) []search.Engine {
	t.Helper()
	var out []search.Engine
	for _, b := range defaultEngines() {
		if _, err := b.Available(context.Background()); err != nil {
			t.Logf("%s: %v", b.Name(), err)
			continue
		}
		out = append(out, b)
	}
	if len(out) == 0 {
		t.Skip("no engine available")
	}
	return out
}

// event is one Sink call as text: "B path", "M path:n:text",
// "C path:n:text", "E path n".
type event string

// events records a Chain's Sink calls as events; the Chain itself checks
// that files do not interleave.
type events struct{ list []event }

func (r *events) Begin(p string) error { r.list = append(r.list, event("B "+p)); return nil }

func (r *events) Line(l search.Line) error {
	k := "M"
	if l.Kind == search.KindContext {
		k = "C"
	}
	r.list = append(r.list, event(fmt.Sprintf("%s %s:%d:%s", k, l.Path, l.Number, l.Text)))
	return nil
}

func (r *events) End(s search.FileSummary) error {
	r.list = append(r.list, event(fmt.Sprintf("E %s %d", s.Path, s.MatchedLines)))
	return nil
}

// searchAll runs q through a one-engine Chain and records the calls.
func searchAll(t *testing.T, b search.Engine, q search.Query) ([]event, search.Result) {
	t.Helper()
	rec := &events{}
	res, err := (&search.Chain{Engines: []search.Engine{b}}).Search(context.Background(), q, rec)
	if err != nil {
		t.Fatalf("%s: %v", b.Name(), err)
	}
	return rec.list, res
}

func TestChainPagesConcatenateToTheWholeResultOnEveryEngine(t *testing.T) {
	root := engineTree(t)
	for _, b := range realEngines(t, root) {
		for _, mode := range []search.OutputMode{search.ModeContent, search.ModeFilesWithMatches} {
			t.Run(fmt.Sprintf("%s/mode%d", b.Name(), mode), func(t *testing.T) {
				q := search.Query{Pattern: `hit \d+`, Root: root, Mode: mode, Before: 1}
				whole, res := searchAll(t, b, q)
				if res.Backend != b.Name() || res.Truncated != search.NotTruncated {
					t.Fatalf("result %+v", res)
				}
				var pages []event
				for off := 0; ; off += 5 {
					q.Offset, q.Limit = off, 5
					page, res := searchAll(t, b, q)
					pages = append(pages, page...)
					if res.Truncated != search.TruncatedLimit {
						break
					}
					if off > 100 {
						t.Fatal("paging does not end")
					}
				}
				if !reflect.DeepEqual(joinFiles(pages), joinFiles(whole)) {
					t.Errorf("pages of 5:\n%q\nwhole:\n%q", pages, whole)
				}
			})
		}
	}
}

// joinFiles merges a file split across pages ("E f n", "B f" in a row), so
// pages can be compared with the whole; End counts are dropped because a
// page reports the file's total either way.
func joinFiles(events []event) []event {
	var out []event
	for i := 0; i < len(events); i++ {
		e := events[i]
		if strings.HasPrefix(string(e), "E ") {
			path := strings.Fields(string(e))[1]
			if i+1 < len(events) && events[i+1] == event("B "+path) {
				i++
				continue
			}
			e = event("E " + path)
		}
		out = append(out, e)
	}
	return out
}

func TestChainStreamingStopsAtTheLimitOnEveryEngine(t *testing.T) {
	root := engineTree(t)
	for _, b := range realEngines(t, root) {
		t.Run(b.Name(), func(t *testing.T) {
			events, res := searchAll(t, b, search.Query{Pattern: "hit", Root: root, Limit: 3, Sort: search.SortNone})
			matches := 0
			for _, e := range events {
				if e[0] == 'M' {
					matches++
				}
			}
			if matches != 3 || res.Truncated != search.TruncatedLimit || res.Partial {
				t.Errorf("matches %d, Truncated %v, Partial %v; want 3, TruncatedLimit, false\n%q", matches, res.Truncated, res.Partial, events)
			}
		})
	}
}

func TestChainMaxColumnsOnEveryEngine(t *testing.T) {
	root := engineTree(t)
	for _, b := range realEngines(t, root) {
		t.Run(b.Name(), func(t *testing.T) {
			var got []search.Line
			for l, err := range (&search.Chain{Engines: []search.Engine{b}}).Lines(context.Background(),
				search.Query{Pattern: "hit long", Root: root, MaxColumns: 100}) {
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, l)
			}
			if len(got) != 1 {
				t.Fatalf("lines %d, want 1", len(got))
			}
			l := got[0]
			// "x" then 2-byte runes: 100 bytes would split one, so 99 are kept.
			if len(l.Text) != 99 || l.Cut != 1+6000+9-99 || l.Column != 1+6000+1+1 || len(l.Submatches) != 0 {
				t.Errorf("len %d cut %d column %d subs %v", len(l.Text), l.Cut, l.Column, l.Submatches)
			}
		})
	}
}

// A multiline query is something system grep cannot express: the Chain
// must pass it over (recording why) and get the answer from native.
func TestChainFallsThroughToAnEngineThatCanRun(t *testing.T) {
	root := engineTree(t)
	grep, native := sysgrep.New(), native.New()
	if _, err := grep.Available(context.Background()); err != nil {
		t.Skipf("system grep: %v", err)
	}
	rec := &events{}
	res, err := (&search.Chain{Engines: []search.Engine{grep, native}}).Search(context.Background(),
		search.Query{Pattern: `hit 1[01]\nb`, Root: root, Multiline: true}, rec)
	if err != nil {
		t.Fatal(err)
	}
	if res.Backend != "native" || len(res.Skipped) != 1 || res.Skipped[0].Backend != "grep" || !errors.Is(res.Skipped[0].Reason, search.ErrUnsupported) {
		t.Fatalf("Backend %s, Skipped %v; want native after grep refused with ErrUnsupported", res.Backend, res.Skipped)
	}
	// One Line per physical line of a multiline match; the End count is the engine's.
	want := []event{"B d1/f10.txt", "M d1/f10.txt:2:hit 10", "M d1/f10.txt:3:b", "E d1/f10.txt",
		"B d2/f11.txt", "M d2/f11.txt:2:hit 11", "M d2/f11.txt:3:b", "E d2/f11.txt"}
	if !reflect.DeepEqual(joinFiles(rec.list), want) {
		t.Errorf("%q\nwant\n%q", rec.list, want)
	}
}

// BenchmarkChainTreeSize measures each engine on trees of growing size; it
// is where PolicyFastest's threshold comes from (docs/performance.md). Files are ~3 KiB of source-like text.
//
//	go test ./backends -run '^$' -bench ChainTreeSize -benchtime 20x
func BenchmarkChainTreeSize(b *testing.B) {
	body := strings.Repeat("func handler(w http.ResponseWriter, r *http.Request) { return nil }\n", 45)
	for _, n := range []int{10, 100, 300, 1000, 2000, 5000} {
		root := b.TempDir()
		for i := range n {
			dir := filepath.Join(root, fmt.Sprintf("pkg%02d", i%50))
			if err := os.MkdirAll(dir, 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%05d.go", i)), []byte(body+"// needle\n"), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		chains := map[string]*search.Chain{"fastest": Default(Options{Policy: search.PolicyFastest})}
		for _, e := range Default(Options{}).Engines {
			if e.Name() != "ripgrep" && e.Name() != "native" {
				continue
			}
			if _, err := e.Available(context.Background()); err != nil {
				continue
			}
			chains[e.Name()] = &search.Chain{Engines: []search.Engine{e}}
		}
		for _, name := range []string{"ripgrep", "native", "fastest"} {
			chain := chains[name]
			if chain == nil {
				continue
			}
			q := search.Query{Pattern: "needle", Root: root, Mode: search.ModeFilesWithMatches}
			b.Run(fmt.Sprintf("files=%d/%s", n, name), func(b *testing.B) {
				for b.Loop() {
					if _, err := chain.Search(context.Background(), q, search.Discard); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkChainOverhead compares an engine called directly with the same
// engine behind a Chain (streaming, sorting everything, sorting a window of
// 250), on 300 files x 45 matching lines.
//
//	go test ./backends -run '^$' -bench ChainOverhead
func BenchmarkChainOverhead(b *testing.B) {
	root := b.TempDir()
	body := []byte(strings.Repeat("func handler(w http.ResponseWriter, r *http.Request) { return nil }\n", 45))
	for i := range 300 {
		dir := filepath.Join(root, fmt.Sprintf("pkg%02d", i%20))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%05d.go", i)), body, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for _, e := range []search.Engine{native.New(), ripgrep.New(nil)} {
		if _, err := e.Available(context.Background()); err != nil {
			continue
		}
		q, err := search.Normalize(search.Query{Pattern: "handler", Root: root})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(e.Name()+"/direct", func(b *testing.B) {
			for b.Loop() {
				if _, err := e.Search(context.Background(), q, search.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
		chain := &search.Chain{Engines: []search.Engine{e}}
		for _, v := range []struct {
			name  string
			sort  search.SortOrder
			limit int
		}{{"chain-stream", search.SortNone, 0}, {"chain-sorted", search.SortPath, 0}, {"chain-sorted-limit250", search.SortPath, 250}} {
			q := q
			q.Sort, q.Limit = v.sort, v.limit
			b.Run(e.Name()+"/"+v.name, func(b *testing.B) {
				for b.Loop() {
					if _, err := chain.Search(context.Background(), q, search.Discard); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
