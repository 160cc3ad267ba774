package printer

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rgkit/rgkit/search"
)

func match(path string, n int, text string, subs ...search.Span) search.Line {
	col := 0
	if len(subs) > 0 {
		col = subs[0].Start + 1
	}
	return search.Line{Path: path, Number: n, Column: col, Text: []byte(text), Submatches: subs, Kind: search.KindMatch}
}

func ctxLine(path string, n int, text string) search.Line {
	return search.Line{Path: path, Number: n, Text: []byte(text), Kind: search.KindContext}
}

// feed sends files (each a path and its lines) to sink as the Chain would.
func feed(t *testing.T, sink search.Sink, files ...[]search.Line) {
	t.Helper()
	for _, lines := range files {
		path := lines[0].Path
		if err := sink.Begin(path); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, l := range lines {
			if l.Number > 0 {
				if err := sink.Line(l); err != nil {
					t.Fatal(err)
				}
			}
			if l.Kind == search.KindMatch {
				n++
			}
		}
		if err := sink.End(search.FileSummary{Path: path, MatchedLines: n}); err != nil {
			t.Fatal(err)
		}
	}
}

func TestTextLikeRgNoHeading(t *testing.T) {
	a := []search.Line{ctxLine("a.go", 1, "package a"), match("a.go", 2, "func Foo() {}", search.Span{Start: 5, End: 8}),
		match("a.go", 9, "Foo()", search.Span{Start: 0, End: 3})}
	b := []search.Line{match("sub/b.go", 4, "x := Foo", search.Span{Start: 5, End: 8}), ctxLine("sub/b.go", 5, "y")}
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"plain: path:line:text", Options{},
			"a.go-1-package a\na.go:2:func Foo() {}\na.go:9:Foo()\nsub/b.go:4:x := Foo\nsub/b.go-5-y\n"},
		{"context: -- between groups and files", Options{Context: true},
			"a.go-1-package a\na.go:2:func Foo() {}\n--\na.go:9:Foo()\n--\nsub/b.go:4:x := Foo\nsub/b.go-5-y\n"},
		{"column on matches only", Options{Column: true},
			"a.go-1-package a\na.go:2:6:func Foo() {}\na.go:9:1:Foo()\nsub/b.go:4:6:x := Foo\nsub/b.go-5-y\n"},
		{"no filename, prefix ignored", Options{NoFilename: true, PathPrefix: "../"},
			"1-package a\n2:func Foo() {}\n9:Foo()\n4:x := Foo\n5-y\n"},
		{"path prefix", Options{PathPrefix: "../x/"},
			"../x/a.go-1-package a\n../x/a.go:2:func Foo() {}\n../x/a.go:9:Foo()\n../x/sub/b.go:4:x := Foo\n../x/sub/b.go-5-y\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			feed(t, NewText(&out, tt.opts), a, b)
			if out.String() != tt.want {
				t.Errorf("got\n%s\nwant\n%s", out.String(), tt.want)
			}
		})
	}
}

func TestTextColorLikeRg(t *testing.T) {
	var out bytes.Buffer
	feed(t, NewText(&out, Options{Color: true}), []search.Line{match("a.go", 2, "a Foo b Foo", search.Span{Start: 2, End: 5}, search.Span{Start: 8, End: 11})})
	want := "\x1b[35ma.go\x1b[0m:\x1b[32m2\x1b[0m:a \x1b[1;31mFoo\x1b[0m b \x1b[1;31mFoo\x1b[0m\n"
	if out.String() != want {
		t.Errorf("got %q\nwant %q", out.String(), want)
	}
}

func TestTextMarksACutLine(t *testing.T) {
	var out bytes.Buffer
	l := match("min.js", 1, "abcd", search.Span{Start: 0, End: 1})
	l.Cut = 99996
	feed(t, NewText(&out, Options{}), []search.Line{l})
	if want := "min.js:1:abcd [... 99996 more bytes]\n"; out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}

func TestFilesAndCount(t *testing.T) {
	a := []search.Line{match("a.go", 1, "x"), match("a.go", 2, "x")}
	b := []search.Line{match("b c.go", 3, "x")}
	tests := []struct {
		name string
		sink func(*bytes.Buffer) search.Sink
		want string
	}{
		{"files", func(w *bytes.Buffer) search.Sink { return NewFiles(w, Options{}) }, "a.go\nb c.go\n"},
		{"files colored", func(w *bytes.Buffer) search.Sink { return NewFiles(w, Options{Color: true}) },
			"\x1b[35ma.go\x1b[0m\n\x1b[35mb c.go\x1b[0m\n"},
		{"count", func(w *bytes.Buffer) search.Sink { return NewCount(w, Options{}) }, "a.go:2\nb c.go:1\n"},
		{"count one file", func(w *bytes.Buffer) search.Sink { return NewCount(w, Options{NoFilename: true}) }, "2\n1\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			feed(t, tt.sink(&out), a, b)
			if out.String() != tt.want {
				t.Errorf("got %q, want %q", out.String(), tt.want)
			}
		})
	}
}

