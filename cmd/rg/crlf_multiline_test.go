//go:build !wasip1

package main

import (
	"strings"
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
				sameAsRg15(t, dir, rg, bin, args)
			}
		}
	}
}

// TestMultilineTrailingMatchesAsRg15: under -U, past -m's count rg prints
// its trailing context line by line, so a line there that matches is a
// JSON message (and a block, with its own column) of its own, not part of
// the block before it; a match that goes on from that block stays in it.
func TestMultilineTrailingMatchesAsRg15(t *testing.T) {
	t.Parallel()
	rg, bin := testtool.ReferenceRg(t), buildRg(t, "")
	dir := t.TempDir()
	testtool.WriteTree(t, dir, map[string]string{
		"a.txt": "x ABC\nDEF y\n  GHI\nplain\nJKL z\n// one\n// two\n\n// three\n",
	})
	// (Left out: a first match across two lines, `ABC\nDEF` or `\w+\n`,
	// where rg reads the whole file and cmd/rg counts the bytes searched
	// to the block's end, and --vimgrep puts a "--" before its context;
	// see docs/cli.md.)
	for _, pattern := range []string{`[A-Z]{3,}\s*`, `^\s*//`} {
		for _, flags := range [][]string{
			{"--json", "-m1", "-A1"}, {"--json", "-m1", "-A3"}, {"--json", "-m2", "-A2", "-B1"},
			{"-m1", "-A2", "--column"}, {"-m1", "-A2", "-n"}, {"--vimgrep", "-m1", "-A2"}, {"-c", "-m1", "-A2"},
			{"--json", "-P", "-m1", "-A2"},
		} {
			args := append(append([]string{"-U"}, flags...), "--", pattern, "a.txt")
			sameAsRg15(t, dir, rg, bin, args)
		}
	}
}

// Under -U rg's searcher finds each match afresh where the one before it
// ended (one byte on after an empty match): an empty match right there
// makes its line a match line, which an iteration that skips it (Go's
// FindAll, rg's own find_iter) missed, and ^, \A and \b see there the
// start of a text. The printer still counts and shows find_iter's matches;
// --stats counts the lines they touch, also beside -c and -l (where rgkit
// counted -c's number as the matched lines).
func TestMultilineSearcherFindsAsRg15(t *testing.T) {
	t.Parallel()
	rg, bin := testtool.ReferenceRg(t), buildRg(t, "")
	dir := t.TempDir()
	testtool.WriteTree(t, dir, map[string]string{
		"a.txt": "a  \n\nb\n\n\nc \nd\n",
		"b.txt": "x\ny\nab\nc\nxy\n",
	})
	for _, c := range []struct{ pattern, file string }{
		{`\s*$`, "a.txt"}, {`[ \n]*$`, "a.txt"}, {`x\n|\Ay`, "b.txt"}, {`a\n?|^b\nc`, "b.txt"}, {`x\n|^`, "b.txt"},
		{`y?\n?$`, "b.txt"}, {`(?m)^|b\n`, "b.txt"},
	} {
		// (Left out: -m with --json or --stats, where rg counts a whole
		// file as searched; see docs/cli.md.)
		for _, flags := range [][]string{
			{"-n"}, {"--json"}, {"-c"}, {"--count-matches"}, {"-o", "-n"}, {"--stats"}, {"-m2", "-n"}, {"-m1", "-c"},
			{"--vimgrep"}, {"--vimgrep", "-b"}, {"-c", "--stats"}, {"-l", "--stats"}, {"--count-matches", "--stats"},
		} {
			args := append(append([]string{"-U"}, flags...), "--", c.pattern, c.file)
			sameAsRg15(t, dir, rg, bin, args)
		}
	}
}

// TestMaxCountOnCRLFLinesAsRg15: with -m, rg's bytes_searched (--json,
// --stats) ends after the last counted line's "\r\n". rgkit counted one
// byte short when it printed the line with its '\r' moved into the text.
func TestMaxCountOnCRLFLinesAsRg15(t *testing.T) {
	t.Parallel()
	rg, bin := testtool.ReferenceRg(t), buildRg(t, "")
	dir := t.TempDir()
	testtool.WriteTree(t, dir, map[string]string{"c.txt": "a\r\nthe x\r\nb\r\nthe y\r\nc\r\n"})
	for _, args := range [][]string{
		{"--json", "-m1", "the", "c.txt"}, {"--json", "-m1", "-A1", "the", "c.txt"}, {"--json", "-m1", "-o", "the", "c.txt"},
		{"--stats", "-m1", "the", "c.txt"}, {"--json", "-m2", "the", "c.txt"}, {"--json", "-m1", "-P", "the", "c.txt"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			t.Parallel()
			sameAsRg15(t, dir, rg, bin, args)
		})
	}
}

// TestMultilineBlockEdgesAfterABOMAsRg15: rg strips a UTF-8 byte-order mark
// and searches the text after it, so under -U an assertion at a block's
// edge ($, \b) sees the decoded text around the block. rgkit read those
// edges from the file at the decoded offset, three bytes early, and lost
// the empty match of `^$` (no column, no JSON submatch).
func TestMultilineBlockEdgesAfterABOMAsRg15(t *testing.T) {
	t.Parallel()
	rg, bin := testtool.ReferenceRg(t), buildRg(t, "")
	dir := t.TempDir()
	testtool.WriteTree(t, dir, map[string]string{
		"bom.txt": "\xEF\xBB\xBFa\n\nb x1\nx2\n\n",
		"lf.txt":  "a\n\nb x1\nx2\n\n",
	})
	// (Left out: a UTF-16 file, whose decoded text around a block is not
	// read again; see docs/cli.md.)
	for _, file := range []string{"bom.txt", "lf.txt"} {
		for _, pattern := range []string{`^$`, `^\s*$`, `x\d\s*$`, `\bb\b`, `\n^`} {
			for _, flags := range [][]string{{"--column"}, {"--json"}, {"-o", "-b"}, {"--vimgrep"}} {
				args := append(append([]string{"-U"}, flags...), "--", pattern, file)
				sameAsRg15(t, dir, rg, bin, args)
			}
		}
	}
}

