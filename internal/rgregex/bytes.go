package rgregex

import (
	"regexp/syntax"
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/rgkit/rgkit/internal/ucd"
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
// UTF-8 bytes, a case-folded one the alternatives of its case variants'
// bytes, and a class of characters beyond ASCII (Unicode's \w or '.' next
// to (?-u:\xFF)) the alternatives of its characters' UTF-8 byte sequences,
// as rg compiles it.
func liftToBytes(re *syntax.Regexp) {
	switch re.Op {
	case syntax.OpLiteral:
		if _, ok := AssertionOf(re); ok {
			return
		}
		liftLiteral(re)
	case syntax.OpCharClass:
		liftClass(re)
	case syntax.OpAnyChar:
		*re = syntax.Regexp{Op: syntax.OpCharClass, Rune: []rune{0, unicode.MaxRune}}
		liftClass(re)
	case syntax.OpAnyCharNotNL:
		*re = syntax.Regexp{Op: syntax.OpCharClass, Rune: []rune{0, '\n' - 1, '\n' + 1, unicode.MaxRune}}
		liftClass(re)
	}
	for _, sub := range re.Sub {
		liftToBytes(sub)
	}
}

// liftClass is liftToBytes for a class: its ASCII characters and single
// bytes stay a class, and each range of characters beyond ASCII becomes
// the UTF-8 sequences that encode it (surrogates have none).
func liftClass(re *syntax.Regexp) {
	var keep ranges
	var seqs []UTF8Seq
	for i := 0; i+1 < len(re.Rune); i += 2 {
		lo, hi := re.Rune[i], re.Rune[i+1]
		if IsByteRune(lo) || hi < utf8.RuneSelf {
			keep = append(keep, lo, hi)
			continue
		}
		if lo < utf8.RuneSelf {
			keep = append(keep, lo, utf8.RuneSelf-1)
			lo = utf8.RuneSelf
		}
		if hi > unicode.MaxRune {
			if hi >= byteBase+0x80 {
				keep = append(keep, max(lo, byteBase+0x80), hi)
			}
			hi = unicode.MaxRune
		}
		seqs = append(seqs, UTF8Sequences(lo, hi)...)
	}
	if seqs == nil {
		return
	}
	alts := seqTree(seqs)
	if len(keep) > 0 {
		alts = append([]*syntax.Regexp{{Op: syntax.OpCharClass, Rune: keep}}, alts...)
	}
	*re = *alternation(alts)
}

// seqTree spells byte sequences (in code point order, as UTF8Sequences
// gives them) as alternatives, those that share a leading byte range
// sharing one branch: a byte-reading VM then starts a thread per distinct
// leading range, not per sequence (Unicode's \w is some 700 sequences
// under 50-odd leading ranges). The sequences are prefix-free, so their
// order does not change what matches.
func seqTree(seqs []UTF8Seq) []*syntax.Regexp {
	var alts []*syntax.Regexp
	for i := 0; i < len(seqs); {
		j := i + 1
		for j < len(seqs) && seqs[j][0] == seqs[i][0] {
			j++
		}
		b := seqs[i][0]
		head := &syntax.Regexp{Op: syntax.OpCharClass, Rune: []rune{ByteRune(b.Lo), ByteRune(b.Hi)}}
		if len(seqs[i]) == 1 {
			alts = append(alts, head) // (a one-byte sequence shares its range with no other)
		} else {
			tails := make([]UTF8Seq, 0, j-i)
			for _, s := range seqs[i:j] {
				tails = append(tails, s[1:])
			}
			alts = append(alts, &syntax.Regexp{Op: syntax.OpConcat, Sub: []*syntax.Regexp{head, alternation(seqTree(tails))}})
		}
		i = j
	}
	return alts
}

// alternation is alts as one node.
func alternation(alts []*syntax.Regexp) *syntax.Regexp {
	if len(alts) == 1 {
		return alts[0]
	}
	return &syntax.Regexp{Op: syntax.OpAlternate, Sub: alts}
}

// ByteRange is the byte values Lo..Hi.
type ByteRange struct{ Lo, Hi byte }

// UTF8Seq is a sequence of byte ranges: the UTF-8 encodings of a run of
// characters, one byte range per byte.
type UTF8Seq []ByteRange

// UTF8Sequences splits the characters lo..hi into byte sequences that
// match their UTF-8 encodings and nothing else, as regex engines that read
// bytes compile a class: [0xE0][0xA0-0xBF][0x80-0xBF] is U+0800..U+0FFF.
// The surrogates U+D800..U+DFFF have no encoding and are left out.
func UTF8Sequences(lo, hi rune) []UTF8Seq {
	var out []UTF8Seq
	var split func(lo, hi rune)
	split = func(lo, hi rune) {
		if lo > hi {
			return
		}
		if lo < 0xD800 && hi > 0xDFFF {
			split(lo, 0xD7FF)
			split(0xE000, hi)
			return
		}
		if lo >= 0xD800 && hi <= 0xDFFF {
			return
		}
		if lo >= 0xD800 && lo <= 0xDFFF {
			lo = 0xE000
		}
		if hi >= 0xD800 && hi <= 0xDFFF {
			hi = 0xD7FF
		}
		// One encoded length per sequence.
		for _, max := range []rune{0x7F, 0x7FF, 0xFFFF} {
			if lo <= max && hi > max {
				split(lo, max)
				split(max+1, hi)
				return
			}
		}
		// Continuation bytes must cover whole blocks: split where a
		// trailing part of lo or hi is partial.
		n := utf8.RuneLen(lo)
		for i := 1; i < n; i++ {
			m := rune(1)<<(6*i) - 1
			if lo&^m != hi&^m {
				if lo&m != 0 {
					split(lo, lo|m)
					split(lo|m+1, hi)
					return
				}
				if hi&m != m {
					split(lo, hi&^m-1)
					split(hi&^m, hi)
					return
				}
			}
		}
		a, z := []byte(string(lo)), []byte(string(hi))
		seq := make(UTF8Seq, len(a))
		for i := range a {
			seq[i] = ByteRange{a[i], z[i]}
		}
		out = append(out, seq)
	}
	split(lo, hi)
	return out
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
				if f = ucd.SimpleFold(f); f == r {
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
		if f = ucd.SimpleFold(f); f == r {
			return false
		}
	}
}
