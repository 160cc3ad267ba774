package native

import (
	"fmt"
	"testing"
	"unicode/utf8"
)

// TestGenuineFFFDIsACharacterInvalidBytesAreNot: as in rg, '.', negated
// classes, \W, \S and \pS match a genuine U+FFFD (EF BF BD) like any other
// character, and never a byte of invalid UTF-8; \x{FFFD} matches the
// character only; the lines found print the data's own bytes.
func TestGenuineFFFDIsACharacterInvalidBytesAreNot(t *testing.T) {
	t.Parallel()
	cases := []struct {
		pattern, line string
		want          string // Spans
	}{
		{`.`, "a\uFFFDb", "[[0 1] [1 4] [4 5]]"},
		{`.`, "c\xffd", "[[0 1] [2 3]]"},
		{`a.b`, "a\uFFFDb", "[[0 5]]"},
		{`\W`, "\uFFFD", "[[0 3]]"},
		{`\W`, "c\xffd", "[]"},
		{`\S+`, "x\uFFFD\xffy", "[[0 4] [5 6]]"},
		{`[^a-z]`, "x\uFFFD\xffy", "[[1 4]]"},
		{`[^a-z\s]{2}`, "é\uFFFDFOO", "[[0 5] [5 7]]"}, // (x{2} repeats one node)
		{`\pS`, "\uFFFD", "[[0 3]]"},
		{`\x{FFFD}`, "\xff\uFFFD", "[[1 4]]"},
		{`[\x{FFFD}x]+`, "x\uFFFD\xffx", "[[0 4] [5 6]]"},
		{`\x{FFFE}`, "\uFFFD", "[]"},
		{`(?i)A.`, "a\uFFFD", "[[0 4]]"},
		{`\w`, "\uFFFD", "[]"}, // no U+FFFD in the class: no second Matcher
		// beside a U+FFFE of the text's own, U+FFFF stands for U+FFFD;
		// beside both, U+FDD0
		{`.`, "\uFFFE\uFFFD", "[[0 3] [3 6]]"},
		{`[\x{FFFD}x]`, "\uFFFE\uFFFD\xff", "[[3 6]]"},
		{`\x{FFFF}|\pS`, "\uFFFF\uFFFE\uFFFD", "[[0 3] [6 9]]"},
		{`\x{FDD0}|\x{FFFD}`, "\uFDD0\uFFFF\uFFFE\uFFFD", "[[0 3] [9 12]]"},
		// Known difference: beside all 34 stand-ins, U+FFFD is missed by
		// the classes that hold it (rg: it is the last match).
		{`[^\x00-\x7F]`, allNoncharacters + "\uFFFD", fmt.Sprint(noncharacterSpans)},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s in %q", c.pattern, c.line), func(t *testing.T) {
			m, err := Compile(MatchOptions{Pattern: c.pattern})
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprint(m.Spans([]byte(c.line))); got != c.want {
				t.Errorf("Spans = %s, want %s", got, c.want)
			}
		})
	}
	for _, extra := range []string{"", "\uFFFE\n", "\uFFFE\uFFFF\n"} {
		t.Run(fmt.Sprintf("the lines found keep U+FFFD beside %q", extra), func(t *testing.T) {
			m, err := Compile(MatchOptions{Pattern: `a.b`})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			if _, err := m.Search([]byte("a\uFFFDb\nc\xffd\na\xffb\n"+extra), SearchOptions{}, func(l Line) error {
				got = append(got, fmt.Sprintf("%d %q %v", l.Number, l.Text, l.Submatches))
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if want := `[1 "a�b" [[0 5]]]`; fmt.Sprint(got) != want {
				t.Errorf("lines = %v, want %s", got, want)
			}
		})
	}
	t.Run("a multiline search", func(t *testing.T) {
		m, err := Compile(MatchOptions{Pattern: `\W+\n\W`, Multiline: true})
		if err != nil {
			t.Fatal(err)
		}
		var got [][2]int
		m.EachMultilineMatch([]byte("a\uFFFD\n\uFFFDb\xff\n\xffc"), func(s, e int) bool {
			got = append(got, [2]int{s, e})
			return true
		})
		if fmt.Sprint(got) != "[[1 8]]" {
			t.Errorf("matches = %v, want [[1 8]]", got)
		}
	})
}

// allNoncharacters holds every stand-in for U+FFFD, and
// noncharacterSpans is where each lies in it.
var allNoncharacters, noncharacterSpans = func() (string, [][2]int) {
	var b []byte
	var spans [][2]int
	for _, r := range sentinelRunes {
		spans = append(spans, [2]int{len(b), len(b) + 3})
		b = utf8.AppendRune(b, r)
	}
	return string(b), spans
}()
