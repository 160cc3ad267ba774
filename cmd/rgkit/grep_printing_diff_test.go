package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// printingTree writes the fixture for how rg prints what it found: prose
// lines of several matches, a long line, leading whitespace, and short
// lines for context.
func printingTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"prose": "For the Doctor Watsons of this world, as opposed to the Sherlock\n" +
			"Holmeses, success in the province of detective work must always\n" +
			"be, to a very large extent, the result of luck. Sherlock Holmes\n" +
			"can extract a clew from a wisp of straw or a flake of cigar ash;\n" +
			"but Doctor Watson has to have it taken out for him and dusted,\n" +
			"and exhibited clearly, with a label attached.\n",
		"long":  "    0123456789abcdefghijklmnopqrstuvwxyz abc\n",
		"short": "foo\nbar\nbaz\nquux\n",
		// For rg -U: matches across lines, and matches ending with a line's '\n'.
		"hw":       "hello\nworld\n",
		"crlf":     "test\r\n\n",
		"repeat":   "foo\nfoo\nbar\nfoo\n",
		"spaced":   " b b b b b b b b\nc\n",
		"assign":   "zero=one\n\na=one\n\nif true; then\n\ta=(\n\t\ta\n\t\tb\n\t)\nfi\n\na=two\n",
		"comments": "# Compile x (compile).\n# Use -h to x.\npipc () {  # [-h] [-U]\n    emulate -L zsh\n}\n",
		"adjacent": "funcfunc x func\nabc  de\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestPrintingFlagsAgainstRg15 holds the standard printer's choices to
