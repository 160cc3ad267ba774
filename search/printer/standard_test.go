package printer

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/search"
)

func rgLine(path string, n int, text, term string, off int64, kind search.LineKind, spans ...search.Span) RgLine {
	return RgLine{Line: search.Line{Number: n, Text: []byte(text), Kind: kind, Submatches: spans}, Path: path, Term: []byte(term), Offset: off}
}

func TestStandardPrintsLikeRg(t *testing.T) {
	t.Parallel()
	m := func(n int, text, term string, off int64, s, e int) RgLine {
		return rgLine("a.txt", n, text, term, off, search.KindMatch, search.Span{Start: s, End: e})
	}
	c := func(n int, text string, off int64) RgLine {
		return rgLine("a.txt", n, text, "\n", off, search.KindContext)
	}
	for _, tc := range []struct {
		name  string
		cfg   StandardConfig
		lines []RgLine
		want  string
	}{
		{"CRLF kept, no file name", StandardConfig{}, []RgLine{m(2, "foo bar", "\r\n", 12, 0, 3)}, "foo bar\r\n"},
		{"path, line, column, offset", StandardConfig{WithFilename: true, LineNumber: true, Column: true, ByteOffset: true},
			[]RgLine{c(1, "hello", 0), m(2, "x foo", "\n", 6, 2, 5)}, "a.txt-1-0-hello\na.txt:2:3:6:x foo\n"},
		{"context separator between groups", StandardConfig{LineNumber: true, Context: true, ContextSeparator: []byte("--")},
			[]RgLine{m(2, "foo", "\n", 0, 0, 3), m(9, "foo", "\n", 0, 0, 3)}, "2:foo\n--\n9:foo\n"},
		{"-o ends each match with \\n", StandardConfig{OnlyMatching: true, ByteOffset: true},
			[]RgLine{m(2, "a foo", "\r\n", 10, 2, 5)}, "12:foo\n"},
		{"omitted long line", StandardConfig{MaxColumns: 3}, []RgLine{m(1, "foo bar", "\n", 0, 0, 3)}, "[Omitted long matching line]\n"},
		{"preview counts characters", StandardConfig{MaxColumns: 3, MaxColumnsPreview: true}, []RgLine{m(1, "日本語 foo", "\n", 0, 10, 13)}, "日本語 [... omitted end of long line]\n"},
		{"trim shifts the match", StandardConfig{Trim: true, Color: true, Styles: Styles{Match: "<"}}, []RgLine{m(1, "  foo", "\n", 0, 2, 5)}, "<foo\x1b[0m\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			p := NewStandard(&b, tc.cfg)
			p.Begin("a.txt")
			for _, l := range tc.lines {
				if err := p.Line(l); err != nil {
					t.Fatal(err)
				}
			}
			if b.String() != tc.want {
				t.Errorf("got %q, want %q", b.String(), tc.want)
			}
		})
	}
}

func TestRgJSONWritesBytesForInvalidUTF8(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	p := NewRgJSON(&b)
	p.Begin("l1.txt")
	if err := p.Line(rgLine("l1.txt", 1, "caf\xe9 foo", "\n", 0, search.KindMatch, search.Span{Start: 5, End: 8})); err != nil {
		t.Fatal(err)
	}
	if err := p.End(10, -1); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, `"lines":{"bytes":"Y2Fm6SBmb28K"}`) || !strings.Contains(out, `"submatches":[{"match":{"text":"foo"},"start":5,"end":8}]`) {
		t.Errorf("got %s", out)
	}
	if !strings.Contains(out, `"binary_offset":null`) || !strings.Contains(out, `"matched_lines":1,"matches":1`) {
		t.Errorf("end stats: %s", out)
	}
}

// largestWrite records the largest single write it is given.
type largestWrite struct {
	bytes.Buffer
	max int
}

func (w *largestWrite) Write(b []byte) (int, error) {
	w.max = max(w.max, len(b))
	return w.Buffer.Write(b)
}

// TestVimgrepWritesALineOfManyMatchesAsItGoes: --vimgrep prints the whole
// line once per match, so a long line with many matches is many times its
// size; the printer writes it out as it goes (at most perMatchFlush plus
// one copy gathered) instead of building all the copies first (a 1 MB
// line of minified code with 300 matches was 300 MB in one buffer).
func TestVimgrepWritesALineOfManyMatchesAsItGoes(t *testing.T) {
	t.Parallel()
	text := strings.Repeat("func(x) ", 1250) // 10,000 bytes, 1,250 matches
	var spans []search.Span
	for i := 0; i < len(text); i += 8 {
		spans = append(spans, search.Span{Start: i, End: i + 4})
	}
	w := &largestWrite{}
	p := NewStandard(w, StandardConfig{Vimgrep: true, WithFilename: true, LineNumber: true, Column: true})
	p.Begin("a.js")
	if err := p.Line(rgLine("a.js", 7, text, "\n", 0, search.KindMatch, spans...)); err != nil {
		t.Fatal(err)
	}
	copyLen := len("a.js:7:10001:") + len(text) + 1
	if got, want := w.Len(), 0; got == want {
		t.Fatal("nothing printed")
	}
	lines := strings.Split(strings.TrimSuffix(w.String(), "\n"), "\n")
	if len(lines) != len(spans) || lines[1] != "a.js:7:9:"+text {
		t.Fatalf("printed %d lines (second %.40q), want %d, each the whole line", len(lines), lines[1], len(spans))
	}
	if w.max > perMatchFlush+copyLen {
		t.Errorf("largest write %d bytes, want at most %d (perMatchFlush and one copy of the line)", w.max, perMatchFlush+copyLen)
	}
}
