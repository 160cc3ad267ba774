package native

import (
	"fmt"
	"strings"
	"testing"
)

// TestPCREMultilineCountDecodesTheTextOnce: counting a -P -U search's
// matches block by block reads the text as decoded once for the search.
// It was decoded again for every find, so a 1 MB text with a match on
// every line took minutes; the bound here is the bytes decoded, not time.
func TestPCREMultilineCountDecodesTheTextOnce(t *testing.T) {
	var text strings.Builder
	for i := range 4000 {
		fmt.Fprintf(&text, "line %04d of the text, with some words\n", i)
	}
	data := []byte(text.String()) // 160 KB
	for _, c := range []struct {
		name string
		o    SearchOptions
	}{
		{"count", SearchOptions{CountOnly: true}},
		{"count for -v, by finds", SearchOptions{CountOnly: true, InvertFinds: true}},
		{"files with a match, by finds", SearchOptions{FilesOnly: true, InvertFinds: true}},
		{"lines", SearchOptions{}},
	} {
		o := c.o
		t.Run(c.name, func(t *testing.T) {
			m, err := Compile(MatchOptions{Pattern: `\d{4}`, PCRE2: true, Multiline: true})
			if err != nil {
				t.Fatal(err)
			}
			res, err := m.Search(data, o, func(Line) error { return nil })
			if err != nil {
				t.Fatal(err)
			}
			if res.MatchedLines == 0 {
				t.Fatalf("no match: %+v", res)
			}
			if got := m.vm.px.decoded.Load(); got > 4*int64(len(data)) {
				t.Errorf("the search decoded %d KB of a %d KB text", got>>10, len(data)>>10)
			}
		})
	}
}
