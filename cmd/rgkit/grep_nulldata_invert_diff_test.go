package main

import (
	"os"
	"testing"
)

// TestNullDataInvertAndStdinListingsAgainstRg15: --null-data with -v or
// --passthru (refused before: the listings split lines at '\n') prints
// rg 15's records, from files walked or named and from stdin; and -v and
// --passthru over stdin follow rg where the stream holds a NUL (each NUL
// a line break; with lines printed, rg stops at the first line it would
// print, context included, and says "binary file matches" only after a
// selected line; counts read on) and in JSON (the "end" of a stream that
// printed only context, its binary_offset). A record keeps the '\n' at
// its end when its match is coloured.
func TestNullDataInvertAndStdinListingsAgainstRg15(t *testing.T) {
	rg := rg15(t)
	bin := rgkitBin(t)
	dir := t.TempDir()
	files := map[string]string{
		"nd/1": "a\x00foo\x00b\n\x00foo bar\x00\x00last",
		"nd/2": "x\x00y\x00",
		"nd/3": "foo\nbar\x00baz\nfoo\x00",
		"nd/4": "foo\r\nfoo\n\x00a\r\x00\x00",
	}
	writeFiles(t, dir, files)
	env := os.Environ()
	var cases []diffCase
	for _, mode := range [][]string{
		{"-v"}, {"--passthru"}, {"-v", "-n"}, {"-v", "-c"}, {"-v", "-l"}, {"-v", "--json"}, {"--passthru", "--json"},
		{"-v", "-C1", "-b"}, {"-v", "-m1"}, {"--passthru", "--color=always", "-n"}, {"-v", "--count-matches"},
	} {
		args := append(append([]string{"--sort", "path", "--null-data"}, mode...), "foo")
		cases = append(cases, diffCase{args: append(args, "nd")}, diffCase{args: append(args, "nd/1", "nd/4")})
		for _, name := range []string{"nd/1", "nd/4"} {
			cases = append(cases, diffCase{args: append(append([]string{"--null-data"}, mode...), "foo"), stdin: files[name]})
		}
	}
	for _, mode := range [][]string{
		{"-v"}, {"--passthru", "-n"}, {"-v", "--json"}, {"--passthru", "--json"}, {"-v", "-c"}, {"-v", "-C1"},
		{"-a", "-v"}, {"-v", "-l"}, {"--files-without-match"},
	} {
		for _, in := range []string{files["nd/1"], files["nd/2"], files["nd/3"], "x\ny\n"} {
			cases = append(cases, diffCase{args: append(mode, "foo"), stdin: in})
		}
	}
	cases = append(cases, diffCase{args: []string{"--passthru", "--json", "zzz"}, stdin: "x\ny\n"},
		// A record ending in "\n" keeps it when its match is coloured
		// (the engine took "\n\x00" for a CRLF line end, and colour
		// replaces the line end with rg's own).
		diffCase{args: []string{"--null-data", "--color=always", "-n", "foo", "nd/4"}},
		diffCase{args: []string{"--sort", "path", "--null-data", "--color=always", "foo", "nd"}})
	for _, c := range cases {
		t.Run(c.name(), func(t *testing.T) {
			t.Parallel()
			nativeLikeRg15(t, rg, bin, dir, env, c)
		})
	}
}
