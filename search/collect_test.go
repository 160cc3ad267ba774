package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

func TestCollectOrdersByPathWhateverTheEngineOrder(t *testing.T) {
	// The engine emits files out of order and interleaved, as a parallel
	// engine may; SortPath orders directory by directory like rg --sort path.
	e := &scriptedEngine{name: "one", emit: []scriptEvent{
		"B c", "B a-c", "M c:1:c1", "M a-c:3:x", "E a-c 1", "B a/b", "M a/b:2:y", "M c:5:c5", "E c 2", "E a/b 1",
	}}
	rec := &eventRecorder{t: t}
	res, err := chainOf(e).Search(context.Background(), Query{Pattern: "x", Root: t.TempDir()}, rec)
	if err != nil {
		t.Fatal(err)
	}
	want := []scriptEvent{
		"B a/b", "M a/b:2:y", "E a/b 1",
		"B a-c", "M a-c:3:x", "E a-c 1",
		"B c", "M c:1:c1", "M c:5:c5", "E c 2",
	}
	if !reflect.DeepEqual(rec.events, want) {
		t.Errorf("events =\n%q\nwant\n%q", rec.events, want)
	}
	if res.Stats.FilesMatched != 3 || res.Stats.MatchedLines != 4 {
		t.Errorf("merged stats = %+v; want 3 files, 4 lines counted by the Chain", res.Stats)
	}
}

func TestCollectFilesModeDoesNotNeedACount(t *testing.T) {
	rec := &eventRecorder{t: t}
	res, err := chainOf(&scriptedEngine{name: "one", emit: []scriptEvent{"B b", "E b 0", "B a", "E a 1"}}).Search(context.Background(),
		Query{Pattern: "x", Root: t.TempDir(), Mode: ModeFilesWithMatches}, rec)
	if err != nil {
		t.Fatal(err)
	}
	if want := []scriptEvent{"B a", "E a 1", "B b", "E b 0"}; !reflect.DeepEqual(rec.events, want) || res.Stats.FilesMatched != 2 {
		t.Errorf("events = %q, files matched %d; want %q and 2", rec.events, res.Stats.FilesMatched, want)
	}
}

func TestCollectSortModifiedNewestFirst(t *testing.T) {
	root := t.TempDir()
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, name := range []string{"old", "mid", "new", "tie-b", "tie-a"} {
		p := filepath.Join(root, name)
		writeChainFile(t, p, "x")
		mt := base.Add(time.Duration(min(i, 3)) * time.Hour)
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	var emit []scriptEvent
	for _, name := range []string{"mid", "tie-b", "old", "tie-a", "new"} {
		emit = append(emit, scriptEvent("B "+name), scriptEvent("E "+name+" 1"))
	}
	rec := &eventRecorder{t: t}
	_, err := chainOf(&scriptedEngine{name: "one", emit: emit}).Search(context.Background(),
		Query{Pattern: "x", Root: root, Mode: ModeFilesWithMatches, Sort: SortModified}, rec)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range rec.events {
		if e[0] == 'B' {
			got = append(got, string(e[2:]))
		}
	}
	if want := []string{"tie-a", "tie-b", "new", "mid", "old"}; !reflect.DeepEqual(got, want) {
		t.Errorf("order = %q, want newest first, ties by path: %q", got, want)
	}
}

// contextScript is one file with context around three matches: lines 1-3
// around match 2, lines 5-7 around match 6, and 9 with its before-context 8.
var contextScript = []scriptEvent{
	"B f",
	"C f:1:c1", "M f:2:m2", "C f:3:c3",
	"C f:5:c5", "M f:6:m6", "C f:7:c7",
	"C f:8:c8", "M f:9:m9",
	"E f 3",
}

func TestCollectPagingContent(t *testing.T) {
	tests := []struct {
		name          string
		offset, limit int
		sort          SortOrder
		want          []scriptEvent
		trunc         Truncation
	}{
		{"everything", 0, 0, SortPath, contextScript, NotTruncated},
		{"limit keeps the after-context of the last match", 0, 1, SortPath,
			[]scriptEvent{"B f", "C f:1:c1", "M f:2:m2", "C f:3:c3", "E f 3"}, TruncatedLimit},
		{"offset drops the skipped match's context", 1, 1, SortPath,
			[]scriptEvent{"B f", "C f:5:c5", "M f:6:m6", "C f:7:c7", "E f 3"}, TruncatedLimit},
		{"a context line shared by two matches rides with the kept one", 2, 0, SortPath,
			[]scriptEvent{"B f", "C f:8:c8", "M f:9:m9", "E f 3"}, NotTruncated},
		{"a limit equal to the count is not truncated", 0, 3, SortPath, contextScript, NotTruncated},
		{"offset past the end yields nothing", 3, 0, SortPath, nil, NotTruncated},
		{"streaming pages the same way", 1, 1, SortNone,
			[]scriptEvent{"B f", "C f:5:c5", "M f:6:m6", "C f:7:c7", "E f 3"}, TruncatedLimit},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := &scriptedEngine{name: "one", emit: contextScript}
			rec := &eventRecorder{t: t}
			q := Query{Pattern: "m", Root: t.TempDir(), Before: 1, After: 1, Offset: tt.offset, Limit: tt.limit, Sort: tt.sort}
			res, err := chainOf(e).Search(context.Background(), q, rec)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(rec.events, tt.want) {
				t.Errorf("events =\n%q\nwant\n%q", rec.events, tt.want)
			}
			if res.Truncated != tt.trunc {
				t.Errorf("Truncated = %v, want %v", res.Truncated, tt.trunc)
			}
		})
	}
}

