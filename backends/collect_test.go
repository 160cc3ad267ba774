package backends

import (
	"context"
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
	// Each line costs len(path)+len(text) = 1+9 = 10 bytes.
	e := &scriptedEngine{name: "one", emit: []scriptEvent{"B a", "M a:1:123456789", "M a:2:123456789", "M a:3:123456789", "E a 3"}}
	rec := &eventRecorder{t: t}
	c := chainOf(e)
	c.MaxOutputBytes = 25
	res, err := c.Search(context.Background(), Query{Pattern: "1", Root: t.TempDir()}, rec)
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
			got := cutLine(Line{Text: []byte(tt.text), Submatches: tt.subs}, tt.max)
			if string(got.Text) != tt.want || got.Cut != tt.cut || !reflect.DeepEqual(got.Submatches, tt.wantSub) {
				t.Errorf("cutLine = %q cut %d subs %v; want %q cut %d subs %v", got.Text, got.Cut, got.Submatches, tt.want, tt.cut, tt.wantSub)
			}
		})
	}
}

func TestComparePaths(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"a/b", "a-c", -1}, // by directory, not bytes ('-' < '/')
		{"a", "a/b", -1},
		{"b", "a/z", 1},
		{"x/y", "x/y", 0},
		{"A", "a", -1}, // byte order within a name, like rg
	}
	for _, tt := range tests {
		if got := comparePaths(tt.a, tt.b); got != tt.want {
			t.Errorf("comparePaths(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
