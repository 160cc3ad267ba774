package native

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/search"
)

// BenchmarkMatcher measures the searcher alone, on files already in
// memory (no walking, no I/O), one class of issue 4 per sub-benchmark, in
// count mode on one core. MB/s is over the corpus bytes. Reproduce with:
//
//	go test ./backends/native -run '^$' -bench BenchmarkMatcher
func BenchmarkMatcher(b *testing.B) {
	files, total := loadBenchCorpus(b)
	classes := []struct {
		name string
		opts MatchOptions
	}{
		{"rare-literal", MatchOptions{Pattern: "ErrUnexpectedEOF"}},
		{"common-literal", MatchOptions{Pattern: "func"}},
		{"i-literal", MatchOptions{Pattern: "http", CaseInsensitive: true}},
		{"alternation", MatchOptions{Pattern: "(Read|Write)(At|From|To)"}},
		{"class-regex", MatchOptions{Pattern: `func \w+Error\(`}},
		{"no-literal", MatchOptions{Pattern: `\w+\d\s*=\s*\d`}},
		{"word", MatchOptions{Pattern: "err", Word: true}},
		{"no-prefilter", MatchOptions{Pattern: `[A-Z][a-z]+[0-9]{2}`}},
		{"class-runs", MatchOptions{Pattern: `\w{5}\s+\w{5}\s+\w{5}`}},
		{"alternation-class", MatchOptions{Pattern: `(ERR|WARN)_[A-Z]+`}},
		// Unicode-class queries: rg's \w \d \b are Unicode-aware.
		{"unicode-word-suffix", MatchOptions{Pattern: `\w+ция`}},
		{"unicode-digits", MatchOptions{Pattern: `\d+`}},
		{"i-cyrillic", MatchOptions{Pattern: "кЛюЧ", CaseInsensitive: true}},
		{"unicode-boundary", MatchOptions{Pattern: `\bfunc\b`}},
		{"word-regex", MatchOptions{Pattern: `\w+Error`, Word: true}},
	}
	for _, c := range classes {
		b.Run(c.name, func(b *testing.B) {
			m, err := Compile(c.opts)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(total)
			var n int
			cpu0 := processCPU()
			for b.Loop() {
				n = 0
				for _, data := range files {
					r, _ := m.Search(data, SearchOptions{CountOnly: true}, nil)
					n += r.MatchedLines
				}
			}
			b.ReportMetric(float64(n), "lines")
			b.ReportMetric(float64((processCPU()-cpu0).Milliseconds())/float64(b.N), "cpu-ms")
		})
	}
}

var benchCorpus = sync.OnceValues(func() ([][]byte, int64) {
	root := os.Getenv("RGKIT_BENCH_CORPUS")
	if root == "" {
		goroot, _ := testtool.GOROOTDir()
		root = filepath.Join(goroot, "src")
	}
	var files [][]byte
	var total int64
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err == nil {
			files = append(files, data)
			total += int64(len(data))
		}
		return nil
	})
	return files, total
})

func loadBenchCorpus(b *testing.B) ([][]byte, int64) {
	files, total := benchCorpus()
	if len(files) == 0 {
		b.Skip("no corpus: set RGKIT_BENCH_CORPUS")
	}
	return files, total
}

// BenchmarkMatcherContent is BenchmarkMatcher in content mode: every
// matching line's spans are computed (where -w and Unicode \b run on the
// VM for non-ASCII lines, and -w on every matching line).
func BenchmarkMatcherContent(b *testing.B) {
	files, total := loadBenchCorpus(b)
	for _, c := range []struct {
		name string
		opts MatchOptions
	}{
		{"word", MatchOptions{Pattern: "err", Word: true}},
		{"word-regex", MatchOptions{Pattern: `\w+Error`, Word: true}},
		{"unicode-boundary", MatchOptions{Pattern: `\bfunc\b`}},
		{"class-regex", MatchOptions{Pattern: `func \w+Error\(`}},
	} {
		b.Run(c.name, func(b *testing.B) {
			m, err := Compile(c.opts)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(total)
			var n int
			emit := func(l Line) error { n += len(l.Submatches); return nil }
			cpu0 := processCPU()
			for b.Loop() {
				n = 0
				for _, data := range files {
					if _, err := m.Search(data, SearchOptions{}, emit); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(n), "spans")
			b.ReportMetric(float64((processCPU()-cpu0).Milliseconds())/float64(b.N), "cpu-ms")
		})
	}
}

// BenchmarkMultilineCountSeparateBlocks counts -U matches that each form a
// block of their own (`rg -U -c '^$'` over a text of paragraphs): the
// count re-finds each block's matches from its start, and used to read 256
// matches ahead for every block (34 s over a 10 MB text, rg 0.02 s).
func BenchmarkMultilineCountSeparateBlocks(b *testing.B) {
	data := bytes.Repeat([]byte("a line of text\nand another one\n\n"), 20000)
	m, err := Compile(MatchOptions{Pattern: "^$", Multiline: true})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		r, err := m.Search(data, SearchOptions{CountOnly: true}, func(Line) error { return nil })
		if err != nil || r.MatchedLines != 20000 {
			b.Fatalf("%+v, %v: want 20000 matches", r, err)
		}
	}
}