func TestCollectPagingFilesAcrossFiles(t *testing.T) {
	emit := []scriptEvent{"B c", "E c 2", "B a", "E a 1", "B d", "E d 0", "B b", "E b 4"}
	tests := []struct {
		name          string
		offset, limit int
		want          []scriptEvent
		trunc         Truncation
	}{
		{"all with a match, sorted; a zero count is no match", 0, 0,
			[]scriptEvent{"B a", "E a 1", "B b", "E b 4", "B c", "E c 2"}, NotTruncated},
		{"second page of one", 1, 1, []scriptEvent{"B b", "E b 4"}, TruncatedLimit},
		{"last page", 2, 5, []scriptEvent{"B c", "E c 2"}, NotTruncated},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &eventRecorder{t: t}
			q := Query{Pattern: "x", Root: t.TempDir(), Mode: ModeCount, Offset: tt.offset, Limit: tt.limit}
			res, err := chainOf(&scriptedEngine{name: "one", emit: emit}).Search(context.Background(), q, rec)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(rec.events, tt.want) || res.Truncated != tt.trunc {
				t.Errorf("events = %q, Truncated = %v; want %q, %v", rec.events, res.Truncated, tt.want, tt.trunc)
			}
		})
	}
}

func TestCollectStreamingStopsTheEngineOnePastTheLimit(t *testing.T) {
	e := &scriptedEngine{name: "one", emit: []scriptEvent{"B a", "M a:1:x", "M a:2:x", "M a:3:x", "M a:4:x", "E a 4"}}
	rec := &eventRecorder{t: t}
	res, err := chainOf(e).Search(context.Background(), Query{Pattern: "x", Root: t.TempDir(), Limit: 2, Sort: SortNone}, rec)
	if err != nil {
		t.Fatal(err)
	}
	if e.sinkErr != ErrStop {
		t.Errorf("engine got %v, want ErrStop once the limit was passed", e.sinkErr)
	}
	if want := []scriptEvent{"B a", "M a:1:x", "M a:2:x", "E a 3"}; !reflect.DeepEqual(rec.events, want) {
		t.Errorf("events = %q, want %q", rec.events, want)
	}
	if res.Truncated != TruncatedLimit || res.Partial {
		t.Errorf("Truncated = %v, Partial = %v; want TruncatedLimit, not partial", res.Truncated, res.Partial)
	}
}

