package native

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"unicode/utf8"

	"github.com/rgkit/rgkit/internal/rgregex"
)

// splitCheck confirms a candidate line without running the whole regexp
// from every start position. When the pattern is a concatenation
// prefix·L·suffix around the literal L the prefilter found, a line matches
// exactly when, at some occurrence of L, the suffix matches right after it
// (anchored: usually rejected at the first byte) and the prefix matches
// right before it. Go's backtracker would otherwise try each start of the
// line in turn, which made `\w+\d\s*=\s*\d` 5x slower than rg.
type splitCheck struct {
	f finder
	// prefix is the reversed prefix, anchored: `\A(?:reverse(prefix))`,
	// run on the runes before L in reverse order. Anchored, it tries one
	// start instead of every start of the line. nil when L starts the pattern.
	prefix   *regexp.Regexp
	suffix   *regexp.Regexp // `\A(?:suffix)`, nil when L ends it
	litBytes int
	// prefixDFA and suffixDFA are the same two checks as anchored DFAs,
	// which decide an ASCII piece in a table lookup per byte and stop at
	// the first byte no match can take (usually the first): Go's regexp
	// costs a call's setup per candidate, which made the check slower than
	// running the line DFA over the whole line. The regexps decide what the
	// DFAs cannot (a byte >= 0x80, a full state cache).
	prefixDFA, suffixDFA *lineDFA
}

// splitScratch is one search's state for a splitCheck.
type splitScratch struct {
	rev      []byte    // reversed line prefixes, for the regexp
	pre, suf *dfaCache // from the DFAs' pools
}

func (sc *splitCheck) release(s *splitScratch) {
	if s.pre != nil {
		sc.prefixDFA.put(s.pre)
	}
	if s.suf != nil {
		sc.suffixDFA.put(s.suf)
	}
	s.pre, s.suf = nil, nil
}

// buildSplit returns a splitCheck for tree when its top level is a
// concatenation holding the prefilter's single literal and no assertion
// that would see the split points as line edges.
func buildSplit(tree *syntax.Regexp, p *prefilter) *splitCheck {
	if p == nil || len(p.finders) != 1 || tree.Op != syntax.OpConcat {
		return nil
	}
	f := p.finders[0]
	for k, sub := range tree.Sub {
		if sub.Op != syntax.OpLiteral {
			continue
		}
		l, ok := literalOf(sub)
		if !ok || l.s != f.lit || l.fold != f.fold {
			continue
		}
		for _, other := range tree.Sub {
			if hasAssertion(other) {
				return nil
			}
		}
		sc := &splitCheck{f: f, litBytes: len(f.lit)}
		var err error
		if k > 0 {
			pre := reverseTree(&syntax.Regexp{Op: syntax.OpConcat, Sub: tree.Sub[:k]})
			if sc.prefix, err = compileGo(`\A`, pre); err != nil {
				return nil
			}
			if sc.prefixDFA, err = anchoredDFA(pre); err != nil {
				return nil
			}
		}
		if k < len(tree.Sub)-1 {
			suf := &syntax.Regexp{Op: syntax.OpConcat, Sub: tree.Sub[k+1:]}
			if sc.suffix, err = compileGo(`\A`, suf); err != nil {
				return nil
			}
			if sc.suffixDFA, err = anchoredDFA(suf); err != nil {
				return nil
			}
		}
		return sc
	}
	return nil
}

// anchoredDFA compiles re, as regexp.Compile would, for an anchored DFA.
func anchoredDFA(re *syntax.Regexp) (*lineDFA, error) {
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return nil, err
	}
	return newAnchoredDFA(prog), nil
}

func hasAssertion(re *syntax.Regexp) bool {
	if _, ok := rgregex.AssertionOf(re); ok {
		return true
	}
	switch re.Op {
	case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return true
	}
	for _, sub := range re.Sub {
		if hasAssertion(sub) {
			return true
		}
	}
	return false
}

// maxSplitTries bounds the occurrences tried in one line: each try scans
// the prefix again, so a long line full of the literal (a data table) would
// cost quadratic time; the caller then runs the whole regexp once.
const maxSplitTries = 8

