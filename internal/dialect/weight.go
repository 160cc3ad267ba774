package dialect

import (
	"fmt"
	"regexp/syntax"

	"github.com/rgkit/rgkit/search"
)

// MaxDFAWeight is the largest DFAWeight a pattern may have to be handed
// to grep or git grep in ERE: GNU grep's matcher grows with each copy of
// a class a counted repetition makes, and a Unicode class under LC_ALL=C
// is hundreds of byte sequences. Measured on 20,000 short lines: \w{20}
// (weight about 15,000) peaked at 573 MB, \w{50} at 1.5 GB, \w{100} at
// 2.9 GB, \w{5}\s+\w{5}\s+\w{5} at 358 MB; [a-z]{500} and a{1000} at 11 MB.
const MaxDFAWeight = 2000

// DFAWeight estimates how large a DFA-based ERE matcher grows for re (a
// ReferenceTree): a class costs one per range of code points beyond ASCII
// (each becomes byte sequences in the C locale), ASCII classes and
// literals one, and a counted repetition multiplies what it repeats by its
// larger bound. An estimate to decline patterns by, not a size.
func DFAWeight(re *syntax.Regexp) int {
	const ceiling = 1 << 30
	switch re.Op {
	case syntax.OpCharClass:
		n := 0
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i+1] > 0x7f {
				n++
			}
		}
		return max(n, 1)
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return 4
	case syntax.OpLiteral:
		return max(len(re.Rune), 1)
	case syntax.OpRepeat:
		times := max(re.Max, re.Min, 1)
		return min(DFAWeight(re.Sub[0])*times, ceiling)
	}
	w := 0
	for _, s := range re.Sub {
		w = min(w+DFAWeight(s), ceiling)
	}
	return max(w, 1)
}

// CheckDFAWeight declines q (ErrUnsupported, so a Chain moves on) when its
// pattern's DFAWeight passes MaxDFAWeight.
func CheckDFAWeight(q search.Query) error {
	re, err := ReferenceTree(q.Pattern, q.Fixed, q.Case == search.CaseInsensitive, false)
	if err != nil {
		return nil // Translate has said what is wrong with it
	}
	if w := DFAWeight(re); w > MaxDFAWeight {
		return fmt.Errorf("%w: a DFA matcher grows too large for this pattern in the C locale (weight %d, limit %d)", search.ErrUnsupported, w, MaxDFAWeight)
	}
	return nil
}