func TestCollectStreamingKeepsInterleavedFilesApart(t *testing.T) {
	e := &scriptedEngine{name: "one", emit: []scriptEvent{
		"B a", "B b", "M b:1:b1", "M a:1:a1", "E b 1", "B c", "M c:7:c7", "M a:2:a2", "E a 2", "E c 1",
	}}
	rec := &eventRecorder{t: t} // reports interleaving itself
	_, err := chainOf(e).Search(context.Background(), Query{Pattern: "x", Root: t.TempDir(), Sort: SortNone}, rec)
	if err != nil {
		t.Fatal(err)
	}
	want := []scriptEvent{
		"B a", "M a:1:a1", "M a:2:a2", "E a 2",
		"B b", "M b:1:b1", "E b 1",
		"B c", "M c:7:c7", "E c 1",
	}
	if !reflect.DeepEqual(rec.events, want) {
		t.Errorf("events =\n%q\nwant, in arrival order, one file at a time:\n%q", rec.events, want)
	}
}

func TestCollectByteCap(t *testing.T) {
	// Streamed, each line costs len(path)+len(text) = 1+9 = 10 bytes.
	e := &scriptedEngine{name: "one", emit: []scriptEvent{"B a", "M a:1:123456789", "M a:2:123456789", "M a:3:123456789", "E a 3"}}
	rec := &eventRecorder{t: t}
	c := chainOf(e)
	c.MaxOutputBytes = 25
	res, err := c.Search(context.Background(), Query{Pattern: "1", Root: t.TempDir(), Sort: SortNone}, rec)
	if err != nil {
		t.Fatal(err)
	}
	if res.Truncated != TruncatedBytes || e.sinkErr != ErrStop {
		t.Errorf("Truncated = %v, engine got %v; want TruncatedBytes and ErrStop", res.Truncated, e.sinkErr)
	}
	if want := []scriptEvent{"B a", "M a:1:123456789", "M a:2:123456789", "E a 2"}; !reflect.DeepEqual(rec.events, want) {
		t.Errorf("events = %q, want %q", rec.events, want)
	}
}

func TestCollectByteCapCountsHeldLines(t *testing.T) {
	// Held for sorting, a line also costs its Line (heldLineCost): the cap
	// bounds the memory held, not only the text.
	e := &scriptedEngine{name: "one", emit: []scriptEvent{"B a", "M a:1:1", "M a:2:2", "M a:3:3", "E a 3"}}
	rec := &eventRecorder{t: t}
	c := chainOf(e)
	c.MaxOutputBytes = 2 * (heldLineCost + 1 + 1 + 16)
	res, err := c.Search(context.Background(), Query{Pattern: "1", Root: t.TempDir()}, rec)
	if err != nil {
		t.Fatal(err)
	}
	if res.Truncated != TruncatedBytes {
		t.Errorf("Truncated = %v, want TruncatedBytes", res.Truncated)
	}
	if want := []scriptEvent{"B a", "M a:1:1", "M a:2:2", "E a 2"}; !reflect.DeepEqual(rec.events, want) {
		t.Errorf("events = %q, want %q", rec.events, want)
	}
}

func TestCutLine(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		max     int
		subs    []Span
		want    string
		cut     int
		wantSub []Span
	}{
		{"short line untouched", "abc", 5, []Span{{0, 1}}, "abc", 0, []Span{{0, 1}}},
		{"cut at max", "abcdef", 4, []Span{{1, 2}, {3, 6}, {5, 6}}, "abcd", 2, []Span{{1, 2}, {3, 4}}},
		{"never inside a rune", "aé€", 4, nil, "aé", 3, nil}, // é is 2 bytes, € 3
		{"no cap", "abcdef", 0, nil, "abcdef", 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := CutLine(Line{Text: []byte(tt.text), Submatches: tt.subs}, tt.max)
			if string(got.Text) != tt.want || got.Cut != tt.cut || !reflect.DeepEqual(got.Submatches, tt.wantSub) {
				t.Errorf("CutLine = %q cut %d subs %v; want %q cut %d subs %v", got.Text, got.Cut, got.Submatches, tt.want, tt.cut, tt.wantSub)
			}
		})
	}
}