// TestMultilineEmptyMatchAtTheEndAsRg15: under -U, an empty match at the
// very end of a file with no final line break ('$', '\z') makes its line a
// match line, yet rg's printer leaves the match out: the line prints with
// no column, -o and --vimgrep print it whole, -r replaces nothing there,
// and JSON lists no submatch for it. rgkit showed it as a match.
func TestMultilineEmptyMatchAtTheEndAsRg15(t *testing.T) {
	t.Parallel()
	rg, bin := testtool.ReferenceRg(t), buildRg(t, "")
	dir := t.TempDir()
	testtool.WriteTree(t, dir, map[string]string{
		"one.txt":  "abc",
		"two.txt":  "abc\nde",
		"crlf.txt": "abc\r\nde\r",
		"nl.txt":   "abc\nde\n",
	})
	// (Left out: --count-matches, where rg counts the match its printer
	// leaves out, and --null-data --column; see docs/cli.md.)
	for _, file := range []string{"one.txt", "two.txt", "crlf.txt", "nl.txt"} {
		for _, pattern := range []string{`$`, `\z`, `c?$`, `x*`} {
			for _, flags := range [][]string{
				{"-o"}, {"-o", "-b"}, {"--vimgrep"}, {"--column"}, {"-o", "-r", "X"}, {"-r", "X"}, {"--json"},
				{"--stats"}, {"--crlf", "--column"}, {"--crlf", "-o", "-r", "X"},
			} {
				args := append(append([]string{"-U"}, flags...), "--", pattern, file)
				sameAsRg15(t, dir, rg, bin, args)
			}
		}
	}
}

// TestSummaryCountsAMatchItsPrinterLeavesOutAsRg15: rg's summary printer
// (-c, -l, -q and --count-matches, with --stats) counts at least one match
// for each match the search reports, so the empty match at the end of a
// last line with no line break ('$'), which its content printers leave
// out, counts there; under -U a block of adjacent lines counts once.
// rgkit counted none.
func TestSummaryCountsAMatchItsPrinterLeavesOutAsRg15(t *testing.T) {
	t.Parallel()
	rg, bin := testtool.ReferenceRg(t), buildRg(t, "")
	dir := t.TempDir()
	testtool.WriteTree(t, dir, map[string]string{
		"one.txt":  "abc",
		"two.txt":  "abc\nde",
		"crlf.txt": "abc\r\nde\r",
		"nl.txt":   "abc\nde\n\nfg\n",
	})
	// (Left out: `-U -c --stats`, where rg's -c counts a block of the
	// last two lines once; see docs/cli.md.)
	for _, file := range []string{"one.txt", "two.txt", "crlf.txt", "nl.txt"} {
		for _, pattern := range []string{`$`, `c?$`, `\z`, `e$`, `x*`, `\n?$`} {
			for _, flags := range [][]string{
				{"--count-matches"}, {"-U", "--count-matches"}, {"--stats", "-l"}, {"--stats", "-c"}, {"--stats", "-q"},
				{"--stats"}, {"--stats", "--files-without-match"}, {"--crlf", "--count-matches"}, {"--stats", "--json"},
				{"-U", "--stats", "--json"}, {"-U", "--stats", "-l"},
			} {
				args := append(append([]string{}, flags...), "--", pattern, file)
				sameAsRg15(t, dir, rg, bin, args)
			}
		}
	}
}

// TestPCREMultilineCountsAsRg15: rg's multiline searcher starts no search
// at the end of the data, so -P -U -c 'x*' over "abc" (no final line
// break) counts 3 matches, not the 4 that a search from every position
// finds; rgkit's -P iteration searched from the end too. (The default
// engine's iteration already stopped there.) And the searcher finds an
// empty match right after a match (`\s*` after "\n  \n" on a last line
// "x"), which makes its line a match line: the -P iteration skipped it as
// find_iter does. (Left out: -c '$' over lines.txt, where rg's -c counts
// the last line with the one before it; see docs/cli.md.)
func TestPCREMultilineCountsAsRg15(t *testing.T) {
	t.Parallel()
	rg, bin := testtool.ReferenceRg(t), buildRg(t, "")
	dir := t.TempDir()
	testtool.WriteTree(t, dir, map[string]string{
		"abc.txt":   "abc",
		"abcnl.txt": "abc\n",
		"empty.txt": "",
		"lines.txt": "a\n\n  \nx",
	})
	for _, file := range []string{"abc.txt", "abcnl.txt", "empty.txt", "lines.txt"} {
		for _, pattern := range []string{`x*`, `$`, `c?`, `a{,3}`, `\s*`} {
			for _, flags := range [][]string{{"-c"}, {"--count-matches"}, {"--stats"}, {"--json"}, {"-o", "-b"}} {
				if file == "lines.txt" && pattern == "$" && flags[0] == "-c" {
					continue
				}
				args := append(append([]string{"-P", "-U"}, flags...), "--", pattern, file)
				sameAsRg15(t, dir, rg, bin, args)
			}
		}
	}
}
