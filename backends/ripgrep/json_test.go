package ripgrep

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/internal/searchtest"
	"github.com/rgkit/rgkit/search"
)

// decodeInto runs rg JSON through the engine's record handling with a
// Query rooted at "." (the recorded output's paths are "./x").
func decodeInto(data []byte, q search.Query) (*searchtest.ResultLog, *rgRun, error) {
	log := searchtest.NewResultLog()
	if q.Root == "" {
		q.Root = "."
	}
	run := &rgRun{q: q, sink: log, countMatches: rgCountsMatches(q)}
	err := decodeRgJSON(bytes.NewReader(data), rgCapsFor(q), run.record)
	return log, run, err
}

func TestDecodeRealRipgrepOutput(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "rg-json", "content.jsonl"))
	searchtest.Must(t, err)
	log, run, err := decodeInto(data, search.Query{Before: 1, After: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := `== "a.txt"
   begin
   match 1 col=1 spans=[{0 3}] "foo"
   ctx 2 col=0 spans=[] "bar"
   match 3 col=1 spans=[{0 3} {8 11}] "foo bar foo"
   ctx 4 col=0 spans=[] "baz"
   end matched=2
== "b.txt"
   begin
   match 1 col=4 spans=[{3 6}] "x\xff foo"
   match 2 col=1 spans=[{0 3}] "foo"
   end matched=2
== "caf\xe9.txt"
   begin
   match 1 col=1 spans=[{0 3}] "foo"
   end matched=1
`
	if got := log.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// bin.dat ("foo\n\x00foo\n") is not reported: rg saw the NUL before
	// searching and skipped the file.
	if run.stats.Binary != 0 || run.stats.FilesMatched != 3 || run.stats.MatchedLines != 5 || run.stats.BytesSearched != 39 {
		t.Errorf("stats = %+v", run.stats)
	}
}

func TestDecodeMultilineRecordSplitsPhysicalLines(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "rg-json", "multiline.jsonl"))
	searchtest.Must(t, err)
	log, _, err := decodeInto(data, search.Query{Pattern: `alpha\nbeta`, Multiline: true})
	if err != nil {
		t.Fatal(err)
	}
	want := `== "m.txt"
   begin
   match 1 col=1 spans=[{0 5}] "alpha"
   match 2 col=1 spans=[{0 4}] "beta"
   end matched=1
`
	if got := log.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestSplitRgLines(t *testing.T) {
	cases := []struct {
		name  string
		first int
		data  string
		subs  []rgSubmatch
		want  []string
		drop  int
	}{
		{"one line", 3, "foo bar\n", []rgSubmatch{{4, 7}}, []string{`3 col=5 [{4 7}] "foo bar"`}, 0},
		{"crlf", 1, "foo\r\n", []rgSubmatch{{0, 3}}, []string{`1 col=1 [{0 3}] "foo"`}, 0},
		{"final line without newline keeps its CR", 1, "foo\r", []rgSubmatch{{0, 3}}, []string{`1 col=1 [{0 3}] "foo\r"`}, 0},
		{"span over the CR is clipped", 1, "ab\r\n", []rgSubmatch{{1, 4}}, []string{`1 col=2 [{1 2}] "ab"`}, 0},
		{"a match across three lines", 7, "ab\ncd\nef\n", []rgSubmatch{{1, 7}}, []string{`7 col=2 [{1 2}] "ab"`, `8 col=1 [{0 2}] "cd"`, `9 col=1 [{0 1}] "ef"`}, 0},
		{"two matches share the middle line", 1, "ab\ncd\nef\n", []rgSubmatch{{0, 4}, {5, 7}}, []string{`1 col=1 [{0 2}] "ab"`, `2 col=1 [{0 1} {2 2}] "cd"`, `3 col=1 [{0 1}] "ef"`}, 0},
		{"a match of just the line break", 1, "ab\n", []rgSubmatch{{2, 3}}, []string{`1 col=3 [{2 2}] "ab"`}, 0},
		{"invalid offsets are dropped", 1, "abc\n", []rgSubmatch{{2, 1}, {-1, 2}, {0, 99}, {0, 1}}, []string{`1 col=1 [{0 1}] "abc"`}, 3},
		{"empty line", 5, "\n", nil, []string{`5 col=0 [] ""`}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			data := rgText{kept: []byte(c.data), total: len(c.data)}
			drop, err := (&rgSplitter{}).split("p", c.first, data, c.subs, 0, 0, search.KindMatch, func(l search.Line) error {
				got = append(got, strings.TrimSpace(strings.Join([]string{
					itoa(l.Number), "col=" + itoa(l.Column), spansString(l.Submatches), quote(l.Text)}, " ")))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") || drop != c.drop {
				t.Errorf("got %q (dropped %d)\nwant %q (dropped %d)", got, drop, c.want, c.drop)
			}
		})
	}
}