// windowScript is a deterministic pseudo-random engine run: files with 0-4
// matches (with before/after context), begun and ended in a shuffled,
// interleaved order, the way a parallel engine emits them.
func windowScript(seed uint64, files int) []scriptEvent {
	r := rand.New(rand.NewPCG(seed, seed))
	type file struct {
		path   string
		events []scriptEvent
	}
	var fs []*file
	for i := range files {
		f := &file{path: fmt.Sprintf("d%d/f%02d", r.IntN(3), i)}
		n := r.IntN(5)
		count := 0
		for ln := 1; count < n; ln += 4 {
			f.events = append(f.events,
				scriptEvent(fmt.Sprintf("C %s:%d:before", f.path, ln)),
				scriptEvent(fmt.Sprintf("M %s:%d:hit", f.path, ln+1)),
				scriptEvent(fmt.Sprintf("C %s:%d:after", f.path, ln+2)))
			count++
		}
		if n == 0 {
			continue // engines only begin files with a match
		}
		f.events = append([]scriptEvent{scriptEvent("B " + f.path)}, f.events...)
		f.events = append(f.events, scriptEvent(fmt.Sprintf("E %s %d", f.path, n)))
		fs = append(fs, f)
	}
	var out []scriptEvent
	for len(fs) > 0 {
		i := r.IntN(min(len(fs), 3)) // up to 3 files in flight
		f := fs[i]
		out = append(out, f.events[0])
		if f.events = f.events[1:]; len(f.events) == 0 {
			fs = append(fs[:i], fs[i+1:]...)
		}
	}
	return out
}

