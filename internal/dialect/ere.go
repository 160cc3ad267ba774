package dialect

import (
	"strings"
	"unicode/utf8"
)

// classERE writes a class for a byte-oriented ERE (LC_ALL=C): the ASCII
// members as one bracket expression, each non-ASCII range as UTF-8 byte
// sequences, all as alternatives. NUL and '\n' are left out: searched text
// never contains either (a NUL makes a file binary; lines end at '\n').
func (e *emitter) classERE(ranges []rune) error {
	var ascii [128]bool
	var alts []string
	for i := 0; i < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		for r := lo; r <= min(hi, 0x7F); r++ {
			ascii[r] = true
		}
		if hi >= 0x80 {
			for _, sr := range splitSurrogates(max(lo, 0x80), hi) {
				for _, seq := range utf8Sequences(sr[0], sr[1]) {
					alts = append(alts, seq.ere())
				}
			}
		}
	}
	ascii[0], ascii['\n'] = false, false
	if b := bracketERE(ascii); b != "" {
		alts = append([]string{b}, alts...)
	}
	switch len(alts) {
	case 0:
		e.noMatch()
	case 1:
		if ranges[len(ranges)-1] < utf8.RuneSelf {
			e.b.WriteString(alts[0]) // one ASCII bracket or character: an atom
			break
		}
		fallthrough
	default:
		e.b.WriteString("(" + strings.Join(alts, "|") + ")")
	}
	return nil
}

// bracketERE writes a POSIX bracket expression for a set of ASCII bytes:
// ']' first, '^' not first, '[' and '-' last, so none is read as syntax.
func bracketERE(set [128]bool) string {
	n := 0
	var only byte
	for i, in := range set {
		if in {
			n++
			only = byte(i)
		}
	}
	switch {
	case n == 0:
		return ""
	case n == 1 && strings.IndexByte(`.[]()*+?{}|^$\`, only) >= 0:
		return `\` + string(only)
	case n == 1:
		return string(only)
	}
	var b strings.Builder
	b.WriteByte('[')
	if set[']'] {
		b.WriteByte(']')
	}
	special := func(c int) bool { return c == ']' || c == '^' || c == '[' || c == '-' }
	for c := 1; c < 128; c++ {
		if !set[c] || special(c) {
			continue
		}
		end := c
		for end+1 < 128 && set[end+1] && !special(end+1) {
			end++
		}
		b.WriteByte(byte(c))
		if end > c+1 {
			b.WriteByte('-')
		}
		if end > c {
			b.WriteByte(byte(end))
		}
		c = end
	}
	if set['^'] {
		if b.Len() == 1 {
			// '^' first would negate: put it after another member, or alone.
			if !set['['] && !set['-'] {
				return `\^`
			}
			if set['['] {
				b.WriteString("[^")
				set['['] = false
			} else {
				b.WriteString("-^")
				set['-'] = false
			}
		} else {
			b.WriteByte('^')
		}
	}
	if set['['] {
		b.WriteByte('[')
	}
	if set['-'] {
		b.WriteByte('-')
	}
	b.WriteByte(']')
	return b.String()
}

// byteRange is an inclusive range of byte values.
type byteRange struct{ lo, hi byte }

// utf8Seq is a sequence of byte ranges matching the UTF-8 encodings of a
// range of code points (as in Russ Cox's and the Rust regex crate's
// utf8-ranges).
type utf8Seq []byteRange

func (s utf8Seq) ere() string {
	var b strings.Builder
	for _, r := range s {
		if r.lo == r.hi {
			b.WriteByte(r.lo)
		} else {
			b.WriteByte('[')
			b.WriteByte(r.lo)
			b.WriteByte('-')
			b.WriteByte(r.hi)
			b.WriteByte(']')
		}
	}
	return b.String()
}

// utf8Sequences splits the code points lo..hi (no surrogates) into byte
// sequences, each a product of byte ranges.
func utf8Sequences(lo, hi rune) []utf8Seq {
	var out []utf8Seq
	var split func(lo, hi rune)
	split = func(lo, hi rune) {
		if lo > hi {
			return
		}
		// Same encoded length on both ends.
		for _, max := range []rune{0x7F, 0x7FF, 0xFFFF} {
			if lo <= max && hi > max {
				split(lo, max)
				split(max+1, hi)
				return
			}
		}
		if hi < utf8.RuneSelf {
			out = append(out, utf8Seq{{byte(lo), byte(hi)}})
			return
		}
		n := utf8.RuneLen(lo)
		for i := 1; i < n; i++ {
			m := rune(1)<<(6*i) - 1
			if lo&^m != hi&^m {
				if lo&m != 0 {
					split(lo, lo|m)
					split((lo|m)+1, hi)
					return
				}
				if hi&m != m {
					split(lo, (hi&^m)-1)
					split(hi&^m, hi)
					return
				}
			}
		}
		var a, z [utf8.UTFMax]byte
		utf8.EncodeRune(a[:], lo)
		utf8.EncodeRune(z[:], hi)
		seq := make(utf8Seq, n)
		for i := range n {
			seq[i] = byteRange{a[i], z[i]}
		}
		out = append(out, seq)
	}
	split(lo, hi)
	return out
}
