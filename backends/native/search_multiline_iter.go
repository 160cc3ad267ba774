package native

import (
	"regexp"
	"regexp/syntax"
	"slices"
)

// mlChunk is how many matches Go's regexp finds per call in a multiline
// search: a file's matches were found in one call, so a 20 MB file of them
// held hundreds of MB of spans before its first line went out.
const mlChunk = 256

// mlIter yields a whole buffer's matches in order, as Go's FindAllIndex
// and rg's find_iter find them (an empty match right after a match is
// skipped), holding at most mlChunk of them.
//
// Go's regexp finds them chunk by chunk, each call starting where the last
// match ended. A call on data[pos:] takes pos for the start of the text,
// which changes nothing for a pattern without ^, \A, \b or \B; with ^ alone
// it is exact at a line start. Elsewhere the iterator goes on with the VM,
// whose find sees the text before pos.
type mlIter struct {
	data    []byte
	re      *regexp.Regexp // nil once the VM finds the matches
	vm      *pikeVM
	ahead   [][2]int // matches found by re, not yet yielded
	pos     int      // where the next search starts
	prevEnd int      // end of the last match found (-1: none)
	done    bool     // re found the last match
	restart mlRestart
	// pt is the text of a -P pattern (vm.px), decoded once; at and last
	// are rune indexes (see pcreProg.eachMatch).
	pt       *pcreText
	at, last int
	// searcher makes the iterator find matches as rg's multiline searcher
	// does, not as find_iter: each search starts afresh at the end of the
	// match before (where ^, \A and \b see the start of a text), one byte
	// further after an empty match, and an empty match right after a match
	// counts. `rg -U '\s*$'` prints the empty line after "a  \n", which
	// find_iter skips; `x\n|\Ay` matches "y" on the line after "x". Not
	// for -P (pt), whose iteration is pcreProg's.
	searcher bool
	// abutting says the match next returned is an empty one right where
	// the match before it ended: one find_iter skips, so rg's printer
	// neither counts (-c, --stats) nor shows it, though its line is a
	// match line and -m counts it.
	abutting bool
	// fresh says re's searcher matches differ from FindAll's (see mlShape).
	fresh bool
	// chunk, when set, is how many matches the next findChunk asks for,
	// doubled after each up to mlChunk: an iteration that needs only the
	// matches of one block (mlBlocks.count) then reads little past them.
	chunk int
}

// mlShape is what a multiline iteration needs to know of a Go regexp.
type mlShape struct {
	restart mlRestart
	// fresh: the pattern may match the empty string (FindAll skips one
	// right after a match, rg's searcher does not) or holds an assertion
	// that sees the text before a match (a fresh search takes the end of
	// the match before for a text's start), so the searcher searches
	// afresh per match; otherwise FindAll's chunks find the same matches.
	fresh bool
}

// shapeOf reads re's mlShape (the zero one for nil).
func shapeOf(re *regexp.Regexp) mlShape {
	if re == nil {
		return mlShape{}
	}
	tree, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return mlShape{restart: restartNever, fresh: true}
	}
	r := restartOf(tree)
	return mlShape{restart: r, fresh: r != restartAnywhere || mayMatchEmpty(tree)}
}

// mlRestart says where Go's regexp may resume a search in the middle of the
// text (decided from the pattern at the first resumption).
type mlRestart int8

const (
	restartUnknown   mlRestart = iota
	restartAnywhere            // no assertion looks before the match
	restartLineStart           // ^ is the only one: exact after a '\n'
	restartNever               // \A, \b or \B: only the VM sees the text before
)

func newMLIter(m *Matcher, data []byte) mlIter {
	re := m.re
	if re == nil && m.asciiRe != nil && isASCII(data) {
		re = m.asciiRe
	}
	it := mlIter{data: data, re: re, vm: m.vm, prevEnd: -1}
	switch {
	case re != nil && re == m.re:
		it.restart, it.fresh = m.ml.restart, m.ml.fresh
	case re != nil:
		it.restart, it.fresh = m.mlASCII.restart, m.mlASCII.fresh
	}
	if m.vm != nil && m.vm.px != nil {
		it.pt, it.last = m.vm.px.text(data), -1
	}
	return it
}

