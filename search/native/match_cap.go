package native

import "bytes"

// Submatches of one line are stored up to MaxSubmatches and counted past
// that: a 50 MB line of "A" searched for "A" has 50 million matches, and
// storing their spans cost gigabytes (issue 11, item 1).

// lineSpansCapped appends the spans of the line data[ls:le] as rg reports
// them, seeing the text before it (see textVM). It stores only the spans
// keep accepts (keep counts those it refuses) and looks at no more than
// MaxSubmatches+1 matches; overflow reports that it stopped there, so more
// may exist.
func (m *Matcher) lineSpansCapped(data []byte, ls, le int, dst [][2]int, keep func(start int) bool) (out [][2]int, overflow bool) {
	b, from := data[ls:le], 0
	if m.lit != nil {
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
	v := m.vm
	if m.textVM != nil && ls > 0 {
		b, from, v = data[ls-1:le], 1, m.textVM
	} else if m.re != nil || (m.asciiRe != nil && isASCII(b)) {
		re := m.re
		if re == nil {
			re = m.asciiRe
		}
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
	overflow = v.eachMatch(b, from, func(s, e int) bool {
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

// countLineMatches counts the matches of the line data[ls:le] as
// lineSpansCapped finds them, storing none.
func (m *Matcher) countLineMatches(data []byte, ls, le int) int {
	b, from := data[ls:le], 0
	if m.lit != nil {
		return bytes.Count(b, m.lit)
	}
	v := m.vm
	if m.textVM != nil && ls > 0 {
		b, from, v = data[ls-1:le], 1, m.textVM
	} else if m.re != nil || (m.asciiRe != nil && isASCII(b)) {
		re := m.re
		if re == nil {
			re = m.asciiRe
		}
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
	prevEnd := -1
	for pos := from; pos <= len(b); {
		s, e, ok := v.find(b, pos, false)
		if !ok {
			break
		}
		accept := true
		if e == s {
			if s == prevEnd {
				accept = false
			}
			if _, w := decodeAt(b, e); w > 0 {
				pos = e + w
			} else {
				pos = e + 1
			}
		} else {
			pos = e
		}
		prevEnd = e
		if accept && !fn(s, e) {
			return true
		}
	}
	return false
}
