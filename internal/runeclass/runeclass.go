// Package runeclass works on regexp/syntax character classes: sorted lists
// of inclusive rune ranges [lo0, hi0, lo1, hi1, ...]. Both the native
// matcher and the dialect translator rewrite classes (no '\n' in line mode,
// no U+FFFD for an invalid byte), and they must agree exactly.
package runeclass

// RgNonWord is rg's \W in its -w wrapper. rg builds that wrapper in
// Unicode mode, so a word character is a letter, mark, decimal digit,
// connector punctuation or joiner (Unicode's \w), not Go's ASCII \w: with
// rg -w foo, "éfoo" has no match. The native matcher and the translator
// both spell -w with it.
const RgNonWord = `[^\p{L}\p{Nl}\p{M}\p{Nd}\p{Pc}\x{200C}\x{200D}]`

// Without returns the range list cls without r.
func Without(cls []rune, r rune) []rune {
	out := make([]rune, 0, len(cls)+2)
	for i := 0; i+1 < len(cls); i += 2 {
		lo, hi := cls[i], cls[i+1]
		if r < lo || r > hi {
			out = append(out, lo, hi)
			continue
		}
		if lo < r {
			out = append(out, lo, r-1)
		}
		if r < hi {
			out = append(out, r+1, hi)
		}
	}
	return out
}

// Has reports whether r lies in one of cls's ranges.
func Has(cls []rune, r rune) bool {
	for i := 0; i+1 < len(cls); i += 2 {
		if cls[i] <= r && r <= cls[i+1] {
			return true
		}
	}
	return false
}

// Size is the number of runes cls holds.
func Size(cls []rune) int {
	n := 0
	for i := 0; i+1 < len(cls); i += 2 {
		n += int(cls[i+1]-cls[i]) + 1
	}
	return n
}

// With returns the range list cls with r added.
func With(cls []rune, r rune) []rune {
	if Has(cls, r) {
		return cls
	}
	in := make([]rune, 0, len(cls)+2)
	i := 0
	for ; i+1 < len(cls) && cls[i] < r; i += 2 {
		in = append(in, cls[i], cls[i+1])
	}
	in = append(in, r, r)
	in = append(in, cls[i:]...)
	out := make([]rune, 0, len(in))
	for j := 0; j+1 < len(in); j += 2 {
		if n := len(out); n > 0 && out[n-1]+1 >= in[j] {
			out[n-1] = max(out[n-1], in[j+1]) // adjacent: one range
			continue
		}
		out = append(out, in[j], in[j+1])
	}
	return out
}
