package main

import (
	"os"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
)

// TestInvertedCountsAgainstRg15: -v with -c, --count-matches, -l and -q
// prints, for every file a walk finds, its lines less its matching ones,
// from one search that counts both: the same bytes and exit status as rg
// 15 over files whose lines are not plain '\n' lines (no last '\n', CRLF,
// a byte-order mark to decode, a NUL early or past rg's first buffer).
func TestInvertedCountsAgainstRg15(t *testing.T) {
	t.Parallel()
	rg := rg15(t)
	bin := rgkitBin(t)
	dir := t.TempDir()
	files := lineEndFiles()
	files[".hidden.txt"] = "bar\n"
	testtool.WriteTree(t, dir, files)
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}
	for _, flags := range [][]string{
		{"-c"}, {"--count-matches"}, {"-l"}, {"-q"}, {"-c", "-m1"}, {"-c", "-m0"}, {"-q", "-m0"},
		{"-c", "--stats"}, {"-q", "--stats"}, {"-l", "--stats"}, {"-c", "--include-zero"}, {"-c", "-a"},
		{"-c", "-w"}, {"-c", "-i"}, {"-c", "--hidden"}, {"-c", "-tgo"}, {"-c", "--crlf"}, {"-l", "-j1"},
		{"-c", "-E", "none"}, {"-c", "--binary"},
		// Not --mmap: there -v counts a UTF-16 file's lines in its raw
		// bytes (a known difference, see docs/cli.md).
	} {
		args := append(append([]string{"-v"}, flags...), "foo")
		c := diffCase{args: args}
		t.Run(c.name(), func(t *testing.T) {
			t.Parallel()
			nativeLikeRg15(t, rg, bin, dir, env, c)
		})
	}
}

// lineEndFiles is a tree of files whose lines are not plain '\n' lines
// (no last '\n', CRLF, a byte-order mark to decode, a NUL early or past
// rg's first buffers) for "foo".
func lineEndFiles() map[string]string {
	return map[string]string{
		"a.txt":        "foo\nbar\nbaz\n",
		"notail.txt":   "foo\nbar",
		"empty.txt":    "",
		"allfoo.txt":   "foo\nfoo 2\n",
		"crlf.txt":     "foo\r\nbar\r\n\r\n",
		"bom8.txt":     "\xef\xbb\xbffoo\nbar\nqux",
		"bom16.txt":    "\xff\xfef\x00o\x00o\x00\n\x00b\x00a\x00r\x00\n\x00",
		"earlynul.dat": "bar\x00\nfoo\n",
		"latenul.dat":  strings.Repeat("bar\n", 100_000) + "\x00\nfoo\n",
		"sub/deep.go":  "package foo\n\nfunc x() {}\n",
	}
}
