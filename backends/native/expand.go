package native

import (
	"errors"
	"regexp"
	"regexp/syntax"

	"github.com/rgkit/rgkit/internal/rgregex"
)

// Expander expands rg -r's template ($1, ${1}, $name, ${name}, $$) for
// the matches of a pattern in rg's default dialect. The pattern is read as
// Compile reads it, so a group holds what rg's holds: Go's own parser
// would read \w, \d and \s as ASCII classes, and a group around
// "Example_世界" would not match (the template was printed unexpanded).
type Expander struct {
	re *regexp.Regexp
	// latin1: the pattern matches single bytes (rgregex.MatchesBytes), and
	// re is spelled for the match's bytes read as Latin-1 (see latin1Tree).
	latin1 bool
}

// NewExpander compiles o's pattern (not o.PCRE2: see NewPCRE2Expander)
// to match one whole match. -w's boundaries are left out (the match they
// enclose is the text Expand is given), and rg's Unicode \b and \B become
// Go's ASCII ones, which agree on the text around a word of ASCII letters.
func NewExpander(o MatchOptions) (*Expander, error) {
	pat := o.Pattern
	if o.Fixed {
		pat = regexp.QuoteMeta(pat)
	}
	tree, err := rgregex.Parse(pat, rgregex.Options{
		CaseInsensitive: o.CaseInsensitive, DotNL: o.Multiline, CRLF: o.CRLF, NoUnicode: o.NoUnicode, AllowNUL: true, Captures: true})
	if err != nil {
		return nil, err
	}
	tree = tree.Simplify()
	latin1 := rgregex.MatchesBytes(tree)
	if latin1 {
		latin1Tree(tree)
	}
	if o.CRLF {
		tree = crlfLineAnchors(tree)
	}
	if rgregex.HasAssertion(tree) {
		if tree = asciiEquivalent(tree); tree == nil {
			return nil, errors.New("native: the pattern's assertions have no Go equivalent")
		}
	}
	src, ok := goSource(tree)
	if !ok {
		src = tree.String()
	}
	re, err := regexp.Compile(`\A(?:` + src + `)\z`)
	if err != nil {
		return nil, err
	}
	return &Expander{re: re, latin1: latin1}, nil
}

// Expand appends to dst the template expanded against match, the text of
// one match; ok is false when the pattern does not match it whole (dst is
// then returned as it was).
func (x *Expander) Expand(dst []byte, tmpl string, match []byte) (out []byte, ok bool) {
	if x.latin1 {
		return x.expandLatin1(dst, tmpl, match)
	}
	idx := x.re.FindSubmatchIndex(match)
	if idx == nil {
		return dst, false
	}
	return x.re.Expand(dst, []byte(tmpl), match, idx), true
}

// expandLatin1 is Expand for a pattern that matches single bytes: the
// match is read as Latin-1 (each byte one character) and its groups are
// mapped back to its bytes.
func (x *Expander) expandLatin1(dst []byte, tmpl string, match []byte) ([]byte, bool) {
	text := make([]rune, len(match))
	for i, b := range match {
		text[i] = rune(b)
	}
	lifted := []byte(string(text))
	idx := x.re.FindSubmatchIndex(lifted)
	if idx == nil {
		return dst, false
	}
	// A byte of 0x80 or more is two bytes of lifted.
	orig := make([]int, len(lifted)+1)
	at := 0
	for i, b := range match {
		orig[at] = i
		if b >= 0x80 {
			at++
			orig[at] = i
		}
		at++
	}
	orig[at] = len(match)
	for i, v := range idx {
		if v >= 0 {
			idx[i] = orig[v]
		}
	}
	return x.re.Expand(dst, []byte(tmpl), match, idx), true
}

// latin1Tree respells a byte-matching tree for text read as Latin-1: the
// byte rune of b (rgregex.ByteRune) becomes the character b.
func latin1Tree(re *syntax.Regexp) {
	unbyte := func(r rune) rune {
		if rgregex.IsByteRune(r) {
			return r - rgregex.ByteRune(0x80) + 0x80
		}
		return r
	}
	for i, r := range re.Rune {
		re.Rune[i] = unbyte(r)
	}
	for _, sub := range re.Sub {
		latin1Tree(sub)
	}
}

// crlfLineAnchors replaces --crlf's line anchors with Go's (?m)^ and $:
// the Expander sees one match's text, found by the real matcher, and only
// its groups are wanted, so the anchors need not tell "\r\n" apart.
func crlfLineAnchors(re *syntax.Regexp) *syntax.Regexp {
	if a, ok := rgregex.AssertionOf(re); ok {
		switch a {
		case rgregex.LineStartCRLF:
			return &syntax.Regexp{Op: syntax.OpBeginLine}
		case rgregex.LineEndCRLF:
			return &syntax.Regexp{Op: syntax.OpEndLine}
		}
		return re
	}
	for i, sub := range re.Sub {
		re.Sub[i] = crlfLineAnchors(sub)
	}
	return re
}
