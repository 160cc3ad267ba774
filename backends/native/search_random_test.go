package native

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestRandomSearchesMatchRg is a randomised differential test: random files
// built from a vocabulary of awkward pieces (CRLF, NUL, invalid UTF-8, a
// genuine U+FFFD, non-ASCII, empty lines, no final newline, a NUL at the
// start or the end), random patterns and random options, through rg and
// through the searcher. The seed is fixed, so a
// failure is reproducible; the failing case is printed in full. 25 cases by
// default, 150 under RGKIT_TEST_FULL=1 (sampleSize).
func TestRandomSearchesMatchRg(t *testing.T) {
	searchRg(t)
	if testing.Short() {
		t.Skip("randomised differential test skipped in -short mode")
	}
	pieces := []string{"foo", "bar", "Foo", "FOO", "foo_bar", " ", "  ", "\t", "\n", "\n", "\n", "\r\n",
		"x1 = 2", "a=3", "func ", "Error(", "http", "HTTP", "é", "\u212a", "\xff", "-", "(", ")", ".", "9", "baz",
		"ключ", "_слово", "١٢٣", "Ωμέγα", "e\u0301", "\u017f", "\u00a0", "naïve", "\ufffd"}
	patterns := []string{"foo", "bar|baz", "fo+", `\bfoo\b`, `^foo`, `bar$`, `[a-z]+\d`, `\w+\d\s*=\s*\d`,
		`func \w*Error\(`, "http", `f.o`, `o\s+b`, `(foo|bar)(bar|baz)`, `[^a-z]+`, `\d`, `.`,
		`[A-Z]{2,}`, `\.`, `foo\nbar`, `o\n+b`, `(?s)foo.bar`,
		`\w+`, `\bключ\b`, `\d+`, `(?i)k\w*`, `\b{start}\w`, `\w+\b{end}`, `\p{Greek}+`,
		`[\w&&\p{Cyrillic}]+`, `\s+\w`, `(?i)ΩΜ`, `\B\w`, `\w\b`, `\<\w+\>`, `(?i)[a-z]+\s`, `\W+`, `[^a-z\s]{2}`}
	rng := rand.New(rand.NewPCG(7, 11))
	var cases []rgCase
	for i := range sampleSize(150, 25) {
		files := map[string]string{}
		for f := 0; f < 3; f++ {
			var b strings.Builder
			if rng.IntN(8) == 0 {
				b.WriteString("ab\n\x00\n") // a NUL before the matches (a binary file, cut there)
			}
			for j := rng.IntN(40); j > 0; j-- {
				b.WriteString(pieces[rng.IntN(len(pieces))])
			}
			if rng.IntN(10) == 0 {
				b.WriteString("\x00tail foo\n")
			}
			files[fmt.Sprintf("f%d.txt", f)] = b.String()
		}
		c := rgCase{files: files, match: MatchOptions{Pattern: patterns[rng.IntN(len(patterns))]}}
		c.match.CaseInsensitive = rng.IntN(4) == 0
		c.match.Word = rng.IntN(5) == 0
		c.match.Fixed = rng.IntN(8) == 0
		c.match.Multiline = strings.Contains(c.match.Pattern, `\n`) || rng.IntN(8) == 0
		if rng.IntN(3) == 0 {
			c.search.Before, c.search.After = rng.IntN(3), rng.IntN(3)
		}
		if rng.IntN(4) == 0 {
			c.search.MaxCount = 1 + rng.IntN(3)
		}
		c.search.NoStats = rng.IntN(2) == 0 // (the prefilter's first look then reads past a NUL)
		if c.match.Multiline && c.search.MaxCount > 0 && c.search.After > 0 {
			c.search.After = 0 // rg 13 repeats context lines with -U -m -A (its bug, not copied)
		}
		if _, err := Compile(c.match); err != nil {
			continue // e.g. a literal \n without multiline: rg refuses it too
		}
		c.name = fmt.Sprintf("%d %+v %+v", i, c.match, c.search)
		cases = append(cases, c)
	}
	checkAgainstRg(t, cases)
}

// Patterns that match the empty string are left out above: rg 13 reports an
// empty submatch at every byte of a multi-byte character, Go at character
// boundaries (the documented exception "dialect/empty-pattern"); the lines
// agree, the span lists do not.
