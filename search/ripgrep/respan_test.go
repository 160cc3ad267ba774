package ripgrep

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/rgkit/rgkit/internal/searchtest"
	"github.com/rgkit/rgkit/search"
)

// spanLog records each match line as "N [spans]".
type spanLog struct{ lines []string }

func (s *spanLog) Begin(string) error { return nil }
func (s *spanLog) Line(l search.Line) error {
	if l.Kind == search.KindMatch {
		s.lines = append(s.lines, fmt.Sprintf("%d col=%d %v", l.Number, l.Column, l.Submatches))
	}
	return nil
}
func (s *spanLog) End(search.FileSummary) error { return nil }

// TestRipgrepSpansAreRg15s pins the ripgrep engine's spans in rg 15's
// dialect (Unicode \b, \s and \S) where rg 13's own were wrong: the values
// are rg 15.2.0's.
func TestRipgrepSpansAreRg15s(t *testing.T) {
	rg := realRipgrep(t)
	cases := []struct {
		name, text string
		q          search.Query
		want       []string
	}{
		{"rg13-boundary-after-a-match: rg looks for the next match as if the rest of the line began the text",
			"line 10\n", search.Query{Pattern: `\B[^ ]+?\p{L}?`}, []string{"1 col=2 [{1 3} {3 4} {6 7}]"}},
		{"repeated-boundary: \\b is Unicode, so it holds before Å (ASCII \\b would not)",
			"ÅNGSTRÖM ångström\n", search.Query{Pattern: `(\s*\b|-flag){1,2}\D[^a-z]`}, []string{"1 col=1 [{0 3} {10 13}]"}},
		{"star-non-space: \\v and \\f are Unicode white space, so -w \\S* finds every word",
			"\tindented\vvertical\fform feed\n", search.Query{Pattern: `\S*`, Word: true, Case: search.CaseInsensitive},
			[]string{"1 col=1 [{0 0} {1 9} {10 18} {19 23} {24 28}]"}},
		{"-w on an unterminated last line: it starts one of rg's buffers",
			"first\nneedle without newline", search.Query{Pattern: `\S+`, Word: true},
			[]string{"1 col=1 [{0 5}]", "2 col=1 [{0 6} {7 14} {15 22}]"}},
		{"\\b spans on a CRLF line stay inside the text (\\W* takes the \\r, which the text leaves out)",
			"foo bar\r\n", search.Query{Pattern: `\b\W*`}, []string{"1 col=1 [{0 0} {3 4} {7 7}]"}},
		{"-w $ on CRLF lines: the column follows the span kept within the text",
			"first line\r\nx\r\n", search.Query{Pattern: `$`, Word: true}, []string{"1 col=11 [{10 10}]", "2 col=2 [{1 1}]"}},
		{"an empty match at the very end of the data is dropped, as rg and native do",
			"mac\rline\rends\r", search.Query{Pattern: `\w+|\B`, Word: true}, []string{"1 col=1 [{0 3} {4 8} {9 13}]"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q := c.q
			q.Root = searchtest.WriteTree(t, map[string]string{"f.txt": c.text})
			nq, err := search.Normalize(q)
			if err != nil {
				t.Fatal(err)
			}
			var got spanLog
			if _, err := rg.Search(context.Background(), nq, &got); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.lines, c.want) {
				t.Errorf("got  %q\nwant %q", got.lines, c.want)
			}
		})
	}
}
