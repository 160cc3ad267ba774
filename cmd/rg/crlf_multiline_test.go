//go:build !wasip1

package main

import (
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
)

// TestMultilineCRLFLinesEndAsRg15: under -U --crlf, rg ends each line of a
// match with "\r\n", also a line the file ends with "\n" alone, whenever
// it finds each match in the block (a column, colours, -r, --stats,
// --vimgrep), and a pattern with --crlf's ^ or $ searches the whole text
// as any anchored pattern does (one$ included). Without --crlf, or where
// rg prints the block as read, the file's own line ends stay.
func TestMultilineCRLFLinesEndAsRg15(t *testing.T) {
	t.Parallel()
	rg, bin := testtool.ReferenceRg(t), buildRg(t, "")
	dir := t.TempDir()
	testtool.WriteTree(t, dir, map[string]string{
		"lf.txt":    "// one\n\n// two\nx\n  // three\n",
		"mixed.txt": "foo one\n  bar\nfoo two\r\nbar x\r\nlast foo",
	})
	for _, file := range []string{"lf.txt", "mixed.txt"} {
		for _, pattern := range []string{`^\s*//`, `\s*//`, `one$`, `o\s+b`, `(?m)^bar`, `foo$`, `^foo`} {
			for _, flags := range [][]string{
				{"--crlf", "-U", "--column"},
				{"--crlf", "-U", "--color=always"},
				{"--crlf", "-U"},
				{"--crlf", "-U", "--stats"},
				{"--crlf", "-U", "-r", "X"},
				{"--crlf", "-U", "--vimgrep"},
				{"--crlf", "-U", "-o"},
				{"--crlf", "-U", "-v", "--column"},
				{"--crlf", "-U", "--column", "--trim"},
				{"--crlf", "-U", "-A1", "--column"},
				{"--crlf", "-U", "--json"},
				{"-U", "--column"},
				{"-U", "--color=always"},
				{"-U", "-r", "X"},
				{"--null-data", "-U", "--column"},
			} {
				args := append(append([]string{}, flags...), "--", pattern, file)
				want := runIn(t, dir, rg, args)
				got := runIn(t, dir, bin, args)
				if got, want := testtool.NormalizeTimings(got), testtool.NormalizeTimings(want); got != want {
					t.Errorf("rg %q: cmd/rg differs from rg 15.2.0:\n%s", args, firstDiff(got, want))
				}
			}
		}
	}
}
