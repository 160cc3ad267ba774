package native

import (
	"fmt"
	"testing"
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
		// Known difference: beside a U+FFFE of the text's own, which the
		// second Matcher would take for U+FFFD, U+FFFD is missed (rg:
		// [[0 3] [3 6]]).
		{`.`, "\uFFFE\uFFFD", "[[0 3]]"},
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
	t.Run("the lines found keep U+FFFD", func(t *testing.T) {
		m, err := Compile(MatchOptions{Pattern: `a.b`})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		if _, err := m.Search([]byte("a\uFFFDb\nc\xffd\na\xffb\n"), SearchOptions{}, func(l Line) error {
			got = append(got, fmt.Sprintf("%d %q %v", l.Number, l.Text, l.Submatches))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if want := `[1 "a�b" [[0 5]]]`; fmt.Sprint(got) != want {
			t.Errorf("lines = %v, want %s", got, want)
		}
	})
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
