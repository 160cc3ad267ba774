//go:build !wasip1

package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
)

// TestLineRunsAsRg15: rg -v and --passthru print the lines between two
// matches as one run (search.LineRun) where nothing about them differs
// from line to line; the bytes, the statistics and the exit status stay
// rg 15.2.0's at every edge of a run: the file's first and last line, a
// last line without '\n', CRLF lines, a run longer than one pass (256 KiB)
// and a line longer than that, a NUL after the first buffer of a walked
// file and of a named one (read, or mapped), and every printer option that
// turns runs off again (colour, -b, -m, context, JSON, --max-columns).
func TestLineRunsAsRg15(t *testing.T) {
	t.Parallel()
	rg, bin := testtool.ReferenceRg(t), buildRg(t, "")
	dir := t.TempDir()
	var long, many bytes.Buffer
	for i := range 30000 {
		fmt.Fprintf(&many, "plain line %d\n", i)
		if i%997 == 0 {
			fmt.Fprintf(&many, "a needle line %d\n", i)
		}
	}
	long.WriteString(strings.Repeat("x", 300<<10) + "\nneedle\n" + strings.Repeat("y", 200<<10) + "\n")
	nulLate := many.String() + "tail\x00binary\nneedle after\n"
	testtool.WriteTree(t, dir, map[string]string{
		"a.txt":       "first\nneedle\nmiddle\nlast without newline",
		"b.txt":       "needle first\nplain\r\ncrlf\r\nneedle\r\nend\r\n",
		"c/many.txt":  many.String(),
		"z/long.txt":  long.String(),
		"d/late.bin":  nulLate,
		"d/empty.txt": "",
		"e.txt":       "no match at all\nstill none\n",
	})
	for _, args := range [][]string{
		{"-v", "needle"},
		{"--passthru", "needle"},
		{"-v", "-n", "needle"},
		{"--passthru", "-n", "--heading", "needle"},
		{"-v", "--null", "-n", "needle"},
		{"-v", "--no-filename", "needle"},
		{"-v", "-n", "--column", "needle"},
		{"-v", "--stats", "needle"},
		{"-v", "-c", "needle"},
		{"-v", "-j1", "needle"},
		{"-v", "--binary", "needle"},
		{"-v", "-a", "needle"},
		{"-v", "-b", "needle"},
		{"-v", "-m", "3", "needle"},
		{"-v", "-A1", "needle"},
		{"--passthru", "-C1", "needle"},
		{"-v", "--color=always", "needle"},
		{"--passthru", "--color=always", "-n", "needle"},
		{"-v", "--json", "needle"},
		{"-v", "-M", "100", "needle"},
		{"-v", "--color=always", "-M", "12", "needle"},               // rg: "[Omitted long matching line]"
		{"--passthru", "-v", "--color=always", "-M", "12", "needle"}, // "... line with 1 matches" on context
		{"-v", "--crlf", "needle"},
		{"-v", "--field-match-separator=|", "-n", "needle"},
		{"-v", "needle", "d/late.bin", "a.txt"},
		{"--passthru", "needle", "d/late.bin", "z/long.txt"},
		{"-v", "--no-mmap", "needle", "d/late.bin"},
		{"--passthru", "-v", "needle"},
		{"--passthru", "-v", "-n", "needle", "d/late.bin", "a.txt"},
		{"-l", "--passthru", "needle"}, // as -l: d/late.bin listed
		{"-l", "--passthru", "--stats", "needle"},
	} {
		args := append([]string{"--sort", "path"}, args...)
		sameAsRg15(t, dir, rg, bin, args)
	}
}

// sameAsRg15 runs args in dir through rg (15.2.0) and bin (cmd/rg) and
// reports where their stdout, stderr or exit status differ (timings
// masked).
func sameAsRg15(t *testing.T, dir, rg, bin string, args []string) {
	t.Helper()
	want := runIn(t, dir, rg, args)
	got := runIn(t, dir, bin, args)
	if got, want := testtool.NormalizeTimings(got), testtool.NormalizeTimings(want); got != want {
		t.Errorf("rg %q: cmd/rg differs from rg 15.2.0:\n%s", args, firstDiff(got, want))
	}
}

// firstDiff shows where got and want part.
func firstDiff(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(0, i-200)
	return fmt.Sprintf("at byte %d:\ncmd/rg %q\nrg 15  %q", i, got[from:min(len(got), i+200)], want[from:min(len(want), i+200)])
}
