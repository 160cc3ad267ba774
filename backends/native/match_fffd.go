package native

import (
	"bytes"
	"regexp/syntax"
	"sync"
	"unicode/utf8"

	"github.com/rgkit/rgkit/internal/runeclass"
)

// A genuine U+FFFD (the bytes EF BF BD) and a byte of invalid UTF-8 are two
// things to rg: '.', [^a], \W or \pS match the first and never the second.
// Go's regexp, and this package's DFA and VM, decode an invalid byte as
// U+FFFD, so rewriteForRg takes U+FFFD out of such classes, and alone they
// miss the genuine character. So a pattern with U+FFFD in a class, in '.'
// or as a literal also compiles a second Matcher (Matcher.sentinel) in which
// a sentinel, U+FFFE, stands for U+FFFD. Data that holds a genuine U+FFFD is
// searched by that Matcher in a copy where each EF BF BD is the sentinel's
// three bytes: a character of the same length, so every offset holds, and
// one no class holds unless it held U+FFFD. Data that holds a U+FFFE of its
// own gets another sentinel, the first noncharacter it does not hold
// (U+FFFF, U+FDD0 ... U+FDEF), and a Matcher compiled for it when first
// needed. Only data holding all 34 of them beside a U+FFFD is searched as
// is, missing that U+FFFD.

// sentinelRunes are the sentinels in the order they are tried: the
// noncharacters whose UTF-8 is three bytes long, as U+FFFD's is (U+FFFE,
// U+FFFF, U+FDD0 ... U+FDEF).
var sentinelRunes = [...]rune{
	0xFFFE, 0xFFFF, 0xFDD0, 0xFDD1, 0xFDD2, 0xFDD3, 0xFDD4, 0xFDD5, 0xFDD6,
	0xFDD7, 0xFDD8, 0xFDD9, 0xFDDA, 0xFDDB, 0xFDDC, 0xFDDD, 0xFDDE, 0xFDDF,
	0xFDE0, 0xFDE1, 0xFDE2, 0xFDE3, 0xFDE4, 0xFDE5, 0xFDE6, 0xFDE7, 0xFDE8,
	0xFDE9, 0xFDEA, 0xFDEB, 0xFDEC, 0xFDED, 0xFDEE, 0xFDEF,
}

var encodedFFFD = []byte("\uFFFD")

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

// toSentinel rewrites re in place for data in which the sentinel s stands
// for a genuine U+FFFD and U+FFFD for an invalid byte: a class holds s
// exactly when it held U+FFFD, and U+FFFD never; a literal U+FFFD is s,
// and a literal s (which such data never holds) matches nothing. '.' is
// left to rewriteForRg, which makes it a class without U+FFFD (and with
// s). A node met twice (Simplify shares a repeated one: x{2} is xx of one
// node) is rewritten once.
func toSentinel(re *syntax.Regexp, s rune) {
	sentinelNodes(re, s, map[*syntax.Regexp]bool{})
}

func sentinelNodes(re *syntax.Regexp, s rune, done map[*syntax.Regexp]bool) {
	if done[re] {
		return
	}
	done[re] = true
	switch re.Op {
	case syntax.OpCharClass:
		had := runeclass.Has(re.Rune, utf8.RuneError)
		cls := runeclass.Without(runeclass.Without(re.Rune, utf8.RuneError), s)
		if had {
			cls = runeclass.With(cls, s)
		}
		setClass(re, cls)
	case syntax.OpLiteral:
		for i, r := range re.Rune {
			switch r {
			case utf8.RuneError:
				re.Rune[i] = s
			case s:
				*re = syntax.Regexp{Op: syntax.OpNoMatch}
				return
			}
		}
	}
	for _, sub := range re.Sub {
		sentinelNodes(sub, s, done)
	}
}

// withSentinel returns the Matcher to run on b, and b as that Matcher
// reads it: m and b, unless b holds a genuine U+FFFD that m's classes
// would miss (see sentinelRunes); then a sentinel Matcher and a copy of b.
func (m *Matcher) withSentinel(b []byte) (*Matcher, []byte) {
	if m.sentinel == nil || !bytes.Contains(b, encodedFFFD) {
		return m, b
	}
	s := m.sentinel
	if enc := s.sentinelUTF8(); bytes.Contains(b, enc[:]) {
		if s = m.spareSentinel(b); s == nil {
			return m, b
		}
	}
	enc := s.sentinelUTF8()
	return s, bytes.ReplaceAll(b, encodedFFFD, enc[:])
}

// sentinelUTF8 is the UTF-8 of the sentinel this Matcher was compiled for
// (a value: the per-line callers allocate nothing).
func (m *Matcher) sentinelUTF8() (enc [3]byte) {
	utf8.EncodeRune(enc[:], m.opts.sentinel)
	return enc
}

// spareSentinel is a Matcher for the first sentinel b does not hold after
// U+FFFE, compiled the first time one is needed; nil if b holds them all.
func (m *Matcher) spareSentinel(b []byte) *Matcher {
	for _, r := range sentinelRunes[1:] {
		var enc [3]byte
		if utf8.EncodeRune(enc[:], r); bytes.Contains(b, enc[:]) {
			continue
		}
		m.spares.mu.Lock()
		defer m.spares.mu.Unlock()
		if s, ok := m.spares.by[r]; ok {
			return s
		}
		o := m.opts
		o.sentinel = r
		s, _ := Compile(o) // (it compiled with U+FFFE; nil keeps the old answer)
		if m.spares.by == nil {
			m.spares.by = map[rune]*Matcher{}
		}
		m.spares.by[r] = s
		return s
	}
	return nil
}

// spareSentinels are a Matcher's Matchers for the sentinels after U+FFFE.
type spareSentinels struct {
	mu sync.Mutex
	by map[rune]*Matcher
}

// fromSentinel is a line's text, found by this sentinel Matcher, as the
// data had it (U+FFFD again).
func (m *Matcher) fromSentinel(text []byte) []byte {
	enc := m.sentinelUTF8()
	if !bytes.Contains(text, enc[:]) {
		return text
	}
	return bytes.ReplaceAll(text, enc[:], encodedFFFD)
}