func TestJSONRecords(t *testing.T) {
	var out bytes.Buffer
	p := NewJSON(&out, search.ModeContent)
	feed(t, p, []search.Line{ctxLine("a.go", 1, "<a> & b"), match("a.go", 2, "x Foo", search.Span{Start: 2, End: 5})})
	res := search.Result{Backend: "ripgrep", Truncated: search.TruncatedLimit, Partial: true,
		Skipped: []search.Skip{{Backend: "x", Reason: errors.New("gone")}}, Stats: search.Stats{Elapsed: 2 * time.Millisecond}}
	if err := p.Summary(res, nil); err != nil {
		t.Fatal(err)
	}
	want := `{"type":"context","path":"a.go","line":1,"text":"<a> & b"}
{"type":"match","path":"a.go","line":2,"column":3,"text":"x Foo","submatches":[{"start":2,"end":5}]}
{"type":"summary","backend":"ripgrep","matches":1,"files":1,"truncated":true,"truncated_by":"limit","partial":true,"skipped":[{"backend":"x","reason":"gone"}],"stats":{"files_searched":0,"files_matched":0,"matched_lines":0,"bytes_searched":0,"binary":0,"unreadable":0,"too_large":0,"elapsed_ms":2}}
`
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}

func TestJSONModes(t *testing.T) {
	tests := []struct {
		mode search.OutputMode
		want string
	}{
		{search.ModeFilesWithMatches, `{"type":"file","path":"a.go"}` + "\n" + `{"type":"summary","backend":"native","matches":1,"files":1,`},
		{search.ModeCount, `{"type":"count","path":"a.go","count":2}` + "\n" + `{"type":"summary","backend":"native","matches":2,"files":1,`},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		p := NewJSON(&out, tt.mode)
		// The files and count modes send no lines, only Begin and End.
		feed(t, p, []search.Line{{Path: "a.go", Kind: search.KindMatch}, {Path: "a.go", Kind: search.KindMatch}})
		if err := p.Summary(search.Result{Backend: "native"}, nil); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(out.String(), tt.want) {
			t.Errorf("mode %v: got\n%s\nwant prefix\n%s", tt.mode, out.String(), tt.want)
		}
	}
}

// Regression: non-UTF-8 text must stay exact somewhere, or byte offsets in
// submatches point at the wrong characters of the lossy string.
func TestJSONNonUTF8KeepsExactBytes(t *testing.T) {
	var out bytes.Buffer
	raw := "caf\xe9 Foo"
	feed(t, NewJSON(&out, search.ModeContent), []search.Line{match("lat\xe91.txt", 1, raw, search.Span{Start: 5, End: 8})})
	var rec struct {
		Path       string `json:"path"`
		PathBytes  []byte `json:"path_bytes"`
		Text       string `json:"text"`
		Bytes      []byte `json:"bytes"`
		Submatches []struct{ Start, End int }
	}
	if err := json.Unmarshal(out.Bytes(), &rec); err != nil {
		t.Fatalf("not JSON: %v: %s", err, out.String())
	}
	if string(rec.Bytes) != raw || string(rec.PathBytes) != "lat\xe91.txt" {
		t.Errorf("bytes = %q, path_bytes = %q; want the raw bytes", rec.Bytes, rec.PathBytes)
	}
	if rec.Text != "caf\uFFFD Foo" {
		t.Errorf("text = %q, want the lossy form", rec.Text)
	}
	if got := string(rec.Bytes[rec.Submatches[0].Start:rec.Submatches[0].End]); got != "Foo" {
		t.Errorf("submatch over bytes = %q, want Foo", got)
	}
}

func TestJSONSummaryCarriesTheError(t *testing.T) {
	var out bytes.Buffer
	p := NewJSON(&out, search.ModeContent)
	if err := p.Summary(search.Result{}, errors.New("rg: exit 2")); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"error":"rg: exit 2"`) {
		t.Errorf("summary %s lacks the error", out.String())
	}
}