func TestDecodeRecordLongerThanTheReadBuffer(t *testing.T) {
	long := strings.Repeat("x", 1<<20) + "foo"
	rec := `{"type":"begin","data":{"path":{"text":"./big"}}}` + "\n" +
		`{"type":"match","data":{"path":{"text":"./big"},"lines":{"text":"` + long + `\n"},"line_number":1,"submatches":[{"match":{"text":"foo"},"start":1048576,"end":1048579}]}}` + "\n" +
		`{"type":"end","data":{"path":{"text":"./big"},"binary_offset":null,"stats":{"matched_lines":1}}}`
	var lines []search.Line
	run := &rgRun{q: search.Query{Root: "."}, sink: search.SinkFunc(func(l search.Line) error {
		// A sink copies what it keeps: the engine reuses the buffers.
		l.Text, l.Submatches = bytes.Clone(l.Text), slices.Clone(l.Submatches)
		lines = append(lines, l)
		return nil
	})}
	if err := decodeRgJSON(strings.NewReader(rec), rgCapsFor(run.q), run.record); err != nil {
		t.Fatal(err)
	}
	if len(lines) != 1 || len(lines[0].Text) != len(long) || lines[0].Column != 1<<20+1 {
		t.Errorf("got %d lines; want one of %d bytes at column %d", len(lines), len(long), 1<<20+1)
	}
}

func TestDecodeRejectsNonJSON(t *testing.T) {
	if _, _, err := decodeInto([]byte("error: something\n"), search.Query{}); err == nil {
		t.Error("non-JSON output was accepted")
	}
}

// FuzzDecodeRgJSON: whatever rg (or a corrupted stream) prints, decoding
// never panics and every Line it yields is well formed (spans inside the
// text, ordered, column = first span + 1).
func FuzzDecodeRgJSON(f *testing.F) {
	for _, name := range []string{"content.jsonl", "multiline.jsonl"} {
		data, err := os.ReadFile(filepath.Join("testdata", "rg-json", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		for _, l := range bytes.Split(data, []byte("\n")) {
			f.Add(l)
		}
	}
	f.Add([]byte(`{"type":"match","data":{"lines":{"bytes":"Zm9v/wo="},"line_number":1,"submatches":[{"start":0,"end":3}]}}`))
	f.Add([]byte(`{"type":"match","data":{"lines":{"bytes":"!!"},"line_number":1}}`))
	f.Add([]byte(`{"type":"match","data":{"lines":{"text":"a\nb\r\nc"},"line_number":-4,"submatches":[{"start":1,"end":6},{"start":9,"end":2}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var lines []search.Line
		run := &rgRun{q: search.Query{Root: ".", Multiline: true}, sink: search.SinkFunc(func(l search.Line) error {
			// A sink copies what it keeps: the engine reuses the buffers.
			l.Text, l.Submatches = bytes.Clone(l.Text), slices.Clone(l.Submatches)
			lines = append(lines, l)
			return nil
		})}
		_ = decodeRgJSON(bytes.NewReader(data), rgCaps{text: 8, subs: 2}, run.record)
		for _, l := range lines {
			prev := 0
			for _, s := range l.Submatches {
				if s.Start < 0 || s.Start > s.End || s.End > len(l.Text) || s.Start < prev {
					t.Fatalf("bad span %v in %q (spans %v)", s, l.Text, l.Submatches)
				}
				prev = s.Start
			}
			if len(l.Submatches) > 0 && l.Column != l.Submatches[0].Start+1 {
				t.Fatalf("column %d, first span %v", l.Column, l.Submatches[0])
			}
		}
	})
}

// foldsSpecially reports input where encoding/json's key matching (Unicode
// simple folding: K = U+212A, s = U+017F) differs from the parser's ASCII
// folding.
func foldsSpecially(data []byte) bool {
	return bytes.Contains(data, []byte("\u212a")) || bytes.Contains(data, []byte("\u017f")) ||
		bytes.Contains(data, []byte(`\u212`)) || bytes.Contains(data, []byte(`\u017`))
}

func itoa(n int) string { return fmt.Sprint(n) }

func spansString(s []search.Span) string { return fmt.Sprint(s) }

func quote(b []byte) string { return fmt.Sprintf("%q", b) }
