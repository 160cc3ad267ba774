package native

import "testing"

// TestExpanderReadsEveryDialectsAnchors: -r's expander finds a match's
// groups again over its text; a pattern whose assertions have no Go
// equivalent left -r without one, and the line printed unreplaced. --crlf's
// line anchors are such assertions.
func TestExpanderReadsEveryDialectsAnchors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name        string
		o           MatchOptions
		tmpl, match string
		want        string
	}{
		{"crlf line start", MatchOptions{Pattern: `^foo`, CRLF: true}, "<$0>", "foo", "<foo>"},
		{"crlf line end", MatchOptions{Pattern: `(o+)$`, CRLF: true}, "[$1]", "oo", "[oo]"},
		{"crlf both, a group", MatchOptions{Pattern: `^\s*(//)`, CRLF: true}, "<$1>", "  //", "<//>"},
		{"default dialect", MatchOptions{Pattern: `^(\w+)$`}, "$1!", "abc", "abc!"},
	} {
		t.Run(c.name, func(t *testing.T) {
			x, err := NewExpander(c.o)
			if err != nil {
				t.Fatalf("NewExpander(%q): %v", c.o.Pattern, err)
			}
			out, ok := x.Expand(nil, c.tmpl, []byte(c.match))
			if !ok || string(out) != c.want {
				t.Errorf("Expand(%q, %q) = %q, %v; want %q", c.tmpl, c.match, out, ok, c.want)
			}
		})
	}
}
