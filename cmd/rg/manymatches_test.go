//go:build !wasip1

package main

import (
	"strings"
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
)

// TestLinesWithMoreMatchesThanStoredAsRg15: a line with more matches than
// the library stores per line (native.MaxSubmatches, 16384) has the rest
// found again for printing. Under -r, rg prints -o's offsets and columns in
// the line with every match replaced, and --vimgrep that whole line for
// each match; rgkit replaced one chunk of matches at a time, so past the
// first chunk its offsets started over and --vimgrep's lines held only
// their chunk's replacements. (--vimgrep is left out here: it prints the
// whole line once per match, half a gigabyte for these lines.)
func TestLinesWithMoreMatchesThanStoredAsRg15(t *testing.T) {
	t.Parallel()
	rg, bin := testtool.ReferenceRg(t), buildRg(t, "")
	dir := t.TempDir()
	testtool.WriteTree(t, dir, map[string]string{
		"ab.txt": strings.Repeat("ab", 8300) + "\nshort ab\n",
		"e.txt":  strings.Repeat("é", 8300) + "\n",
	})
	for _, file := range []string{"ab.txt", "e.txt"} {
		for _, pattern := range []string{"x*", "a|b", `(?-u:\xC3|\xA9)`} {
			for _, flags := range [][]string{
				{"-o", "-b", "-r", "Z"}, {"-o", "--column", "-r", "XY"}, {"-o", "-b", "-r", ""},
				{"-o", "-b"}, {"--count-matches"}, {"--json", "-r", "Z"},
			} {
				args := append(append([]string{}, flags...), "--", pattern, file)
				t.Run(strings.Join(args, " "), func(t *testing.T) {
					t.Parallel()
					sameAsRg15(t, dir, rg, bin, args)
				})
			}
		}
	}
}
