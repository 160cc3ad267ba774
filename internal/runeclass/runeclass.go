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
