package native

import (
	"bytes"
	"regexp"
)

// Submatches of one line are stored up to MaxSubmatches and counted past
// that: a 50 MB line of "A" searched for "A" has 50 million matches, and
// storing their spans cost gigabytes (issue 11, item 1).

// lineSpansCapped appends the spans of the line data[ls:le] as rg reports
// them, seeing the text before it (see textVM). It stores only the spans
// keep accepts (keep counts those it refuses) and looks at no more than
// MaxSubmatches+1 matches; overflow reports that it stopped there, so more
// may exist.
func (m *Matcher) lineSpansCapped(data []byte, ls, le int, dst [][2]int, keep func(start int) bool) (out [][2]int, overflow bool) {
	if m.lit != nil {
		b := data[ls:le]
		n := 0
		for at := 0; ; {
			i := bytes.Index(b[at:], m.lit)
			if i < 0 {
				return dst, false
			}
			if n++; n > MaxSubmatches {
				return dst, true
			}
			s := at + i
			if keep(s) {
				dst = append(dst, [2]int{s, s + len(m.lit)})
			}
			at = s + len(m.lit)
		}
	}
	return m.lineSpansFound(data, ls, le, dst, keep)
}

// lineSpansFound is lineSpansCapped for a pattern that is not a literal
// (apart, so that the literal's loop moves nothing to the heap).
func (m *Matcher) lineSpansFound(data []byte, ls, le int, dst [][2]int, keep func(start int) bool) (out [][2]int, overflow bool) {
	b, from, v, re := m.lineEngine(data, ls, le)
	each := func(fn func(s, e int) bool) bool { return v.eachMatch(b, from, fn) }
	if m.midEmpty {
		each, re = midCharEach(b, from, engineEach(b, from, v, re)), nil
	}
	if r := m.runsFor(re, b); r != nil {
		each, re = func(fn func(s, e int) bool) bool { return r.each(b, fn) }, nil // (from is 0 with re)
	}
	if re != nil {
		for i, loc := range re.FindAllIndex(b, MaxSubmatches+1) {
			if i == MaxSubmatches {
				return dst, true
			}
			if keep(loc[0]) {
				dst = append(dst, [2]int{loc[0], loc[1]})
			}
		}
		return dst, false
	}
	n := 0
	overflow = each(func(s, e int) bool {
		if n++; n > MaxSubmatches {
			return false
		}
		if keep(s - from) {
			dst = append(dst, [2]int{s - from, e - from})
		}
		return true
	})
	return dst, overflow
}

// runsFor is the class-run span finder for the ASCII line b when re, the
// regexp chosen for it, is the pattern's own (not the text VM's or the
// ASCII stand-in's); nil otherwise.
func (m *Matcher) runsFor(re *regexp.Regexp, b []byte) *runSpans {
	if m.runs == nil || re == nil || re != m.re || !isASCII(b) {
		return nil
	}
	return m.runs
}

// lineEngine chooses how the line data[ls:le] is searched: with a Go
// regexp (re set) when one answers for it, else with a Pike VM v over b
// from from (the text VM sees the byte before the line).
func (m *Matcher) lineEngine(data []byte, ls, le int) (b []byte, from int, v *pikeVM, re *regexp.Regexp) {
	b, v = data[ls:le], m.vm
	switch {
	case m.textVM != nil && ls > 0:
		return data[ls-1 : le], 1, m.textVM, nil
	case m.re != nil:
		return b, 0, v, m.re
	case m.asciiRe != nil && isASCII(b):
		return b, 0, v, m.asciiRe
	}
	return b, 0, v, nil
}

// countLineMatches counts the matches of the line data[ls:le] as
// lineSpansCapped finds them, storing none.
func (m *Matcher) countLineMatches(data []byte, ls, le int) int {
	if m.lit != nil {
		return bytes.Count(data[ls:le], m.lit)
	}
	b, from, v, re := m.lineEngine(data, ls, le)
	if m.midEmpty {
		n := 0
		midCharEach(b, from, engineEach(b, from, v, re))(func(int, int) bool { n++; return true })
		return n
	}
	if r := m.runsFor(re, b); r != nil {
		n := 0
		r.each(b, func(int, int) bool { n++; return true })
		return n
	}
	if re != nil {
		// ReplaceAllFunc walks every match with one reused buffer, where
		// FindAllIndex allocates each.
		n := 0
		re.ReplaceAllFunc(b, func([]byte) []byte { n++; return nil })
		return n
	}
	n := 0
	v.eachMatch(b, from, func(int, int) bool { n++; return true })
	return n
}

// eachMatch calls fn with each match of b from from on, as findAll finds
// them, until fn returns false; stopped reports that it did.
func (v *pikeVM) eachMatch(b []byte, from int, fn func(s, e int) bool) (stopped bool) {
	if v.px != nil {
		return v.px.eachMatch(b, from, fn)
	}
	prevEnd := -1
	for pos := from; pos <= len(b); {
		s, e, ok := v.find(b, pos, false)
		if !ok {
			break
		}
		var accept bool
		pos, accept = advanceMatch(b, s, e, prevEnd)
		if v.bytes && s == e {
			pos = e + 1 // (a byte on: an empty match may split a character)
		}
		prevEnd = e
		if accept && !fn(s, e) {
			return true
		}
	}
	return false
}

// EachSpan calls fn with each match of line, as Spans finds them, until
// fn returns false, storing none: for a caller that prints every match
// of a line with more of them than a Line stores (MaxSubmatches), such as
// rg's -o, whose memory stays that of the line.
func (m *Matcher) EachSpan(line []byte, fn func(start, end int) bool) {
	m, line = m.withSentinel(line)
	if m.lit != nil {
		for at := 0; ; {
			i := bytes.Index(line[at:], m.lit)
			if i < 0 {
				return
			}
			s := at + i
			if !fn(s, s+len(m.lit)) {
				return
			}
			at = s + len(m.lit)
		}
	}
	re := m.re
	if re == nil && m.asciiRe != nil && isASCII(line) {
		re = m.asciiRe
	}
	if m.midEmpty {
		midCharEach(line, 0, engineEach(line, 0, m.vm, re))(fn)
		return
	}
	if re == nil {
		m.vm.eachMatch(line, 0, fn)
		return
	}
	if r := m.runsFor(re, line); r != nil {
		r.each(line, fn)
		return
	}
	// The Go regexp answers only patterns without assertions (see
	// Compile), so a search resumed at an offset finds what one pass
	// would: FindAllIndex's rules, without its slice of every match.
	prevEnd := -1
	for pos := 0; pos <= len(line); {
		loc := re.FindIndex(line[pos:])
		if loc == nil {
			return
		}
		s, e := pos+loc[0], pos+loc[1]
		var accept bool
		pos, accept = advanceMatch(line, s, e, prevEnd)
		prevEnd = e
		if accept && !fn(s, e) {
			return
		}
	}
}

// advanceMatch is FindAllIndex's rule after the match [s, e) of b: the
// next search starts at e, or a character past it when the match is
// empty, and an empty match right after the previous match (which ended
// at prevEnd) is not reported.
func advanceMatch(b []byte, s, e, prevEnd int) (next int, accept bool) {
	if e != s {
		return e, true
	}
	if _, w := decodeAt(b, e); w > 0 {
		return e + w, s != prevEnd
	}
	return e + 1, s != prevEnd
}
