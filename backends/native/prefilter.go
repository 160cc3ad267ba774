package native

import (
	"bytes"
	"regexp/syntax"
)

// prefilter finds the next place a match may start: an occurrence of one of
// the literals every match contains. Scanning uses bytes.IndexByte on each
// literal's rarest byte (SIMD in Go's runtime), so most of a file is skipped
// without running the regexp.
type prefilter struct {
	finders []finder
}

// finder scans for one literal.
type finder struct {
	lit    string // lower-cased when fold
	litB   []byte
	fold   bool
	rare   int  // offset of the scanned byte in lit
	lo, up byte // the scanned byte; up differs from lo only when folded
	// pair, when hasPair, scans two bytes of lit at once (prefilter_pair.go)
	// instead of stopping at every occurrence of the rare one.
	pair    pair
	hasPair bool
}

// newFinder scans for l by its rarest byte, and by a pair of bytes where the
// machine can.
func newFinder(l lit) finder {
	off, _ := rareByte(l)
	c := l.s[off]
	f := finder{lit: l.s, litB: []byte(l.s), fold: l.fold, rare: off, lo: c, up: c}
	if l.fold && 'a' <= c && c <= 'z' {
		f.up = c - 'a' + 'A'
	}
	f.pair, f.hasPair = newPair(l, off)
	return f
}

// buildPrefilter chooses the literal set to scan for. exact reports that a
// hit is a match on its own (the pattern is nothing but those literals).
func buildPrefilter(tree *syntax.Regexp) (*prefilter, bool) {
	in := analyze(tree)
	cands := [][]lit{}
	if r := requiredOf(in); r != nil {
		cands = append(cands, r)
	}
	if in.req != nil {
		cands = append(cands, in.req)
	}
	set := bestSet(cands)
	if set == nil {
		return nil, false
	}
	p := &prefilter{}
	for _, l := range set {
		p.finders = append(p.finders, newFinder(l))
	}
	exact := in.exact != nil && sameSet(in.exact, set) && isPureLiteral(tree)
	return p, exact
}

func sameSet(a, b []lit) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// scanner is one search's cursor over a prefilter: it remembers, for each
// literal, its next occurrence, so k literals cost k passes over the data,
// not k passes per hit.
type scanner struct {
	p    *prefilter
	data []byte
	next [maxChoice]int // next occurrence at or after the cursor; -1 = none left; -2 = unknown
	// all, when windowed, is the whole data, of which data is the part
	// scanned so far (see window).
	all    []byte
	win    int
	maxLen int
	// step is told where the scan has moved past, at each window; false
	// ends the scan (find returns -1): the search was cancelled.
	step func(int) bool
	// floor: no literal occurs before it (the search looked already, see
	// Matcher.firstCandidate), so no scan starts before it.
	floor int
	// hits remembers, for each folded literal, where each case of its
	// rare byte occurs next (see finder.indexFold).
	hits [maxChoice]foldHits
}

// foldHits is where each case of a folded literal's rare byte was found
// next (lower case first), each valid for a scan from at least its from:
// one case may be found far ahead of the other, and a search that goes on
// after each hit of the nearer would scan for the farther one again each
// time, which made `(?i)[a-z]*e[a-z]{14}x` 3x slower than rg.
type foldHits [2]struct {
	from, at int
	known    bool
}

// reset forgets what was found: the data changed (a window moved).
func (h *foldHits) reset() { h[0].known, h[1].known = false, false }

// window makes the scanner look at size bytes at a time, telling step
// where it has moved past, so a large mapped file is never paged in whole
// and a cancellation is seen within a window.
func (s *scanner) window(size int, step func(int) bool) {
	s.all, s.win, s.step = s.data, size, step
	s.maxLen = s.p.maxLen()
	s.data = s.all[:min(len(s.all), size)]
}

// maxLen is the length of the longest literal.
func (p *prefilter) maxLen() int {
	n := 0
	for _, f := range p.finders {
		n = max(n, len(f.lit))
	}
	return n
}

func (p *prefilter) scanner(data []byte) scanner {
	s := scanner{p: p, data: data}
	for i := range s.next {
		s.next[i] = -2
	}
	return s
}

// firstCandidate returns where the prefilter first finds one of its
// literals in data: no line before that one can match. -1 when it finds
// none, so no line can; 0 when there is no prefilter. With release set (a
// mapped file) it looks at one window at a time and releases each it has
// looked at, as the search itself does. An interrupted scan (interrupt,
// polled at each window, returns an error) reports 0: the search then
// stops on the interrupt.
func (m *Matcher) firstCandidate(data []byte, release func(int), interrupt func() error) int {
	if m.pre == nil {
		return 0
	}
	sc := m.pre.scanner(data)
	stopped := false
	if len(data) > 2*releaseWindow {
		sc.window(releaseWindow, func(pos int) bool {
			if release != nil {
				release(pos)
			}
			stopped = interrupt != nil && interrupt() != nil
			return !stopped
		})
	}
	if c := sc.find(0); c >= 0 || !stopped {
		return c
	}
	return 0
}

