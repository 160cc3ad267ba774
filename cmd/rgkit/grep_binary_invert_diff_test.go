package main

import (
	"os"
	"strings"
	"testing"
)

// binaryInvertTree holds files with NULs early, late (past rg's first
// buffer fills, so lines print before rg notices it) and alone, beside a
// text file: where rg reads each NUL as a line break (--binary, or a file
// named on the command line and read, not mapped), -v and --passthru
// print up to where rg notices the NUL, then its note.
func binaryInvertTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a.bin":  "foo1\nbar\x00baz foo\nfoo3\n",
		"c.txt":  "foo c\nbar\n",
		"e":      "\x00",
		"s/b":    "x\x00\nfoo a\nfoo b\n",
		"s/d":    "a\r\x00foo\r\nfoo\n\x00\x00foo",
		"s/big":  strings.Repeat("filler\n", 20000) + "foo late\x00\nfoo after\n",
		"s/tail": "no match\n",
	})
	return dir
}

// TestInvertAndPassthruInBinaryFilesAgainstRg15: -v and --passthru print
// a binary file's lines as rg 15 does, whatever reads its NULs as line
// breaks (--binary on a walked file, a named file read beside a
// directory or alone, -uuu) or keeps them (a mapped named file, -a): the
// lines split at each NUL, numbered and offset so, cut where rg notices
// the NUL, then its note; and -v -c counts those lines. Each mode runs
// over a walk, named files beside a directory (read), beside a file
// (mapped) and alone. (-v --stats is left out: rg's statistics count
// its later buffer fills, see docs/cli.md.)
func TestInvertAndPassthruInBinaryFilesAgainstRg15(t *testing.T) {
	rg := rg15(t)
	bin := rgkitBin(t)
	dir := binaryInvertTree(t)
	env := os.Environ()
	modes := [][]string{
		{"-v"}, {"--passthru"}, {"-v", "-n"}, {"-v", "--json"}, {"--passthru", "--json"},
		{"-v", "-C1"}, {"-v", "-c"}, {"-v", "-b", "-n"}, {"--passthru", "-n", "-b"},
		{"-v", "-m2"}, {"-v", "-l"}, {"-v", "--heading"},
	}
	reads := [][]string{nil, {"--binary"}, {"-uuu"}, {"-a"}}
	paths := [][]string{
		{"."}, {"a.bin", "s"}, {"a.bin", "c.txt"}, {"s/big", "c.txt"}, {"s/big", "s"},
		{"s/d", "s/b", "e"}, {"s/big"}, {"s/d"},
	}
	for _, mode := range modes {
		for _, read := range reads {
			for _, p := range paths {
				args := append(append(append([]string{"--sort", "path"}, read...), mode...), "foo")
				c := diffCase{args: append(args, p...)}
				t.Run(c.name(), func(t *testing.T) {
					t.Parallel()
					nativeLikeRg15(t, rg, bin, dir, env, c)
				})
			}
		}
	}
	// A mapped file's JSON "binary_offset" is the NUL rg's slice searcher
	// saw: in the first 64 KiB or on a line it handed over, else null.
	// (These run in path order: rg prints named files as its threads
	// finish them.)
	for _, args := range [][]string{
		{"--json", "filler", "s/big"}, {"--json", "filler", "s/big", "c.txt"},
		{"--json", "foo", "s/big"}, {"--json", "-v", "filler", "s/big"},
		// The statistics count what rg searched: a mapped file no
		// further than a NUL on a matched line, even with -c or -l; with
		// -v -m, where the engine's stop and the NUL's both cut (they were
		// subtracted from the file's size in turn: -11 bytes searched).
		{"--stats", "-c", "foo", "s/big"}, {"--stats", "--binary", "-c", "foo", "s/big", "c.txt"},
		{"--stats", "-l", "foo", "s/big"}, {"--stats", "-v", "-m1", "foo", "s/d", "s/b", "e"},
		{"--stats", "-v", "-m1", "foo", "s/b"}, {"--stats", "-v", "-m1", "foo", "a.bin", "c.txt"},
		{"--stats", "--passthru", "foo", "s/big"}, {"--stats", "--passthru", "foo", "s/d"},
		{"--stats", "-v", "-C1", "foo", "a.bin", "c.txt"}, {"--stats", "-v", "foo", "s/d"},
		{"--stats", "-v", "-A1", "foo", "s/d", "s/b", "e"}, {"--json", "-v", "-m1", "foo", "s/d"},
		// -v -m in a mapped file: rg's one buffer ends at the matching
		// line after the last selected one, or at the NUL it saw.
		{"--stats", "-v", "-m1", "foo", "s/big"}, {"--json", "-v", "-m1", "foo", "s/big"},
		{"--stats", "-v", "-m1", "filler", "s/big"}, {"--json", "-v", "-m2", "filler", "s/big"},
	} {
		c := diffCase{args: append([]string{"--sort", "path"}, args...)}
		t.Run(c.name(), func(t *testing.T) {
			t.Parallel()
			nativeLikeRg15(t, rg, bin, dir, env, c)
		})
	}
}
