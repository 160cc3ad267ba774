package native

import (
	"bytes"
	"strings"
	"testing"
)

// TestSearchCountsTheFilesLines: with CountLines a search reports the
// number of lines of the text it searched, as rg reads it (rg -v -c
// prints them less the matching ones): the whole text whatever match
// ended the search, up to where rg stops at a NUL.
func TestSearchCountsTheFilesLines(t *testing.T) {
	t.Parallel()
	m, err := Compile(MatchOptions{Pattern: "foo"})
	if err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("foo line\nbar line\n", 3*releaseWindow/18) + "tail"
	cases := []struct {
		name    string
		data    string
		o       SearchOptions
		lines   int64
		counted bool
	}{
		{"empty", "", SearchOptions{}, 0, true},
		{"every line ended", "foo\nbar\n\n", SearchOptions{}, 3, true},
		{"a last line without its end", "foo\nbar", SearchOptions{}, 2, true},
		{"CRLF lines", "foo\r\nbar\r\n", SearchOptions{}, 2, true},
		{"stopped at the first match", "foo\nbar\nbaz\n", SearchOptions{FilesOnly: true}, 3, true},
		{"stopped by -m", "foo\nfoo\nfoo\nbar", SearchOptions{MaxCount: 1}, 4, true},
		{"stopped at a NUL in rg's first buffer", "foo\nbar\x00\nbaz\nqux\n", SearchOptions{}, 0, true},
		{"stopped at a NUL past rg's first buffer", strings.Repeat("foo\n", 100_000) + "\x00\n", SearchOptions{}, 98304, true},
		{"counting only", "foo\nbar\nfoo\n", SearchOptions{CountOnly: true}, 3, true},
		{"NULs kept as bytes (-a)", "foo\x00\nbar\n", SearchOptions{Text: true}, 2, true},
		{"NULs turned into line ends", "foo\x00bar\n", SearchOptions{BinaryConvert: true}, 2, true},
		{"a UTF-8 byte-order mark decoded", "\xef\xbb\xbffoo\nbar", SearchOptions{}, 2, true},
		{"UTF-16 decoded", "\xff\xfef\x00o\x00o\x00\n\x00b\x00\n\x00", SearchOptions{}, 2, true},
		{"a large file released a window at a time", big, SearchOptions{}, int64(strings.Count(big, "\n") + 1), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			o := c.o
			o.CountLines = true
			var released []int
			if len(c.data) > 2*releaseWindow {
				o.Release = func(n int) { released = append(released, n) }
			}
			res, err := m.Search([]byte(c.data), o, func(Line) error { return nil })
			if err != nil {
				t.Fatal(err)
			}
			if res.LinesCounted != c.counted || res.Lines != c.lines {
				t.Errorf("Lines = %d (counted %v), want %d (counted %v)", res.Lines, res.LinesCounted, c.lines, c.counted)
			}
			if o.Release != nil && (len(released) == 0 || released[len(released)-1] != len(c.data)) {
				t.Errorf("released %v: want the count to release up to the file's end, %d", released, len(c.data))
			}
			o.CountLines = false
			if res, _ := m.Search([]byte(c.data), o, func(Line) error { return nil }); res.LinesCounted {
				t.Error("lines counted without CountLines")
			}
		})
	}
	t.Run("what -c counted before the NUL is kept", func(t *testing.T) {
		t.Parallel()
		data := strings.Repeat("foo\n", 100_000) + "\x00\n"
		res, err := m.Search([]byte(data), SearchOptions{CountOnly: true}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Binary || res.MatchedLines != 0 || res.MatchedBeforeStop != 98304 {
			t.Errorf("Binary %v, MatchedLines %d, MatchedBeforeStop %d: want true, 0 (rg -c prints nothing) and 98304", res.Binary, res.MatchedLines, res.MatchedBeforeStop)
		}
	})
	if n := countLines(bytes.Repeat([]byte("x\n"), 5), nil); n != 5 {
		t.Errorf("countLines = %d, want 5", n)
	}
}
