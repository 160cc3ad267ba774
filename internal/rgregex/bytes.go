package rgregex

import (
	"errors"
	"regexp/syntax"
	"slices"
	"unicode"
	"unicode/utf8"
)

// Under (?-u) (rg --no-unicode) rg's regex matches bytes, not characters:
// '.', a negated class (\W, \S, [^a]) and \x80-\xFF each match one byte of
// any value, also one in the middle of a UTF-8 sequence or an invalid one.
// The tree stands for such a byte with a byte rune: ByteRune(b) for b of
// 0x80-0xFF (an ASCII byte is its own rune). A tree that holds one (see
// MatchesBytes) only has rg's meaning on a matcher that reads the text one
// byte at a time, each byte of 0x80-0xFF as its byte rune.

// byteBase is the base of the byte runes: 0x110080-0x1100FF, past the
// last Unicode character, so that no class of characters (a Unicode [^a],
// which ends at U+10FFFF) holds one and no text's character is one.
const byteBase = 0x110000

// ByteRune is the rune that stands for byte b in a tree.
func ByteRune(b byte) rune {
	if b < 0x80 {
		return rune(b)
	}
	return byteBase + rune(b)
}

// IsByteRune reports whether r stands for a byte of 0x80-0xFF.
func IsByteRune(r rune) bool { return byteBase+0x80 <= r && r <= byteBase+0xFF }

// anyByte is every byte as the tree names it.
var anyByte = ranges{0, 0x7F, byteBase + 0x80, byteBase + 0xFF}

// negateBytes is the complement of a (?-u) class among the bytes.
func negateBytes(a ranges) ranges {
	out := ranges{}
	for i := 0; i+1 < len(anyByte); i += 2 {
		next := anyByte[i]
		for j := 0; j+1 < len(a); j += 2 {
			lo, hi := max(a[j], anyByte[i]), min(a[j+1], anyByte[i+1])
			if lo > hi {
				continue
			}
			if lo > next {
				out = append(out, next, lo-1)
			}
			next = hi + 1
		}
		if next <= anyByte[i+1] {
			out = append(out, next, anyByte[i+1])
		}
	}
	return out
}

// MatchesBytes reports whether re holds a byte rune: it must run on a
// matcher that reads one byte at a time (see ByteRune).
func MatchesBytes(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral:
		if slices.ContainsFunc(re.Rune, IsByteRune) {
			return true
		}
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i+1] >= byteBase+0x80 && re.Rune[i] <= byteBase+0xFF {
				return true
			}
		}
	}
	return slices.ContainsFunc(re.Sub, MatchesBytes)
}

// liftToBytes respells a tree that matches bytes (MatchesBytes) for the
// byte-reading VM: a character of 0x80 or more in a literal becomes its
// UTF-8 bytes, and a case-folded one the alternatives of its case
// variants' bytes. A class of characters beyond ASCII has no such
// spelling here and is refused.
func liftToBytes(re *syntax.Regexp) error {
	switch re.Op {
	case syntax.OpLiteral:
		if _, ok := AssertionOf(re); ok {
			return nil
		}
		liftLiteral(re)
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			if hi >= utf8.RuneSelf && !(IsByteRune(lo) && IsByteRune(hi)) {
				return errors.New("a class of Unicode characters in a pattern that also matches single bytes ((?-u) '.', a negated class or \\x80-\\xFF) is not supported")
			}
		}
	}
	for _, sub := range re.Sub {
		if err := liftToBytes(sub); err != nil {
			return err
		}
	}
	return nil
}

// liftLiteral is liftToBytes for a literal.
func liftLiteral(re *syntax.Regexp) {
	fold := re.Flags&syntax.FoldCase != 0
	var pieces []*syntax.Regexp // when a folded character needs alternatives
	var run []rune
	flush := func() {
		if len(run) > 0 {
			pieces = append(pieces, &syntax.Regexp{Op: syntax.OpLiteral, Rune: run, Flags: re.Flags})
			run = nil
		}
	}
	for _, r := range re.Rune {
		if fold && foldsBeyondASCII(r) {
			// "é" is "é" or "É", "k" is also the Kelvin sign: each
			// variant's bytes
			flush()
			alt := &syntax.Regexp{Op: syntax.OpAlternate}
			for f := r; ; {
				alt.Sub = append(alt.Sub, &syntax.Regexp{Op: syntax.OpLiteral, Rune: runeBytes(f)})
				if f = unicode.SimpleFold(f); f == r {
					break
				}
			}
			pieces = append(pieces, alt)
			continue
		}
		run = append(run, runeBytes(r)...)
	}
	if pieces == nil {
		re.Rune = run
		return
	}
	flush()
	*re = syntax.Regexp{Op: syntax.OpConcat, Sub: pieces}
}

// runeBytes is r as the byte runes of its UTF-8 bytes (r itself when it is
// ASCII, a byte rune or an assertion placeholder).
func runeBytes(r rune) []rune {
	if r < utf8.RuneSelf || IsByteRune(r) || r >= assertBase {
		return []rune{r}
	}
	var out []rune
	for _, b := range []byte(string(r)) {
		out = append(out, ByteRune(b))
	}
	return out
}

// foldsBeyondASCII reports whether a case variant of r (r included) is
// beyond ASCII.
func foldsBeyondASCII(r rune) bool {
	if IsByteRune(r) || r >= assertBase {
		return false
	}
	for f := r; ; {
		if f >= utf8.RuneSelf {
			return true
		}
		if f = unicode.SimpleFold(f); f == r {
			return false
		}
	}
}