// collectDirect runs script through a collector; hold=false disables the
// window so every file is held, as the reference.
func collectDirect(t *testing.T, q Query, script []scriptEvent, window bool) ([]scriptEvent, Truncation, *collector) {
	t.Helper()
	rec := &eventRecorder{t: t}
	c := newCollector(q, rec, 0)
	if !window {
		c.window = 0
	}
	for _, e := range script {
		if err := sendEvent(c, e); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.finish(); err != nil {
		t.Fatal(err)
	}
	return rec.events, c.trunc, c
}

// The window (holding only what can reach the page) must give exactly what
// holding everything and paging afterwards gives.
func TestCollectWindowEqualsHoldingEverything(t *testing.T) {
	for seed := range uint64(30) {
		script := windowScript(seed, 25)
		for _, mode := range []OutputMode{ModeContent, ModeFilesWithMatches, ModeCount} {
			for _, page := range [][2]int{{0, 1}, {0, 7}, {3, 5}, {10, 10}, {40, 3}, {0, 100}} {
				q := Query{Root: t.TempDir(), Mode: mode, Before: 1, After: 1, Offset: page[0], Limit: page[1]}
				if mode != ModeContent {
					q.Before, q.After = 0, 0
				}
				want, wantTrunc, _ := collectDirect(t, q, script, false)
				got, gotTrunc, _ := collectDirect(t, q, script, true)
				if !reflect.DeepEqual(got, want) || gotTrunc != wantTrunc {
					t.Fatalf("seed %d mode %d page %v:\nwindow %q %v\nwhole  %q %v", seed, mode, page, got, gotTrunc, want, wantTrunc)
				}
			}
		}
	}
}

func TestCollectWindowHoldsOnlyThePage(t *testing.T) {
	var script []scriptEvent
	for i := 999; i >= 0; i-- { // worst case: the engine finds them in reverse order
		p := fmt.Sprintf("f%04d", i)
		script = append(script, scriptEvent("B "+p), scriptEvent("M "+p+":1:hit"), scriptEvent("M "+p+":2:hit"), scriptEvent("E "+p+" 2"))
	}
	q := Query{Root: t.TempDir(), Limit: 5, Offset: 4}
	got, trunc, c := collectDirect(t, q, script, true)
	if len(c.held) > 5 {
		t.Errorf("held %d files for a window of 9 matches (2 per file); want at most 5", len(c.held))
	}
	want := []scriptEvent{"B f0002", "M f0002:1:hit", "M f0002:2:hit", "E f0002 2", "B f0003", "M f0003:1:hit", "M f0003:2:hit", "E f0003 2",
		"B f0004", "M f0004:1:hit", "E f0004 2"}
	if !reflect.DeepEqual(got, want) || trunc != TruncatedLimit {
		t.Errorf("got %q %v, want %q TruncatedLimit", got, trunc, want)
	}
}

func TestCollectWindowCapsOneHugeFile(t *testing.T) {
	script := []scriptEvent{"B big"}
	for i := 1; i <= 10000; i++ {
		script = append(script, scriptEvent(fmt.Sprintf("M big:%d:hit", 2*i)), scriptEvent(fmt.Sprintf("C big:%d:ctx", 2*i+1)))
	}
	script = append(script, "E big 10000")
	q := Query{Root: t.TempDir(), Limit: 2, After: 1}
	got, trunc, c := collectDirect(t, q, script, true)
	if n := c.held[0].lines.len(); n > 4 {
		t.Errorf("held %d lines of one file for a page of 2 matches with 1 line of context; want 4", n)
	}
	want := []scriptEvent{"B big", "M big:2:hit", "C big:3:ctx", "M big:4:hit", "C big:5:ctx", "E big 10000"}
	if !reflect.DeepEqual(got, want) || trunc != TruncatedLimit {
		t.Errorf("got %q %v, want %q TruncatedLimit", got, trunc, want)
	}
}

// BenchmarkCollector is the collector's own cost per search of 300 files x
// 45 matching lines, and of one file of 150,000, without an engine:
// streaming, sorting all, sorting a window of 250.
func BenchmarkCollector(b *testing.B) {
	text := []byte("func handler(w http.ResponseWriter, r *http.Request) { return nil }")
	for _, v := range []struct {
		name         string
		sort         SortOrder
		limit        int
		files, lines int
	}{{"stream", SortNone, 0, 300, 45}, {"sorted", SortPath, 0, 300, 45}, {"sorted-limit250", SortPath, 250, 300, 45},
		{"sorted-one-file", SortPath, 0, 1, 150_000}} {
		b.Run(v.name, func(b *testing.B) {
			q := Query{Root: b.TempDir(), Sort: v.sort, Limit: v.limit}
			for b.Loop() {
				c := newCollector(q, Discard, 0)
				for f := v.files - 1; f >= 0; f-- {
					path := fmt.Sprintf("pkg%02d/f%05d.go", f%20, f)
					_ = c.Begin(path)
					for n := 1; n <= v.lines; n++ {
						_ = c.Line(Line{Path: path, Number: n, Column: 6, Text: text, Submatches: []Span{{5, 12}}})
					}
					_ = c.End(FileSummary{Path: path, MatchedLines: v.lines})
				}
				if err := c.finish(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// heldLines keeps every line, in order, across its chunks, whose sizes
// double from heldFirstChunk and stop at heldMaxChunk.
func TestHeldLinesKeepOrderAcrossChunks(t *testing.T) {
	for _, n := range []int{0, 1, heldFirstChunk, heldFirstChunk + 1, 3*heldMaxChunk + 5} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			var h heldLines
			for i := range n {
				h.add(Line{Number: i + 1})
			}
			if h.len() != n {
				t.Fatalf("len %d, want %d", h.len(), n)
			}
			next := 1
			for i, c := range h.chunks {
				if want := min(heldFirstChunk<<i, heldMaxChunk); cap(c) != want {
					t.Errorf("chunk %d holds up to %d lines, want %d", i, cap(c), want)
				}
				for _, l := range c {
					if l.Number != next {
						t.Fatalf("line %d where %d was due", l.Number, next)
					}
					next++
				}
			}
		})
	}
}
