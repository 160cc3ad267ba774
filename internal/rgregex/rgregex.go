// Package rgregex reads a pattern in the regex dialect ripgrep 15 accepts
// without -P (the Rust regex crate's syntax) and gives it rg's meaning as a
// Go regexp/syntax tree.
//
// rg's dialect differs from Go's RE2 syntax in both spelling and meaning:
// it is Unicode-aware by default (\w, \d, \s and \b follow Unicode), has
// class set operations ([a-z&&[^aeiou]], --, ~~), special word boundaries
// (\b{start}, \<, ...), more escapes (\u{..}, \U0001F600), and refuses
// things Go accepts (a{,3}). Agents write rg patterns, so rgkit reads
// them as rg does, on every engine.
//
// The tree uses only regexp/syntax operators. The assertions Go lacks
// (Unicode word boundaries, word start/end and their halves, CRLF-aware
// line anchors) appear as literals of one placeholder rune each (see
// Assertion); a matcher that finds one must run them itself (Go's
// regexp would read them as ordinary characters).
package rgregex

import (
	"fmt"
	"regexp/syntax"
	"slices"
	"unicode/utf8"

	"github.com/rgkit/rgkit/internal/ucd"
)

// Options are the flags rg sets from its command line. rg always searches
// with multi-line anchors (^ and $ match at line ends).
type Options struct {
	CaseInsensitive bool // -i: (?i)
	DotNL           bool // --multiline-dotall: (?s)
	CRLF            bool // --crlf: (?R)
	NoUnicode       bool // --no-unicode: (?-u)
	AllowNUL        bool // -a: binary detection is off, so a NUL byte may be matched
	// Captures keeps the capture groups in the tree (OpCapture, numbered
	// and named as rg numbers them), for -r's $1 and $name. A searcher has
	// no use for them and leaves them out.
	Captures bool
}

// Kind classifies a refused pattern.
type Kind int

const (
	// KindSyntax: rg refuses the pattern too ("regex parse error").
	KindSyntax Kind = iota
	// KindLookAround and KindBackreference: rg refuses them without -P.
	KindLookAround
	KindBackreference
	// KindNUL: the pattern needs a NUL byte, which rg's binary detection
	// makes impossible to match; rg refuses it unless -a is given.
	KindNUL
	// KindUnsupported: rg accepts the pattern, this package cannot give
	// it rg's meaning (\p{Age=V}: this package has no table of ages).
	KindUnsupported
)

// Error is a refused pattern: where (a byte offset into Pattern) and why,
// in rg's words where rg refuses it too.
type Error struct {
	Pattern string
	Offset  int
	Kind    Kind
	Msg     string
	// Spans are the byte ranges of Wrapped() rg's message marks (the
	// offending part, then the earlier part it clashes with, if any).
	Spans [][2]int
}

// Wrapped is the text the parser read, as rg's parser reads it.
func (e *Error) Wrapped() string { return "(?:" + e.Pattern + ")" }

func (e *Error) Error() string {
	s := fmt.Sprintf("regex parse error at offset %d: %s", e.Offset, e.Msg)
	if e.Kind == KindNUL {
		s = e.Msg
	}
	if h := e.Hint(); h != "" {
		s += " (" + h + ")"
	}
	return s
}

// Hint is the fix-it advice rg prints with the error, or "".
func (e *Error) Hint() string {
	switch e.Kind {
	case KindLookAround, KindBackreference:
		return "use -P / --pcre2, which can handle backreferences and look-around"
	case KindNUL:
		return "use -a / --text to search binary data as text"
	}
	return ""
}

// Assertion is a zero-width test Go's regexp does not have.
type Assertion uint8

const (
	WordBoundary       Assertion = iota + 1 // Unicode \b
	NotWordBoundary                         // Unicode \B
	WordStart                               // Unicode \b{start}, \<
	WordEnd                                 // Unicode \b{end}, \>
	WordStartHalf                           // Unicode \b{start-half}
	WordEndHalf                             // Unicode \b{end-half}
	WordStartASCII                          // (?-u:\b{start})
	WordEndASCII                            // (?-u:\b{end})
	WordStartHalfASCII                      // (?-u:\b{start-half})
	WordEndHalfASCII                        // (?-u:\b{end-half})
	LineStartCRLF                           // (?Rm)^
	LineEndCRLF                             // (?Rm)$
	maxAssertion
)

// assertBase is the first placeholder rune: a noncharacter block of plane
// 16's private use area, so a pattern never names one by accident without
// \u escapes (which Parse refuses for this block).
const assertBase = 0x10FFF0

// AssertionOf reports the assertion a placeholder literal stands for.
func AssertionOf(re *syntax.Regexp) (Assertion, bool) {
	if re.Op != syntax.OpLiteral || len(re.Rune) != 1 {
		return 0, false
	}
	return AssertionRune(re.Rune[0])
}

