package native

import (
	"regexp"
	"regexp/syntax"
	"unicode/utf8"

	"github.com/rgkit/rgkit/internal/rgregex"
)

// After an empty match rg searches again one byte on, not one character:
// a pattern that matches empty anywhere (`x*`) also matches between the
// bytes of "é" (`--count-matches 'x*'` over "ét" is 4: before "é", inside
// it, before "t", at the end). Go's regexp, and the VM reading
// characters, move on a character. For such a pattern (Matcher.midEmpty)
// the matches of a line are the engine's with an empty match added at
// each position inside a character that no match covers (midCharEach).
// A pattern that needs an assertion to match empty (`^x*`, `\b`) matches
// nowhere inside a character, and one that cannot match empty never moves
// on by itself; neither changes.

// emptyWithoutAssertion reports whether re can match the empty string
// with no assertion on the way, and so matches empty anywhere.
func emptyWithoutAssertion(re *syntax.Regexp) bool { return matchesEmpty(re, false) }

// matchesEmpty reports whether re can match the empty string, where an
// assertion (^, $, \b, rgregex's placeholders) may hold or, without
// assertions, never.
func matchesEmpty(re *syntax.Regexp, assertions bool) bool {
	switch re.Op {
	case syntax.OpNoMatch, syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return false
	case syntax.OpEmptyMatch, syntax.OpStar, syntax.OpQuest:
		return true
	case syntax.OpLiteral:
		if _, ok := rgregex.AssertionOf(re); ok {
			return assertions
		}
		return len(re.Rune) == 0
	case syntax.OpRepeat:
		return re.Min == 0 || matchesEmpty(re.Sub[0], assertions)
	case syntax.OpPlus, syntax.OpCapture:
		return matchesEmpty(re.Sub[0], assertions)
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			if !matchesEmpty(sub, assertions) {
				return false
			}
		}
		return true
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			if matchesEmpty(sub, assertions) {
				return true
			}
		}
		return false
	}
	return assertions // ^ $ \A \z \b \B
}

// midCharEach wraps each, an iteration over b's matches from from on (as
// pikeVM.eachMatch), adding the empty matches inside characters (see
// above) in order; like each, it reports whether fn stopped it.
func midCharEach(b []byte, from int, each func(fn func(s, e int) bool) bool) func(fn func(s, e int) bool) bool {
	return func(fn func(s, e int) bool) bool {
		at := from // the positions before at are done; at starts a character
		inside := func(upto int) bool {
			for at < upto {
				_, w := utf8.DecodeRune(b[at:])
				for p := at + 1; p < at+w && p < upto; p++ {
					if !fn(p, p) {
						return false
					}
				}
				at += w
			}
			return true
		}
		if each(func(s, e int) bool {
			if !inside(s) || !fn(s, e) {
				return false
			}
			at = max(at, e)
			return true
		}) {
			return true
		}
		return !inside(len(b))
	}
}

// engineEach is the iteration over b's matches from from on with re (from
// 0) or else v, as lineSpansFound finds them.
func engineEach(b []byte, from int, v *pikeVM, re *regexp.Regexp) func(fn func(s, e int) bool) bool {
	if re == nil {
		return func(fn func(s, e int) bool) bool { return v.eachMatch(b, from, fn) }
	}
	return func(fn func(s, e int) bool) bool {
		for _, loc := range re.FindAllIndex(b, -1) {
			if !fn(loc[0], loc[1]) {
				return true
			}
		}
		return false
	}
}
