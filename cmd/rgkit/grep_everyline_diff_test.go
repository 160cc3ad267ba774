package main

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
)

// TestEveryLineAgainstRg15: -v and --passthru that print lines over a
// walk are one native search that emits the selected lines as matches and
// the others as context (native.SearchOptions.Invert, Passthru): the same
// bytes and exit status as rg 15 over files without a last '\n', CRLF
// lines, empty files, a file without a match, one whose every line
// matches, byte-order marks, an early NUL and one past rg's first
// buffers, and long lines.
func TestEveryLineAgainstRg15(t *testing.T) {
	t.Parallel()
	rg := rg15(t)
	bin := rgkitBin(t)
	// Two trees: rg's read buffer grows on a line longer than it and is
	// kept for the worker's next file, so where rg stops at a late NUL
	// depends on which file a worker searched before; long lines go in a
	// tree of their own.
	dir := t.TempDir()
	files := lineEndFiles()
	maps.Copy(files, map[string]string{
		"notail2.txt": "bar\nfoo\nqux",
		"nomatch.txt": "alpha\nbeta\ngamma\n",
		"allfoo2.txt": "foo\nfoo 2\nxfoox\n",
		"crlf2.txt":   "foo\r\nbar\r\n\r\nfoo bar\r\nlast\r\n",
		"ctx.txt":     "l1\nl2 foo\nl3\nl4 foo\nfoo l5\nl6\nl7\nl8 foo\nl9\nl10\nl11\nfoo\n",
	})
	testtool.WriteTree(t, dir, files)
	// Lines past rg's 64 KiB buffer, and -m's trailing context across
	// its buffer fills (where rg 15 prints the next fill's first line as
	// selected).
	var many strings.Builder
	for i := range 120_000 { // (-v prints more than a file printed apart holds: rg.ownSpill)
		if i%3 == 0 {
			fmt.Fprintf(&many, "foo %d\n", i)
		} else {
			fmt.Fprintf(&many, "line %d\n", i)
		}
	}
	longDir := t.TempDir()
	testtool.WriteTree(t, longDir, map[string]string{
		"long.txt": strings.Repeat("y", 200_000) + "\nfoo " + strings.Repeat("z", 150_000) + "\nend\n",
		"many.txt": many.String(),
		"a.txt":    "foo\nbar\nbaz\n",
	})
	var cases [][]string
	for _, flags := range [][]string{
		{"-v"}, {"-v", "-n"}, {"-v", "-C1"}, {"-v", "-A2", "-B1"}, {"-v", "-m2"}, {"-v", "-m1", "-A3"},
		{"-v", "-m2", "-A1", "-n"}, {"-v", "-m5000", "-A3000"}, {"-v", "--json"}, {"-v", "--vimgrep"}, {"-v", "-o"},
		{"-v", "--color=always"}, {"-v", "--color=always", "-C1"}, {"-v", "--json", "-C1"}, {"-v", "--sort", "path"},
		{"-v", "--sort", "path", "-C1"}, {"-v", "-H", "--no-heading"}, {"-v", "--heading"}, {"-v", "-b"}, {"-v", "--column"},
		{"-v", "-r", "X", "-C1"}, {"-v", "--stats"}, {"-v", "-m1", "--stats"}, {"-v", "-c", "--include-zero"}, {"-v", "-a"},
		{"-v", "-i"}, {"-v", "-w"}, {"-v", "--crlf"}, {"-v", "--max-columns", "10"}, {"-v", "-j1", "-C2"},
		{"-v", "-j1", "-C2", "--stats"}, {"-v", "-tgo"}, {"-v", "-A1", "--json", "-m1"}, {"-v", "-m3", "-A2", "--json"},
		{"--passthru"}, {"--passthru", "-n"}, {"--passthru", "--json"}, {"--passthru", "-m1"}, {"--passthru", "-m1", "-n"},
		{"--passthru", "-m1", "--json"}, {"--passthru", "-r", "X"}, {"--passthru", "--color=always"}, {"--passthru", "--stats"},
		{"--passthru", "--sort", "path"}, {"--passthru", "--vimgrep"}, {"--passthru", "-o"}, {"--passthru", "--heading", "-n"},
		// Not context with --stats over more than one thread: rg's
		// parallel printers then add a "--" here and there.
	} {
		cases = append(cases, append(append([]string{}, flags...), "foo"))
	}
	// A file named on the command line (the listing path) beside a walk,
	// the separators between them.
	cases = append(cases, []string{"-v", "-C1", "foo", "a.txt", "."}, []string{"-v", "--heading", "foo", ".", "a.txt"},
		[]string{"--passthru", "--heading", "foo", "a.txt", "."}, []string{"-v", "-C1", "--sort", "path", "foo", ".", "a.txt"})
	for _, args := range cases {
		if slices.ContainsFunc(args, func(a string) bool { return a == "-b" || a == "--json" }) {
			// A decoded file's offsets and sizes: the normal search's
			// (rgSink locates its lines in the raw file), not this test's.
			args = append([]string{"-g", "!bom*"}, args...)
		}
		c := diffCase{args: args}
		for _, tree := range []struct{ name, dir string }{{"files", dir}, {"long", longDir}} {
			env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + tree.dir}
			t.Run(tree.name+"/"+c.name(), func(t *testing.T) {
				t.Parallel()
				nativeLikeRg15(t, rg, bin, tree.dir, env, c)
			})
		}
	}
}
