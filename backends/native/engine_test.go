package native_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/internal/conformance"
	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/search"
)

// TestNativeMeetsConformanceSpecs runs every search case of the conformance
// matrix through the native engine alone and checks it against the case's
// own specification (which files match; which lines, as rg 15.2.0 selects them)
// and the Sink contract. The differential test against the other engines is
// TestConformance.
func TestNativeMeetsConformanceSpecs(t *testing.T) {
	testtool.Need(t, "git")
	c, err := conformance.Build(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, cs := range conformance.SearchCases(conformance.Queries()) {
		t.Run(cs.Name, func(t *testing.T) {
			q, err := search.Normalize(c.Query(cs))
			if err != nil {
				t.Fatalf("Normalize: %v", err)
			}
			col := &conformance.Collector{Mode: q.Mode}
			if _, err := native.New().Search(context.Background(), q, col); err != nil {
				t.Fatalf("Search: %v", err)
			}
			if v := col.Violations(); len(v) > 0 {
				t.Errorf("breaks the Sink contract: %v", v)
			}
			if _, exc := conformance.ExceptionFor("native", cs.Name); exc {
				return
			}
			if want, ok := c.Want(cs); ok && !(len(want) == 0 && len(col.Files()) == 0) && !reflect.DeepEqual(col.Files(), want) {
				t.Errorf("files %q, the case specifies %q", col.Files(), want)
			}
			if cs.WantLines != nil && len(q.Paths) == 1 {
				got := col.MatchLines(q.Paths[0])
				if !(len(got) == 0 && len(cs.WantLines) == 0) && !reflect.DeepEqual(got, cs.WantLines) {
					t.Errorf("lines %v, the case specifies %v", got, cs.WantLines)
				}
			}
		})
	}
}

// recordSink keeps everything it is given.
type recordSink struct {
	begins []string
	lines  []search.Line
	ends   []search.FileSummary
	stopAt int // return ErrStop from the stopAt-th End (1-based); 0 = never
}

func (s *recordSink) Begin(p string) error { s.begins = append(s.begins, p); return nil }
func (s *recordSink) Line(l search.Line) error {
	s.lines = append(s.lines, l)
	return nil
}
func (s *recordSink) End(f search.FileSummary) error {
	s.ends = append(s.ends, f)
	if s.stopAt > 0 && len(s.ends) >= s.stopAt {
		return search.ErrStop
	}
	return nil
}

func nativeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func nativeSearch(t *testing.T, q search.Query, sink search.Sink) (search.Stats, error) {
	t.Helper()
	nq, err := search.Normalize(q)
	if err != nil {
		t.Fatal(err)
	}
	return native.New().Search(context.Background(), nq, sink)
}

// TestNativeReportsLinesAndStats checks the conversion to search.Line
// (paths, columns, kinds, CRLF) and the statistics.
func TestNativeReportsLinesAndStats(t *testing.T) {
	root := nativeTree(t, map[string]string{
		"dir/a.txt": "one\r\nx two two\r\nthree\r\n",
		"b.bin":     "two\x00",
		"c.txt":     "nothing here\n",
	})
	var s recordSink
	st, err := nativeSearch(t, search.Query{Pattern: "two", Root: root, After: 1}, &s)
	if err != nil {
		t.Fatal(err)
	}
	want := []search.Line{
		{Path: "dir/a.txt", Number: 2, Column: 3, Text: []byte("x two two"), Submatches: []search.Span{{Start: 2, End: 5}, {Start: 6, End: 9}}, Kind: search.KindMatch, Located: true, Offset: 5, Term: "\r\n"},
		{Path: "dir/a.txt", Number: 3, Text: []byte("three"), Kind: search.KindContext, Located: true, Offset: 16, Term: "\r\n"},
	}
	if !reflect.DeepEqual(s.lines, want) {
		t.Errorf("lines\n got %+v\nwant %+v", s.lines, want)
	}
	if !reflect.DeepEqual(s.ends, []search.FileSummary{{Path: "dir/a.txt", MatchedLines: 1}}) {
		t.Errorf("ends %+v", s.ends)
	}
	if st.FilesSearched != 3 || st.FilesMatched != 1 || st.MatchedLines != 1 || st.Binary != 1 {
		t.Errorf("stats %+v", st)
	}
}

// TestNativeModes checks files-with-matches and count: Begin and End only.
func TestNativeModes(t *testing.T) {
	root := nativeTree(t, map[string]string{"a.txt": "x\nx\ny\nx\n"})
	for _, c := range []struct {
		mode search.OutputMode
		max  int
		want int
	}{
		{search.ModeCount, 0, 3},
		{search.ModeCount, 2, 2},
		{search.ModeFilesWithMatches, 0, 1},
	} {
		var s recordSink
		if _, err := nativeSearch(t, search.Query{Pattern: "x", Root: root, Mode: c.mode, MaxCountPerFile: c.max}, &s); err != nil {
			t.Fatal(err)
		}
		if len(s.lines) != 0 || len(s.ends) != 1 || s.ends[0].MatchedLines != c.want {
			t.Errorf("mode %v max %d: lines %d, ends %+v; want no lines and a count of %d", c.mode, c.max, len(s.lines), s.ends, c.want)
		}
	}
}

// TestNativeStopsOnErrStop: a sink's ErrStop ends the search without error.
func TestNativeStopsOnErrStop(t *testing.T) {
	files := map[string]string{}
	for _, n := range []string{"a", "b", "c", "d", "e", "f"} {
		files[n+".txt"] = "hit\n"
	}
	root := nativeTree(t, files)
	s := recordSink{stopAt: 1}
	if _, err := nativeSearch(t, search.Query{Pattern: "hit", Root: root}, &s); err != nil {
		t.Fatalf("ErrStop came back as %v", err)
	}
	if len(s.ends) != 1 {
		t.Errorf("sink got %d files after ErrStop on the first", len(s.ends))
	}
}

// TestNativeCancelled returns the context's error.
func TestNativeCancelled(t *testing.T) {
	root := nativeTree(t, map[string]string{"a.txt": "hit\n"})
	nq, err := search.Normalize(search.Query{Pattern: "hit", Root: root})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var s recordSink
	if _, err := native.New().Search(ctx, nq, &s); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}

// TestNativeRefusesLiteralNewline: like rg, a literal \n needs multiline.
// Normalize refuses it first; the engine refuses it on its own too.
func TestNativeRefusesLiteralNewline(t *testing.T) {
	root := nativeTree(t, map[string]string{"a.txt": "a\nb\n"})
	var s recordSink
	_, err := native.New().Search(context.Background(), search.Query{Pattern: `a\nb`, Root: root}, &s)
	var ipe *search.InvalidPatternError
	if !errors.As(err, &ipe) {
		t.Fatalf("got %v, want *InvalidPatternError", err)
	}
	if _, err := nativeSearch(t, search.Query{Pattern: `a\nb`, Root: root, Multiline: true}, &s); err != nil || len(s.lines) != 2 {
		t.Errorf("multiline: err %v, %d lines; want 2", err, len(s.lines))
	}
}

// TestNativeCountsMatchRgOnGoSource compares per-file counts with rg -c on
// a real tree (the Go installation's net/ sources, searched by several
// workers at once), one pattern per prefilter path: literal, folded literal,
// alternation, split around a literal, and the line DFA. rg is given the
// same pattern with ASCII classes, rgkit's semantics.
func TestNativeCountsMatchRgOnGoSource(t *testing.T) {
	rg := testtool.Need(t, "rg")
	root := filepath.Join(testtool.GOROOT(t), "src", "net")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("no Go source tree: %v", err)
	}
	cases := []struct {
		pattern, rgPattern string
		fold, word         bool
	}{
		{pattern: "ErrUnexpectedEOF"},
		{pattern: "http", fold: true},
		{pattern: "(Read|Write)(At|From|To)"},
		{pattern: `func \w+Error\(`, rgPattern: `func (?-u:\w)+Error\(`},
		{pattern: `\w+\d\s*=\s*\d`, rgPattern: `(?-u:\w)+(?-u:\d)(?-u:\s)*=(?-u:\s)*(?-u:\d)`},
		{pattern: `[A-Z][a-z]+[0-9]{2}`},
		{pattern: `\bconn\b`, rgPattern: `(?-u:\b)conn(?-u:\b)`},
		{pattern: "err", word: true},
	}
	for _, c := range cases {
		q := search.Query{Pattern: c.pattern, Root: root, Mode: search.ModeCount, Word: c.word}
		args := []string{"--no-config", conformance.Threads, "-c", "--with-filename"}
		if c.fold {
			q.Case = search.CaseInsensitive
			args = append(args, "-i")
		}
		if c.word {
			args = append(args, "-w")
		}
		rgPat := c.rgPattern
		if rgPat == "" {
			rgPat = c.pattern
		}
		cmd := exec.Command(rg, append(args, "-e", rgPat, "--", ".")...)
		cmd.Dir = root
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("rg %q: %v", rgPat, err)
		}
		want := map[string]int{}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			i := strings.LastIndexByte(line, ':')
			n, _ := strconv.Atoi(line[i+1:])
			want[strings.TrimPrefix(line[:i], "./")] = n
		}
		got := map[string]int{}
		var s recordSink
		if _, err := nativeSearch(t, q, &s); err != nil {
			t.Fatal(err)
		}
		for _, e := range s.ends {
			got[e.Path] = e.MatchedLines
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q: native and rg -c differ in %d vs %d files", c.pattern, len(got), len(want))
			for p, n := range want {
				if got[p] != n {
					t.Errorf("  %s: native %d, rg %d", p, got[p], n)
				}
			}
		}
	}
}
