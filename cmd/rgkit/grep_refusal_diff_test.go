package main

import (
	"os"
	"testing"
)

// TestPatternRefusalsAgainstRg15: a pattern rg refuses for a byte it can
// never match line by line (a line break; a carriage return with --crlf; a
// NUL, also as --null-data's line end) gets rg 15's own words on stderr, nothing on stdout, and exit 2,
// however it is given (an escape, a class, a literal byte, -F, -e, -w).
func TestPatternRefusalsAgainstRg15(t *testing.T) {
	rg := rg15(t)
	bin := rgkitBin(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.txt": "a\nb\r\nfoo\n"})
	env := os.Environ()
	for _, args := range [][]string{
		{`\n`}, {`a\nb`}, {`[\n]`}, {`\x0A`}, {"-F", "a\nb"}, {"-e", "foo", "-e", `a\nb`}, {"-w", `a\nb`},
		{"--crlf", `\r`}, {"--crlf", `b\r$`}, {"--crlf", `[\r]`}, {"--crlf", `\x0D`},
		{`a\x00b`}, {"-z", `\x00`}, {"--null-data", `\x00`}, {"--null-data", "-w", `a\x00`},
	} {
		c := diffCase{args: args}
		t.Run(c.name(), func(t *testing.T) {
			t.Parallel()
			nativeLikeRg15(t, rg, bin, dir, env, c)
		})
	}
}
