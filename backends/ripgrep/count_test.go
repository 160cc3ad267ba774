package ripgrep

import (
	"context"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/internal/searchtest"
	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/search"
)

// countLog records each file's MatchedLines.
type countLog struct{ matched map[string]int }

func (c *countLog) Begin(string) error             { return nil }
func (c *countLog) Line(search.Line) error         { return nil }
func (c *countLog) End(s search.FileSummary) error { c.matched[s.Path] = s.MatchedLines; return nil }

// TestRipgrepMultilineMatchedLinesIsRgCount: in multiline mode a file's
// MatchedLines is what the reference rg -c -U prints: lines when the
// pattern cannot match '\n' (rg then searches line by line), matches when
// it can (the multiline/count-lines-not-matches bug counted matches
// always), and with -m each match counted on its own (rg 15; rg 13 and 14
// joined adjacent matches into one block). The engine may run an older rg.
func TestRipgrepMultilineMatchedLinesIsRgCount(t *testing.T) {
	rg := realRipgrep(t)
	ref := testtool.ReferenceRg(t)
	text := "foo foobar barfoo foo_bar\nxx\nfoo\nfoo\nbar\nabc\ndef\nghi\n"
	root := searchtest.WriteTree(t, map[string]string{"f.txt": text})
	cases := []struct {
		q    search.Query
		want int
	}{
		{search.Query{Pattern: "foo", Fixed: true}, 3},                           // 6 matches on 3 lines
		{search.Query{Pattern: `fo+`, Before: 1}, 3},                             // the same as a regex, with context
		{search.Query{Pattern: `foo\nfoo`}, 1},                                   // one match over 2 lines
		{search.Query{Pattern: `foo[^\n]*\n(xx|foo)`}, 2},                        // 2 matches over 4 lines
		{search.Query{Pattern: `c\nd|e|f\ng|i`}, 4},                              // 4 matches in one block of 3 lines
		{search.Query{Pattern: `\s`, MaxCountPerFile: 2}, 4},                     // \s holds '\n'; rg 15 counts matches one by one (rg 14: 11)
		{search.Query{Pattern: `FOO|[^\n]bar`, Case: search.CaseInsensitive}, 3}, // no '\n': lines
	}
	for _, c := range cases {
		t.Run(c.q.Pattern, func(t *testing.T) {
			q := c.q
			q.Root, q.Multiline = root, true
			nq, err := search.Normalize(q)
			if err != nil {
				t.Fatal(err)
			}
			args := []string{"--no-config", "-c", "-U", "-e", c.q.Pattern, "f.txt"}
			if c.q.Fixed {
				args = append(args, "-F")
			}
			if c.q.Case == search.CaseInsensitive {
				args = append(args, "-i")
			}
			if c.q.MaxCountPerFile > 0 {
				args = append(args, "-m", strconv.Itoa(c.q.MaxCountPerFile))
			}
			cmd := exec.Command(ref, args...)
			cmd.Dir = root
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("rg %v: %v", args, err)
			}
			if rgCount, _ := strconv.Atoi(strings.TrimSpace(string(out))); rgCount != c.want {
				t.Fatalf("the table is wrong: rg -c -U says %d, the case %d", rgCount, c.want)
			}
			got := &countLog{matched: map[string]int{}}
			if _, err := rg.Search(context.Background(), nq, got); err != nil {
				t.Fatal(err)
			}
			if got.matched["f.txt"] != c.want {
				t.Errorf("MatchedLines = %d, rg -c -U says %d", got.matched["f.txt"], c.want)
			}
		})
	}
}