// AssertionRune reports the assertion a placeholder rune stands for (in a
// compiled program's InstRune1).
func AssertionRune(r rune) (Assertion, bool) {
	// (Compared as runes: a byte rune, past the placeholders, would wrap
	// around to an assertion as an Assertion.)
	if r < assertBase || r-assertBase+1 >= rune(maxAssertion) {
		return 0, false
	}
	return Assertion(r - assertBase + 1), true
}

// AssertionNode is the placeholder literal for a: for a matcher that
// rewrites a tree (rg --null-data's line anchors become (?R)'s).
func AssertionNode(a Assertion) *syntax.Regexp { return assertNode(a) }

func assertNode(a Assertion) *syntax.Regexp {
	return &syntax.Regexp{Op: syntax.OpLiteral, Rune: []rune{assertBase + rune(a) - 1}}
}

// HasAssertion reports whether the tree holds a placeholder assertion.
func HasAssertion(re *syntax.Regexp) bool {
	if _, ok := AssertionOf(re); ok {
		return true
	}
	for _, s := range re.Sub {
		if HasAssertion(s) {
			return true
		}
	}
	return false
}

// Word wraps a parsed tree as rg -w does since rg 14:
// \b{start-half}(?:tree)\b{end-half}, in Unicode mode: a match must not
// have a word character right before or right after it.
func Word(tree *syntax.Regexp) *syntax.Regexp {
	return &syntax.Regexp{Op: syntax.OpConcat, Sub: []*syntax.Regexp{
		assertNode(WordStartHalf), tree, assertNode(WordEndHalf)}}
}

// Parse reads pattern as rg 15 does (rg wraps it as "(?:pattern)" first,
// so a (?x) comment runs to the end of the pattern and swallows that
// closing parenthesis, as in rg) and returns its tree, capture groups
// only with o.Captures; the caller may Simplify the tree. A pattern that
// matches single bytes ((?-u)'s '.', a negated class, \x80-\xFF: see
// MatchesBytes) comes spelled in bytes throughout, a character beyond
// ASCII as its UTF-8 bytes.
func Parse(pattern string, o Options) (*syntax.Regexp, error) {
	re, err := newParser(pattern, o).parseAll()
	if err != nil {
		return nil, err
	}
	if !o.AllowNUL && hasNUL(re) {
		return nil, &Error{Pattern: pattern, Kind: KindNUL, Offset: 0,
			Msg: `pattern contains "\0" but it is impossible to match: binary detection is enabled and matching a NUL byte is impossible`}
	}
	if MatchesBytes(re) {
		liftToBytes(re)
	}
	return re, nil
}

// SmartCase applies rg's --smart-case rule to a pattern: it is searched
// case-insensitively when it has at least one literal character and none
// of them is uppercase. Literals are the characters written in the
// pattern, escaped ones included (\x41 is an uppercase A) and those in
// bracket classes and range ends; class escapes (\W, \S, \p{Lu},
// [[:upper:]]), group names, flags and (?x) whitespace are not. A
// pattern Parse refuses is case sensitive.
func SmartCase(pattern string) (insensitive bool) {
	var anyLit, anyUpper bool
	p := newParser(pattern, Options{})
	p.onLit = func(r rune) {
		anyLit = true
		anyUpper = anyUpper || IsUpper(r)
	}
	if _, err := p.parseAll(); err != nil {
		return false
	}
	return anyLit && !anyUpper
}

func newParser(pattern string, o Options) *parser {
	p := &parser{src: "(?:" + pattern + ")", pat: pattern, names: map[string][2]int{}, captures: o.Captures}
	p.fl = flags{i: o.CaseInsensitive, m: true, s: o.DotNL, u: !o.NoUnicode, R: o.CRLF}
	return p
}

// hasNUL mirrors rg's ban on a NUL byte: a literal holding one, or a
// class that is just NUL (rg sees both as a literal).
func hasNUL(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral:
		if slices.Contains(re.Rune, 0) {
			return true
		}
	case syntax.OpCharClass:
		if len(re.Rune) == 2 && re.Rune[0] == 0 && re.Rune[1] == 0 {
			return true
		}
	}
	return slices.ContainsFunc(re.Sub, hasNUL)
}

// IsUpper is Rust's char::is_uppercase, the test of rg's smart case: the
// Uppercase property (Lu and Other_Uppercase: Ⅰ, Ⓐ), of Unicode 16.
func IsUpper(r rune) bool {
	if r < utf8.RuneSelf {
		return 'A' <= r && r <= 'Z'
	}
	rs, _ := ucd.Ranges(ucd.Binary, "Uppercase")
	return ucd.In(rs, r)
}