// clone is an iterator that goes on from the same point independently.
func (it *mlIter) clone() mlIter {
	c := *it
	c.ahead = append([][2]int(nil), it.ahead...)
	return c
}

// next returns the next match.
func (it *mlIter) next() (int, int, bool) {
	for {
		if len(it.ahead) > 0 {
			m := it.ahead[0]
			it.ahead = it.ahead[1:]
			return m[0], m[1], true
		}
		if it.re == nil {
			return it.nextVM()
		}
		if it.searcher && it.fresh {
			return it.nextFresh()
		}
		if it.done {
			return 0, 0, false
		}
		if it.pos > 0 && !it.resumable() {
			if it.vm == nil {
				it.vm = vmFor(it.re)
			}
			if it.vm != nil {
				it.re = nil
				continue
			}
		}
		it.findChunk()
	}
}

// findChunk finds up to mlChunk matches with Go's regexp from it.pos.
func (it *mlIter) findChunk() {
	base := it.pos
	n := mlChunk
	if it.chunk > 0 {
		n = it.chunk
		it.chunk = min(2*it.chunk, mlChunk)
	}
	locs := it.re.FindAllIndex(it.data[base:], n)
	it.done = len(locs) < n
	it.ahead = it.ahead[:0]
	for _, l := range locs {
		s, e := base+l[0], base+l[1]
		if s == e && s == it.prevEnd {
			continue // an empty match right after the previous one
		}
		it.ahead = append(it.ahead, [2]int{s, e})
		it.prevEnd = e
	}
	// n >= 2: at most the first is skipped, so the search moves on.
	it.pos = it.prevEnd
}

// nextFresh finds the next match as rg's multiline searcher does: in
// data[pos:] as a text of its own, then on from its end, or one byte past
// an empty match; no search starts at the end of the data.
func (it *mlIter) nextFresh() (int, int, bool) {
	if it.pos >= len(it.data) {
		return 0, 0, false
	}
	loc := it.re.FindIndex(it.data[it.pos:])
	if loc == nil {
		it.pos = len(it.data)
		return 0, 0, false
	}
	s, e := it.pos+loc[0], it.pos+loc[1]
	it.abutting = s == e && s == it.prevEnd
	it.pos, it.prevEnd = e, e
	if s == e {
		it.pos++
	}
	return s, e, true
}

// skipTo has the next search start at pos or later, as rg -v -U's
// searcher starts past the lines of the match before (see
// SearchOptions.InvertFinds), and forgets the matches found before pos.
// Go's regexp searches afresh there (fresh), the VM from there seeing the
// text before it, the -P iteration from the character at pos.
func (it *mlIter) skipTo(pos int) {
	kept := it.ahead[:0]
	for _, m := range it.ahead {
		if m[0] >= pos {
			kept = append(kept, m)
		}
	}
	it.ahead = kept
	if it.pt != nil {
		if at, _ := slices.BinarySearch(it.pt.offs, pos); at > it.at {
			it.at = at
		}
		return
	}
	if pos > it.pos {
		it.pos = pos
	}
}

// mayMatchEmpty reports whether re can match the empty string somewhere.
func mayMatchEmpty(re *syntax.Regexp) bool { return matchesEmpty(re, true) }

// resumable reports whether Go's regexp gives the right matches from it.pos.
func (it *mlIter) resumable() bool {
	if it.restart == restartUnknown {
		it.restart = restartKind(it.re)
	}
	switch it.restart {
	case restartAnywhere:
		return true
	case restartLineStart:
		return it.data[it.pos-1] == '\n'
	}
	return false
}