// BenchmarkFinder measures the prefilter's scan for one literal alone (its
// rare byte with bytes.IndexByte, both cases of it when folded), over the
// corpus in memory. One untimed pass first: the first sub-benchmark of a
// run measured up to 8x slower without it (a two-byte SWAR fallback for
// dense rare bytes looked 7x faster than this scan that way, and was not).
// Set RGKIT_BENCH_CORPUS to a part of the Linux tree to see the scan on C:
//
//	RGKIT_BENCH_CORPUS=~/.cache/rgkit/corpora/linux-6.1/drivers/gpu go test ./backends/native -run '^$' -bench BenchmarkFinder
func BenchmarkFinder(b *testing.B) {
	files, total := loadBenchCorpus(b)
	for _, c := range []struct {
		lit  string
		fold bool
	}{
		{"PM_RESUME", false}, {"pm_re", true}, {"ErrUnexpectedEOF", false}, {"_SUSPEND", false},
		{"static", false}, {"func", false}, {"http", true}, {"WARN_", false}, {"ERR_", false},
	} {
		name := c.lit
		if c.fold {
			name += "/i"
		}
		b.Run(name, func(b *testing.B) {
			m, err := Compile(MatchOptions{Pattern: c.lit, CaseInsensitive: c.fold})
			if err != nil || m.pre == nil || len(m.pre.finders) != 1 {
				b.Fatalf("%q: not one literal (%v)", c.lit, err)
			}
			f := m.pre.finders[0]
			scan := func() (hits int) {
				for _, data := range files {
					for i := f.index(data, 0); i >= 0; i = f.index(data, i+1) {
						hits++
					}
				}
				return hits
			}
			scan()
			b.SetBytes(total)
			var hits int
			cpu0 := processCPU()
			for b.Loop() {
				hits = scan()
			}
			b.ReportMetric(float64(hits), "hits")
			b.ReportMetric(float64((processCPU()-cpu0).Milliseconds())/float64(b.N), "cpu-ms")
		})
	}
}

// BenchmarkEngineNoStats runs the whole engine (walk, open, read, search)
// on a tree for a rare literal, reporting the bytes searched and binary
// files as rg's --stats does, or not (Engine.NoStats, what the CLI asks
// for without --stats or --json: no NUL scan of a file without a
// candidate). Reproduce with:
//
//	RGKIT_BENCH_CORPUS=~/.cache/rgkit/corpora/linux-6.1 go test ./backends/native -run '^$' -bench BenchmarkEngineNoStats -benchtime 3x
func BenchmarkEngineNoStats(b *testing.B) {
	root := os.Getenv("RGKIT_BENCH_CORPUS")
	if root == "" {
		goroot, _ := testtool.GOROOTDir()
		root = filepath.Join(goroot, "src")
	}
	for _, pattern := range []string{"PM_RESUME", "ErrUnexpectedEOF", "(ERR|WARN)_[A-Z]+"} {
		for _, noStats := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/nostats=%v", pattern, noStats), func(b *testing.B) {
				e := &Engine{NoStats: noStats}
				var st search.Stats
				cpu0 := processCPU()
				for b.Loop() {
					var err error
					if st, err = e.Search(context.Background(), search.Query{Root: root, Pattern: pattern}, search.Discard); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(st.MatchedLines), "lines")
				b.ReportMetric(float64((processCPU()-cpu0).Milliseconds())/float64(b.N), "cpu-ms")
			})
		}
	}
}