// find returns the start of the first literal occurrence at or after from,
// or -1.
func (s *scanner) find(from int) int {
	from = max(from, s.floor)
	if s.all != nil && from > len(s.data) {
		// The search went on past the window (to the end of a hit's line):
		// the window moves there, and what it knew of the old one is stale.
		s.data = s.all[:min(len(s.all), from+s.win)]
		s.forget()
	}
	for {
		best := -1
		for i := range s.p.finders {
			n := s.next[i]
			if n == -2 || (n >= 0 && n < from) {
				n = s.p.finders[i].indexWith(s.data, from, &s.hits[i])
				s.next[i] = n
			}
			if n >= 0 && (best < 0 || n < best) {
				best = n
			}
		}
		if len(s.data) == len(s.all) || s.all == nil {
			return best
		}
		// Windowed: an occurrence is sure to be the first only when none
		// can start before it and cross the window's end.
		safe := len(s.data) - s.maxLen + 1
		if best >= 0 && best < safe {
			return best
		}
		from = max(from, safe)
		if !s.step(from) {
			return -1
		}
		s.data = s.all[:min(len(s.all), len(s.data)+s.win)]
		s.forget()
	}
}

// forget drops what the scanner knew of its literals' next occurrences:
// the window moved.
func (s *scanner) forget() {
	for i := range s.next {
		s.next[i] = -2
		s.hits[i].reset()
	}
}

// index returns the first occurrence of f.lit in data starting at or after
// from, or -1.
func (f *finder) index(data []byte, from int) int {
	return f.indexWith(data, from, nil)
}

// indexWith is index, remembering in hits (when not nil) where each case
// of a folded literal's rare byte was found, for the next call on the same
// data.
func (f *finder) indexWith(data []byte, from int, hits *foldHits) int {
	n := len(f.lit)
	if f.hasPair {
		return f.indexPair(data, from)
	}
	if !f.fold {
		if f.rare == 0 {
			if i := bytes.Index(data[from:], f.litB); i >= 0 {
				return from + i
			}
			return -1
		}
		return f.indexRare(data, from, f.lo)
	}
	// Folded: scan both cases of the rare byte, keep the earlier hit.
	lo, up := from, from
	nextLo, nextUp := -2, -2
	for {
		if nextLo == -2 {
			nextLo = f.rareHitWith(data, lo, f.lo, hits, 0)
		}
		if nextUp == -2 {
			if f.up == f.lo {
				nextUp = -1
			} else {
				nextUp = f.rareHitWith(data, up, f.up, hits, 1)
			}
		}
		var cand int
		switch {
		case nextLo < 0 && nextUp < 0:
			return -1
		case nextUp < 0 || (nextLo >= 0 && nextLo < nextUp):
			cand = nextLo
			lo, nextLo = cand-f.rare+1, -2
		default:
			cand = nextUp
			up, nextUp = cand-f.rare+1, -2
		}
		start := cand - f.rare
		if start+n <= len(data) && equalFoldASCII(data[start:start+n], f.lit) {
			return start
		}
	}
}

// indexPair finds f.lit where its byte pair occurs, comparing the whole
// literal at each.
func (f *finder) indexPair(data []byte, from int) int {
	n := len(f.lit)
	for from <= len(data)-n {
		i := f.pair.index(data[from:], len(data)-from-n+1)
		if i < 0 {
			return -1
		}
		start := from + i
		if f.fold {
			if equalFoldASCII(data[start:start+n], f.lit) {
				return start
			}
		} else if string(data[start:start+n]) == f.lit {
			return start
		}
		from = start + 1
	}
	return -1
}

// rareHit returns the position of the next byte c at or after from+rare that
// can be the rare byte of an occurrence starting at or after from.
func (f *finder) rareHit(data []byte, from int, c byte) int {
	at := from + f.rare
	if at >= len(data) {
		return -1
	}
	i := bytes.IndexByte(data[at:], c)
	if i < 0 {
		return -1
	}
	return at + i
}

// rareHitWith is rareHit, answered from hits[k] when it found the next c
// from a scan that started no later than this one and not past its answer.
func (f *finder) rareHitWith(data []byte, from int, c byte, hits *foldHits, k int) int {
	if hits == nil {
		return f.rareHit(data, from, c)
	}
	h := &hits[k]
	at := from + f.rare
	if h.known && h.from <= at && (h.at < 0 || h.at >= at) {
		return h.at
	}
	r := f.rareHit(data, from, c)
	h.from, h.at, h.known = at, r, true
	return r
}

// indexRare finds f.lit by scanning for its rare byte c and comparing around it.
func (f *finder) indexRare(data []byte, from int, c byte) int {
	n := len(f.lit)
	at := from + f.rare
	for at < len(data) {
		i := bytes.IndexByte(data[at:], c)
		if i < 0 {
			return -1
		}
		start := at + i - f.rare
		if start+n <= len(data) && string(data[start:start+n]) == f.lit {
			return start
		}
		at += i + 1
	}
	return -1
}

// equalFoldASCII compares b with the lower-case literal s, folding ASCII letters in b.
func equalFoldASCII(b []byte, s string) bool {
	for i := 0; i < len(s); i++ {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}
