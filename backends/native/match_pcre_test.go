package native

import "testing"

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