// restartKind reads which assertions look before a match in re.
func restartKind(re *regexp.Regexp) mlRestart {
	tree, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return restartNever
	}
	return restartOf(tree)
}

// restartOf is restartKind of a parsed pattern.
func restartOf(tree *syntax.Regexp) mlRestart {
	switch {
	case hasOp(tree, syntax.OpBeginText), hasOp(tree, syntax.OpWordBoundary), hasOp(tree, syntax.OpNoWordBoundary):
		return restartNever
	case hasOp(tree, syntax.OpBeginLine):
		return restartLineStart
	}
	return restartAnywhere
}

// vmFor compiles re for the VM (nil if that fails: re then goes on from
// where it is, which is what it did before the VM existed).
func vmFor(re *regexp.Regexp) *pikeVM {
	tree, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return nil
	}
	prog, err := compileProg(tree.Simplify())
	if err != nil {
		return nil
	}
	return newPikeVM(prog)
}

// nextVM finds the next match with the VM, as pikeVM.eachMatch does.
func (it *mlIter) nextVM() (int, int, bool) {
	if it.pt != nil {
		return it.nextPCRE()
	}
	for it.pos <= len(it.data) {
		s, e, ok := it.vm.find(it.data, it.pos, false)
		if !ok {
			it.pos = len(it.data) + 1
			return 0, 0, false
		}
		accept := e != s || s != it.prevEnd
		if e == s {
			if _, w := it.vm.decodeAt(it.data, e); w > 0 {
				it.pos = e + w
			} else {
				it.pos = e + 1
			}
		} else {
			it.pos = e
		}
		it.prevEnd = e
		if accept {
			return s, e, true
		}
	}
	return 0, 0, false
}

// nextPCRE is nextVM for a -P pattern, as pcreProg.eachMatch iterates
// (as rg's multiline searcher, no search starts at the end of the data:
// see nextFresh).
func (it *mlIter) nextPCRE() (int, int, bool) {
	t := it.pt
	for it.at < len(t.runes) || (it.at == len(t.runes) && !it.searcher) {
		s, e, ok := it.vm.px.next(t, it.at)
		if !ok {
			it.at = len(t.runes) + 1
			return 0, 0, false
		}
		it.abutting = false
		var mids [][2]int
		if s == e {
			it.at = e + 1
			it.vm.px.midChar(t, e, func(b, _ int) bool { mids = append(mids, [2]int{b, b}); return true })
			if e == it.last {
				if len(mids) > 0 {
					it.ahead = append(it.ahead, mids[1:]...)
					return mids[0][0], mids[0][1], true
				}
				if !it.searcher {
					continue
				}
				// rg's searcher finds the empty match right after a match
				// (its line is a match line), which find_iter skips.
				it.abutting = true
			}
		} else {
			it.at = e
		}
		it.last = e
		it.ahead = append(it.ahead, mids...)
		return t.offs[s], t.offs[e], true
	}
	return 0, 0, false
}

// EachMultilineMatch calls fn with each match of text in order, searched
// as one text the way rg -U searches a file (a match may span lines), until
// fn returns false. A Matcher that does not search multiline (see
// Multiline) finds the same matches line by line.
func (m *Matcher) EachMultilineMatch(text []byte, fn func(start, end int) bool) {
	it := m.MultilineMatches(text)
	for {
		s, e, ok := it.Next()
		if !ok || !fn(s, e) {
			return
		}
	}
}

// MultilineMatches is a pull iterator over text's matches, searched as
// EachMultilineMatch does: one match held at a time.
type MultilineMatches struct{ it mlIter }

// MultilineMatches returns an iterator over text's matches.
func (m *Matcher) MultilineMatches(text []byte) *MultilineMatches {
	m, text = m.withSentinel(text)
	return &MultilineMatches{it: newMLIter(m, text)}
}

// Next returns the next match, or ok false at the end.
func (i *MultilineMatches) Next() (start, end int, ok bool) { return i.it.next() }
