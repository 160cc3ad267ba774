package native

import (
	"bytes"
	"regexp"
	"regexp/syntax"
)

// runSpans finds a line's matches for a pattern that is a run of one class
// followed by a literal, C+L… (`\w+Error`, `\w+_\d+`, `[a-z]*Test\(`),
// without Go's unanchored search, which tries every start of the line in
// turn (its backtracker's cost was most of `-o \w+Error`'s search).
//
// Every match holds the literal right after its run, so the matches of
// b[p:] come from the occurrences of the literal: at the first one, q, the
// run reaching back from q to its first byte, s (not before p), is where the
// leftmost match starts if any match starts at or before q — a match
// starting earlier would need the class to cover the byte before s, and a
// later occurrence's match starting in [s, q] would have the whole run
// before it, so one starts at s too. The anchored regexp at s then gives
// the match Go's leftmost-first search gives there; with none, no match
// starts at or before q, and the next occurrence is tried from q+1.
//
// Only lines of ASCII bytes are read this way (the class is tested per
// byte); the caller runs the regexp on the others.
type runSpans struct {
	class    [128]bool
	lit      []byte
	anchored *regexp.Regexp // `\A(?:pattern)`
}

// buildRunSpans returns a runSpans for tree when it is a concatenation
// starting with a class repeated without an upper bound and then the
// prefilter's one case-sensitive literal, and holds no assertion; else nil.
func buildRunSpans(tree *syntax.Regexp, p *prefilter) *runSpans {
	if p == nil || len(p.finders) != 1 || p.finders[0].fold || tree.Op != syntax.OpConcat || len(tree.Sub) < 2 || hasAssertion(tree) {
		return nil
	}
	run, lit := tree.Sub[0], tree.Sub[1]
	switch {
	case run.Op == syntax.OpPlus, run.Op == syntax.OpStar, run.Op == syntax.OpRepeat && run.Max == -1:
	default:
		return nil
	}
	l, ok := literalOf(lit)
	if !ok || l.fold || l.s != p.finders[0].lit || l.s == "" {
		return nil
	}
	r := &runSpans{lit: p.finders[0].litB}
	switch c := run.Sub[0]; c.Op {
	case syntax.OpAnyChar:
		for b := range r.class {
			r.class[b] = true
		}
	case syntax.OpAnyCharNotNL:
		for b := range r.class {
			r.class[b] = b != '\n'
		}
	case syntax.OpCharClass:
		for i := 0; i+1 < len(c.Rune); i += 2 {
			for x := c.Rune[i]; x <= c.Rune[i+1] && x < 128; x++ {
				r.class[x] = true
			}
		}
	default:
		return nil
	}
	var err error
	if r.anchored, err = compileGo(`\A`, tree); err != nil {
		return nil
	}
	return r
}

// each calls fn with each match of the ASCII line b, as FindAllIndex
// finds them, until fn returns false; stopped reports that it did.
func (r *runSpans) each(b []byte, fn func(s, e int) bool) (stopped bool) {
	for p := 0; p < len(b); {
		i := bytes.Index(b[p:], r.lit)
		if i < 0 {
			return false
		}
		q := p + i
		s := q
		for s > p && r.class[b[s-1]] {
			s--
		}
		loc := r.anchored.FindIndex(b[s:])
		if loc == nil {
			p = q + 1
			continue
		}
		e := s + loc[1]
		if !fn(s, e) {
			return true
		}
		p = e
	}
	return false
}
