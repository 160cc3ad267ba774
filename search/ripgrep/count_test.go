package backends

import (
	"context"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// countLog records each file's MatchedLines.
type countLog struct{ matched map[string]int }

func (c *countLog) Begin(string) error      { return nil }
func (c *countLog) Line(Line) error         { return nil }
func (c *countLog) End(s FileSummary) error { c.matched[s.Path] = s.MatchedLines; return nil }

// TestRipgrepMultilineMatchedLinesIsRgCount: in multiline mode a file's
// MatchedLines is what rg -c -U prints: lines when the pattern cannot match
// '\n' (rg then searches line by line), matches when it can (the
// multiline/count-lines-not-matches bug counted matches always).
func TestRipgrepMultilineMatchedLinesIsRgCount(t *testing.T) {
	rg := realRipgrep(t)
	text := "foo foobar barfoo foo_bar\nxx\nfoo\nfoo\nbar\nabc\ndef\nghi\n"
	root := writeTree(t, map[string]string{"f.txt": text})
	cases := []struct {
		q    Query
		want int
	}{
		{Query{Pattern: "foo", Fixed: true}, 3},                    // 6 matches on 3 lines
		{Query{Pattern: `fo+`, Before: 1}, 3},                      // the same as a regex, with context
		{Query{Pattern: `foo\nfoo`}, 1},                            // one match over 2 lines
		{Query{Pattern: `foo[^\n]*\n(xx|foo)`}, 2},                 // 2 matches over 4 lines
		{Query{Pattern: `c\nd|e|f\ng|i`}, 4},                       // 4 matches in one block of 3 lines
		{Query{Pattern: `\s`, MaxCountPerFile: 2}, 11},             // \s holds '\n'; rg -c adds a whole block before -m stops it
		{Query{Pattern: `FOO|[^\n]bar`, Case: CaseInsensitive}, 3}, // no '\n': lines
	}
	for _, c := range cases {
		t.Run(c.q.Pattern, func(t *testing.T) {
			q := c.q
			q.Root, q.Multiline = root, true
			nq, err := Normalize(q)
			if err != nil {
				t.Fatal(err)
			}
			args := []string{"--no-config", "-c", "-U", "-e", c.q.Pattern, "f.txt"}
			if c.q.Fixed {
				args = append(args, "-F")
			}
			if c.q.Case == CaseInsensitive {
				args = append(args, "-i")
			}
			if c.q.MaxCountPerFile > 0 {
				args = append(args, "-m", strconv.Itoa(c.q.MaxCountPerFile))
			}
			cmd := exec.Command(rg.mustPath(t), args...)
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

func (r *Ripgrep) mustPath(t *testing.T) string {
	t.Helper()
	info, err := r.Available(context.Background())
	if err != nil {
		t.Skipf("rg unavailable: %v", err)
	}
	if !filepath.IsAbs(info.Path) {
		t.Fatalf("rg path %q", info.Path)
	}
	return info.Path
}