// match reports whether line matches, given the first occurrence of the
// literal in it at first. decided is false when the line has too many
// occurrences to check this way.
func (sc *splitCheck) match(line []byte, first int, s *splitScratch) (matched, decided bool) {
	tries := 0
	for p := first; p >= 0; p = sc.f.index(line, p+1) {
		if tries++; tries > maxSplitTries {
			return false, false
		}
		if sc.suffix != nil && !sc.suffixMatches(line[p+sc.litBytes:], s) {
			continue
		}
		if sc.prefix != nil && !sc.prefixMatches(line[:p], s) {
			continue
		}
		return true, true
	}
	return false, true
}

// splitQuickRead bounds the bytes each side's DFA reads in quickMatch: an
// occurrence that needs more is left to match, on its whole line, so a
// line along which the literal repeats costs a bounded read per
// occurrence before it is decided at once.
const splitQuickRead = 64

// quickMatch decides whether a match holds the occurrence of the literal
// at c in data, without locating its line: the suffix's DFA reads forwards
// from after it and the reversed prefix's backwards from before it, each
// stopping at the first byte no match can take (a '\n' at the latest: no
// piece of a line-mode pattern matches it, and none holds an assertion
// that would see the line's edge). decided is false when a side needs
// more than splitQuickRead bytes or the regexp.
func (sc *splitCheck) quickMatch(data []byte, c int, s *splitScratch) (matched, decided bool) {
	if sc.suffix != nil {
		if s.suf == nil {
			s.suf = sc.suffixDFA.get()
		}
		ok, decided := s.suf.matchAnchoredAt(data, c+sc.litBytes, false, splitQuickRead)
		if !decided || !ok {
			return false, decided
		}
	}
	if sc.prefix != nil {
		if s.pre == nil {
			s.pre = sc.prefixDFA.get()
		}
		return s.pre.matchAnchoredAt(data, c, true, splitQuickRead)
	}
	return true, true
}

// suffixMatches reports whether the suffix matches at the start of after.
func (sc *splitCheck) suffixMatches(after []byte, s *splitScratch) bool {
	if s.suf == nil {
		s.suf = sc.suffixDFA.get()
	}
	if ok, decided := s.suf.matchAnchored(after, false); decided {
		return ok
	}
	return sc.suffix.Match(after)
}

// prefixMatches reports whether the prefix matches ending at the end of
// before (the reversed prefix, read backwards from there).
func (sc *splitCheck) prefixMatches(before []byte, s *splitScratch) bool {
	if s.pre == nil {
		s.pre = sc.prefixDFA.get()
	}
	if ok, decided := s.pre.matchAnchored(before, true); decided {
		return ok
	}
	return sc.prefix.Match(reverseRunes(before, &s.rev))
}

// reverseTree returns a copy of re that matches the reversed strings
// (rune order) of re; re holds no assertion.
func reverseTree(re *syntax.Regexp) *syntax.Regexp {
	out := *re
	out.Sub = make([]*syntax.Regexp, len(re.Sub))
	for i, sub := range re.Sub {
		out.Sub[i] = reverseTree(sub)
	}
	switch re.Op {
	case syntax.OpConcat:
		slices.Reverse(out.Sub)
	case syntax.OpLiteral:
		out.Rune = slices.Clone(re.Rune)
		slices.Reverse(out.Rune)
	}
	return &out
}

// reverseRunes writes b's runes in reverse order into *scratch, keeping
// each rune's bytes (an invalid byte stays one invalid byte).
func reverseRunes(b []byte, scratch *[]byte) []byte {
	out := (*scratch)[:0]
	if cap(out) < len(b) {
		out = make([]byte, 0, len(b)*2)
	}
	out = out[:len(b)]
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			out[len(b)-1-i] = b[i]
			i++
			continue
		}
		_, n := utf8.DecodeRune(b[i:])
		copy(out[len(b)-i-n:], b[i:i+n])
		i += n
	}
	*scratch = out
	return out
}

// wholeLineLiteral is L when tree is (?m:^)L(?m:$) for a case-sensitive
// literal L that p's one finder scans for, else "".
func wholeLineLiteral(tree *syntax.Regexp, p *prefilter) string {
	if p == nil || len(p.finders) != 1 || p.finders[0].fold || tree.Op != syntax.OpConcat || len(tree.Sub) != 3 ||
		tree.Sub[0].Op != syntax.OpBeginLine || tree.Sub[1].Op != syntax.OpLiteral || tree.Sub[2].Op != syntax.OpEndLine {
		return ""
	}
	l, ok := literalOf(tree.Sub[1])
	if !ok || l.fold || l.s != p.finders[0].lit {
		return ""
	}
	return l.s
}
