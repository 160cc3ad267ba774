package native

import (
	"errors"
	"testing"

	"github.com/rgkit/rgkit/search"
)

// The prefilter's literal must be in every match: these are the literals
// the translation may promise, and where it must promise none.
func TestPCRERequiredLiteral(t *testing.T) {
	for _, c := range []struct{ pattern, want string }{
		{`(?:(?<=func )\w+)`, "func "},
		{`foo(?=bar)`, "foo"},
		{`ab?c`, "a"},
		{`ab*cd`, "cd"},
		{`ab+c`, "ab"},
		{`(?:abc)?x`, "x"},
		{`(abc)+x`, "abc"},
		{`a{0,3}bc`, "bc"},
		{`a{2}bc`, "bc"},
		{`foo|bar`, ""},
		{`(?:foo|bar)baz`, "baz"},
		{`(?!foo)bar`, "bar"},
		{`(?<!longer)x`, "x"},
		{`\Qa.b\E`, "a.b"},
		{`a\.b`, "a.b"},
		{`(?x) f o o`, "foo"},
		{`(?(1)abc|d)e`, "e"},
		{`[abc]def`, "def"},
		{`x*`, ""},
		{`(a)\1bc`, "bc"},
	} {
		tr, err := translatePCRE(c.pattern, pcreMode{})
		if err != nil {
			t.Errorf("%s: %v", c.pattern, err)
			continue
		}
		if tr.required != c.want {
			t.Errorf("%s: required %q, want %q", c.pattern, tr.required, c.want)
		}
	}
}

// TestPCRENullDataRefusesWhatItCannotSee: --null-data searches permuted
// bytes (records end in '\n' for the searcher), which a -P pattern that
// anchors at or names a line end would see through regexp2's eyes, not
// PCRE2's: `-P --null-data '^import'` found nothing where rg finds every
// record with a line starting "import". Such patterns are refused (so the
// Chain moves on to rg where it has one); the others compile.
func TestPCRENullDataRefusesWhatItCannotSee(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		o       MatchOptions
		refused bool
	}{
		{MatchOptions{Pattern: `^import`}, true},
		{MatchOptions{Pattern: `nil$`}, true},
		{MatchOptions{Pattern: `a.b`}, true},
		{MatchOptions{Pattern: `\d+`}, true},
		{MatchOptions{Pattern: `[ab]`}, true},
		{MatchOptions{Pattern: "a\nb"}, true},
		{MatchOptions{Pattern: `import|package`}, false},
		{MatchOptions{Pattern: `(?i)import`}, false},
		{MatchOptions{Pattern: `a.b`, Fixed: true}, false},
		{MatchOptions{Pattern: "a\rb", Fixed: true}, true},
	} {
		o := c.o
		o.PCRE2, o.NullData = true, true
		_, err := Compile(o)
		if got := errors.Is(err, search.ErrUnsupported); got != c.refused {
			t.Errorf("%+v: refused %v (%v), want %v", c.o, got, err, c.refused)
		}
		if !c.refused && err != nil {
			t.Errorf("%+v: %v", c.o, err)
		}
		o.NullData = false
		if _, err := Compile(o); err != nil && c.o.Pattern != "a\nb" && c.o.Pattern != "a\rb" {
			t.Errorf("%+v without --null-data: %v", c.o, err)
		}
	}
}
