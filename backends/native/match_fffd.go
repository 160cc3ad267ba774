package native

import (
	"bytes"
	"regexp/syntax"
	"unicode/utf8"

	"github.com/rgkit/rgkit/internal/runeclass"
)

// A genuine U+FFFD (the bytes EF BF BD) and a byte of invalid UTF-8 are two
// things to rg: '.', [^a], \W or \pS match the first and never the second.
// Go's regexp, and this package's DFA and VM, decode an invalid byte as
// U+FFFD, so rewriteForRg takes U+FFFD out of such classes, and alone they
// miss the genuine character. So a pattern with U+FFFD in a class, in '.'
// or as a literal also compiles a second Matcher (Matcher.sentinel) in which
// U+FFFE stands for U+FFFD. Data that holds a genuine U+FFFD, and no U+FFFE
// of its own, is searched by that Matcher in a copy where each EF BF BD is
// EF BF BE: a character of the same length, so every offset holds, and one
// no class holds unless it held U+FFFD. Data with both (a U+FFFE
// noncharacter beside a U+FFFD) is searched as before, missing the U+FFFD.

// sentinelRune stands for a genuine U+FFFD in the data a sentinel Matcher
// searches.
const sentinelRune = '\uFFFE'

var (
	encodedFFFD     = []byte("\uFFFD")
	encodedSentinel = []byte("\uFFFE")
)

// holdsFFFD reports whether '.', a class or a literal of re holds U+FFFD.
func holdsFFFD(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return true
	case syntax.OpCharClass:
		if runeclass.Has(re.Rune, utf8.RuneError) {
			return true
		}
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if r == utf8.RuneError {
				return true
			}
		}
	}
	for _, sub := range re.Sub {
		if holdsFFFD(sub) {
			return true
		}
	}
	return false
}

// toSentinel rewrites re in place for data in which U+FFFE stands for a
// genuine U+FFFD and U+FFFD for an invalid byte: a class holds U+FFFE
// exactly when it held U+FFFD, and U+FFFD never; a literal U+FFFD is
// U+FFFE, and a literal U+FFFE (which such data never holds) matches
// nothing. '.' is left to rewriteForRg, which makes it a class without
// U+FFFD (and with U+FFFE). A node met twice (Simplify shares a repeated
// one: x{2} is xx of one node) is rewritten once.
func toSentinel(re *syntax.Regexp) {
	sentinelNodes(re, map[*syntax.Regexp]bool{})
}

func sentinelNodes(re *syntax.Regexp, done map[*syntax.Regexp]bool) {
	if done[re] {
		return
	}
	done[re] = true
	switch re.Op {
	case syntax.OpCharClass:
		had := runeclass.Has(re.Rune, utf8.RuneError)
		cls := runeclass.Without(runeclass.Without(re.Rune, utf8.RuneError), sentinelRune)
		if had {
			cls = runeclass.With(cls, sentinelRune)
		}
		setClass(re, cls)
	case syntax.OpLiteral:
		for i, r := range re.Rune {
			switch r {
			case utf8.RuneError:
				re.Rune[i] = sentinelRune
			case sentinelRune:
				*re = syntax.Regexp{Op: syntax.OpNoMatch}
				return
			}
		}
	}
	for _, sub := range re.Sub {
		sentinelNodes(sub, done)
	}
}

// withSentinel returns the Matcher to run on b, and b as that Matcher
// reads it: m and b, unless b holds a genuine U+FFFD that m's classes
// would miss (see sentinelRune); then m.sentinel and a copy of b.
func (m *Matcher) withSentinel(b []byte) (*Matcher, []byte) {
	if m.sentinel == nil || !bytes.Contains(b, encodedFFFD) || bytes.Contains(b, encodedSentinel) {
		return m, b
	}
	return m.sentinel, bytes.ReplaceAll(b, encodedFFFD, encodedSentinel)
}

// fromSentinel is a line's text, found by a sentinel Matcher, as the data
// had it (U+FFFD again).
func fromSentinel(text []byte) []byte {
	if !bytes.Contains(text, encodedSentinel) {
		return text
	}
	return bytes.ReplaceAll(text, encodedSentinel, encodedFFFD)
}
