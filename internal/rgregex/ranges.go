package rgregex

import (
	"slices"
	"sort"
	"unicode/utf8"

	"github.com/rgkit/rgkit/internal/ucd"
)

// ranges is a set of runes as sorted, non-overlapping, non-adjacent
// inclusive pairs [lo0, hi0, lo1, hi1, ...]: the form regexp/syntax uses
// for OpCharClass.
type ranges []rune

// canon sorts and merges a list of pairs.
func canon(r []rune) ranges {
	type pair struct{ lo, hi rune }
	ps := make([]pair, 0, len(r)/2)
	for i := 0; i+1 < len(r); i += 2 {
		ps = append(ps, pair{r[i], r[i+1]})
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].lo < ps[j].lo })
	out := make(ranges, 0, len(r))
	for _, p := range ps {
		if n := len(out); n > 0 && p.lo <= out[n-1]+1 {
			out[n-1] = max(out[n-1], p.hi)
			continue
		}
		out = append(out, p.lo, p.hi)
	}
	return out
}

func union(a, b ranges) ranges { return canon(append(slices.Clone(a), b...)) }

// negate is the complement within all Unicode scalar values. Surrogates are
// never matched (they cannot appear in UTF-8), so they are left out.
func negate(a ranges) ranges {
	out := ranges{}
	next := rune(0)
	for i := 0; i+1 < len(a); i += 2 {
		if a[i] > next {
			out = append(out, next, a[i]-1)
		}
		next = a[i+1] + 1
	}
	if next <= utf8.MaxRune {
		out = append(out, next, utf8.MaxRune)
	}
	return out
}

func intersect(a, b ranges) ranges {
	out := ranges{}
	i, j := 0, 0
	for i+1 < len(a) && j+1 < len(b) {
		lo, hi := max(a[i], b[j]), min(a[i+1], b[j+1])
		if lo <= hi {
			out = append(out, lo, hi)
		}
		if a[i+1] < b[j+1] {
			i += 2
		} else {
			j += 2
		}
	}
	return out
}

func difference(a, b ranges) ranges { return intersect(a, negate(b)) }

func symdiff(a, b ranges) ranges { return difference(union(a, b), intersect(a, b)) }

// foldable lists, sorted, every rune whose simple case folding orbit holds
// more than itself: the generated table (see computeFoldable), which took
// 2 ms to compute at the first case-insensitive Unicode class.
func foldable() []rune { return foldableTable }

// computeFoldable is foldable's list, computed from internal/ucd's folding.
func computeFoldable() []rune {
	var out []rune
	for r := rune(0); r < 0x20000; r++ { // no cased rune lies beyond U+1FFFF
		if ucd.SimpleFold(r) != r {
			out = append(out, r)
		}
	}
	return out
}

// foldUnicode closes a set under simple case folding, as rg does for a
// class under (?i) in Unicode mode: [k] also holds K and the Kelvin sign.
func foldUnicode(a ranges) ranges {
	f := foldable()
	out := slices.Clone([]rune(a))
	for i := 0; i+1 < len(a); i += 2 {
		k, _ := slices.BinarySearch(f, a[i])
		for ; k < len(f) && f[k] <= a[i+1]; k++ {
			for c := ucd.SimpleFold(f[k]); c != f[k]; c = ucd.SimpleFold(c) {
				out = append(out, c, c)
			}
		}
	}
	return canon(out)
}

// foldASCII closes a set under ASCII case folding only, as (?i) does in
// ASCII mode ((?-u)).
func foldASCII(a ranges) ranges {
	out := slices.Clone([]rune(a))
	for i := 0; i+1 < len(a); i += 2 {
		if lo, hi := max(a[i], 'a'), min(a[i+1], 'z'); lo <= hi {
			out = append(out, lo-32, hi-32)
		}
		if lo, hi := max(a[i], 'A'), min(a[i+1], 'Z'); lo <= hi {
			out = append(out, lo+32, hi+32)
		}
	}
	return canon(out)
}

func single(r rune) ranges { return ranges{r, r} }
