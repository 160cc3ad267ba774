package native

import (
	"strings"
	"testing"
)

// TestSearchLocatesLines specifies Line.Located: a line of a file searched
// as its own bytes carries its offset in the file and its terminator, so a
// printer needs no second read of the file for rg's -b or a CRLF line; a
// file decoded from a byte-order mark carries its place in the decoded
// text, where rg counts its offsets; a file whose NULs were turned into
// line ends carries neither.
func TestSearchLocatesLines(t *testing.T) {
	t.Parallel()
	type want struct {
		number  int
		located bool
		offset  int
		term    string
	}
	cases := []struct {
		name string
		data string
		opts SearchOptions
		want []want
	}{
		{name: "LF lines", data: "a\nfoo\nb foo\n", want: []want{{2, true, 2, "\n"}, {3, true, 6, "\n"}}},
		{name: "CRLF lines", data: "a\r\nfoo\r\nb\r\n", want: []want{{2, true, 3, "\r\n"}}},
		{name: "last line without terminator", data: "a\nx foo", want: []want{{2, true, 2, ""}}},
		{name: "a lone CR before LF on an empty line", data: "foo\n\r\n", opts: SearchOptions{After: 1}, want: []want{{1, true, 0, "\n"}, {2, true, 4, "\r\n"}}},
		{name: "context lines", data: "1\r\nfoo\n3", opts: SearchOptions{Before: 1, After: 1}, want: []want{{1, true, 0, "\r\n"}, {2, true, 3, "\n"}, {3, true, 7, ""}}},
		{name: "binary file cut at a NUL", data: "foo\n" + strings.Repeat("a\n", 40000) + "foo\x00\n", want: []want{{1, true, 0, "\n"}}},
		{name: "UTF-8 BOM: offsets in the text after it", data: "\xef\xbb\xbffoo\nx foo\n", want: []want{{1, true, 0, "\n"}, {2, true, 4, "\n"}}},
		{name: "UTF-16: offsets in the UTF-8 text", data: "\xff\xfef\x00o\x00o\x00\n\x00\xe9\x00f\x00o\x00o\x00\r\x00\n\x00", want: []want{{1, true, 0, "\n"}, {2, true, 4, "\r\n"}}},
		{name: "NULs converted", data: "foo\x00foo\n", opts: SearchOptions{BinaryConvert: true}, want: []want{{1, false, 0, ""}, {2, false, 0, ""}}},
	}
	m, err := Compile(MatchOptions{Pattern: "foo"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var got []want
			_, err := m.Search([]byte(tc.data), tc.opts, func(l Line) error {
				got = append(got, want{l.Number, l.Located, l.Offset, l.Term})
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("lines = %+v, want %+v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("line %d = %+v, want %+v", i, got[i], tc.want[i])
				}
			}
		})
	}
}