// rg 15's bytes, with both regex engines: a --max-columns-preview line
// says how many matches it cut off when rg finds each match; an empty
// --field-*-separator prints no separator; --colors match:none prints
// matches without escapes; the last of --passthru and -A/-B/-C wins; under
// -U a block of lines is printed as one unit.
func TestPrintingFlagsAgainstRg15(t *testing.T) {
	rg := rg15(t)
	bin := rgkitBin(t)
	dir := printingTree(t)
	env := os.Environ()
	cases := [][]string{
		// rg ends the lines it makes up with its own line terminator:
		// "\r\n" under --crlf, a NUL under --null-data (the "--" between
		// context groups, the blank line between --heading groups, the
		// omitted-line notes); they ended in '\n'.
		{"--sort", "path", "--crlf", "--heading", "o", "short", "repeat", "crlf"},
		{"--sort", "path", "--crlf", "-C1", "ba", "short", "repeat"},
		{"--sort", "path", "--crlf", "-M5", "Doctor", "prose"},
		{"--sort", "path", "--crlf", "-M5", "--max-columns-preview", "-n", "Doctor", "prose"},
		{"--sort", "path", "--null-data", "--heading", "o", "short", "repeat"},
		{"--sort", "path", "--null-data", "-M5", "Doctor", "prose"},
		// --max-columns-preview: a match count when matches are found one by one.
		{"-M43", "--max-columns-preview", "-rxxx", "exhibited|dusted|has to have it", "prose"},
		{"-M43", "--max-columns-preview", "exhibited|dusted|has to have it", "prose"},
		{"-M43", "--max-columns-preview", "--color=always", "-e", "a", "-e", "dusted", "prose"},
		{"-M10", "--max-columns-preview", "--column", "o", "prose"},
		{"-M10", "--max-columns-preview", "--vimgrep", "o", "prose"},
		{"-M10", "--max-columns-preview", "--vimgrep", "--color=always", "o", "prose"},
		{"-M4", "--max-columns-preview", "-o", `\w+`, "prose"},
		{"-M10", "--max-columns-preview", "-C1", "--color=always", "clew", "prose"},
		{"--trim", "--max-columns-preview", "-M8", "--color=always", "--colors=path:none", "abc", "long"},
		{"--trim", "--max-columns-preview", "-M8", "-o", "--multiline", `.*a\n?bc.*`, "long"},
		{"--trim", "--max-columns-preview", "-M8", "--column", "[2z]|abc", "long"},
		{"--trim", "--max-columns-preview", "-M8", "--column", "-U", "[2z]|abc", "long"},
		{"--trim", "--max-columns-preview", "-M3", "-o", "--column", `\w+|\d`, "long"},
		{"--trim", "--max-columns-preview", "-M30", "--color=always", "-U", "[2z]|abc", "long"},
		{"--trim", "--max-columns-preview", "-M30", "--column", "-U", "[2z]|abc", "long"},
		{"--trim", "--max-columns-preview", "-M30", "--column", "[2z]|abc", "long"},
		{"--trim", "--max-columns-preview", "-M8", "--vimgrep", "--multiline", `.*a\n?bc.*`, "long"},
		{"--trim", "--max-columns-preview", "-M8", "--color=always", "--multiline", `a\n?bc`, "long"},
		// Adjacent matches are one coloured run; overlapping ones (two
		// patterns) are coloured from where the first ended.
		{"--color=always", "func", "adjacent"},
		{"--color=always", "[a-z]", "adjacent"},
		{"--color=always", "-e", "fu", "-e", "unc", "adjacent"},
		{"--color=always", "-e", "func", "-e", "cf", "adjacent"},
		{"--color=always", "-C1", "-v", "x", "adjacent"},
		{"--color=always", "--passthru", "-e", "fu", "-e", "unc", "adjacent"},
		{"--color=always", "-M12", "--max-columns-preview", "[a-z]", "adjacent"},
		// Field separators, empty and not.
		{"--field-match-separator", "", "-n", "Doctor Watsons", "prose"},
		{"--field-context-separator", "", "-n", "-A1", "Doctor Watsons", "prose"},
		{"--field-match-separator", "::", "--field-context-separator", "", "-n", "-b", "-C1", "clew", "prose"},
		{"--field-match-separator", "", "-c", "-H", "Doctor", "prose"},
		// --colors=...:none.
		{"-A1", "-H", "--no-heading", "-N", "--colors=match:none", "--color=always", "bar", "short"},
		{"-n", "--colors=line:none", "--colors=match:none", "--color=always", "ba", "short"},
		// -U: a block of lines is one unit (one JSON message, -r across
		// lines, one --vimgrep line per match, columns from the block's start).
		{"-n", "-U", "--vimgrep", `Watson|Sherlock\p{Any}+?Holmes`, "prose"},
		{"-n", "-U", "--column", `Watson|Sherlock\p{Any}+?Holmes`, "prose"},
		{"-n", "-U", "-o", "-b", "--column", `Sherlock\p{Any}+?Holmes`, "prose"},
		{"-n", "-U", "-C1", "--color=always", `Sherlock\p{Any}+?Holmes|clew`, "prose"},
		{"-U", "--json", `Sherlock\p{Any}+?Holmes`, "prose"},
		{"-U", "-r?", "-n", `\n`, "hw"},
		{"-U", "--json", `\n`, "crlf"}, {"-U", "-n", "--column", `\n`, "crlf"},
		{"-U", "-n", "-o", `\r?\n`, "crlf"}, {"-U", "-n", "--vimgrep", `\r?\n`, "crlf"}, {"-U", "--color=always", `t\r?\n`, "crlf"},
		{"-U", "--json", `foo\n`, "repeat"}, {"-U", "-n", "-r", "X", `foo\n`, "repeat"},
		{"-U", "-rx", `(^|[^a-z])((([a-z]+)?)\s)?b(\s([a-z]+)?)($|[^a-z])`, "spaced"},
		{"-n", "-U", "-o", "-r", "${value}", `^(?P<indent>\s*)a=(?P<value>(?ms:[(].*?[)])|.*?)$`, "assign"},
		{"-N", "-U", "-r", "$usage", `^(?P<predoc>\n?(# .*\n)*)(alias (?P<aname>pipc)="[^"]+"|(?P<fname>pipc) \(\) \{)(  #(?P<usage> .+))?`, "comments"},
		{"-N", "-U", "--multiline-dotall", "-r", "[$usage]", `(?P<fname>pipc) \(\) \{(  #(?P<usage> .+))?`, "comments"},
		// --passthru against context flags, in either order.
		{"--passthru", "-C1", "bar", "short"}, {"-C1", "--passthru", "bar", "short"},
		{"--passthru", "-B1", "bar", "short"}, {"-B1", "--passthru", "bar", "short"},
		{"--passthru", "-A1", "bar", "short"}, {"-A1", "--passthru", "-n", "bar", "short"},
	}
	// -P's look-around sees past a -U block.
	pcreCases := [][]string{
		{"-n", "-U", "-rquux", `(?<=foo\n)bar`, "short"}, {"-U", "--json", `(?<=foo\n)bar`, "short"},
		{"-n", "-U", "-o", `ba.(?=\nq)`, "short"},
	}
	engines := func(args []string) [][]string {
		for _, p := range pcreCases {
			if slices.Equal(p, args) {
				return [][]string{{"--pcre2"}}
			}
		}
		return [][]string{nil, {"--pcre2"}}
	}
	for _, args := range append(cases, pcreCases...) {
		for _, engine := range engines(args) {
			// --sort keeps the lines' order part of the comparison.
			c := diffCase{args: append(append([]string{"--sort", "path"}, engine...), args...)}
			t.Run(c.name(), func(t *testing.T) {
				t.Parallel()
				nativeLikeRg15(t, rg, bin, dir, env, c)
			})
		}
	}
}
