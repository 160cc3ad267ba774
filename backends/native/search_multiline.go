package native

import (
	"bytes"
	"slices"
)

// runMultiline searches with rg -U semantics, for a pattern that can match
// '\n': a match may span lines. Each physical line a match touches is
// reported as a match line; a match that starts on a line the previous one
// touched joins its block (a match starting on the next line starts a new
// one). The count is the number of matches (what rg -c prints in multiline
// mode), and MaxCount limits it as rg 15 does: after each block, so a block
// is never cut (rg 13 and 14 also joined a match starting on the next line
// and counted blocks).
//
// The matches are found one at a time (see mlIter) and each line goes out
// as soon as no later match can touch it, so a file with millions of
// matches costs its own bytes plus a constant, and a sink that stops after
// ten lines stops the search there. Only the matches touching the lines not
// yet emitted are held, at most MaxSubmatches starting on one line.
func (s *fileSearch) runMultiline() error {
	if s.m.pre != nil {
		if sc := s.m.pre.scanner(s.data); sc.find(0) < 0 {
			return nil // a required literal is missing: no match anywhere
		}
	}
	b := mlBlocks{s: s, it: newMLIter(s.m, s.data), lines: lineCache{data: s.data},
		emitting: !s.o.CountOnly && !s.o.FilesOnly}
	b.it.searcher = true
	if s.o.InvertFinds {
		b.it.fresh, b.skipLines = true, true
	}
	b.counterLines = lineCache{data: s.data}
	b.lastNUL = -1
	if !s.o.BinaryConvert {
		b.lastNUL = lastIndexByte(s.data, 0)
	}
	s.ml = s.ml[:0]
	err := b.run()
	if err == nil && s.o.CountOnly && !b.stopped && s.limitReached() {
		s.countTrailing(b.be)
	}
	if err != nil || s.o.CountOnly || s.o.FilesOnly || b.stopped {
		return err
	}
	return s.trailingContext(s.limitReached())
}

// mlBlocks groups a multiline search's matches into blocks and emits them.
type mlBlocks struct {
	s        *fileSearch
	it       mlIter
	lines    lineCache
	emitting bool // content mode: lines go out (not -c or -l)
	lastNUL  int  // the file's last NUL byte, -1 if none (or NULs are searched)
	stopped  bool // the search ended for good (a NUL in a block, -l)
	// skipLines: each search starts past the lines the match before
	// touches, and MaxCount counts finds (SearchOptions.InvertFinds);
	// found is how many so far.
	skipLines bool
	found     int

	open    bool // a block is open: [bs, be) holds its lines so far
	bs, be  int
	matches int // matches in the open block (find_iter's: see count)
	finds   int // matches the searcher found in it (-m counts them)
	// counter finds the printer's matches again where the searcher's
	// differ (see count); counted is the end of the block it went over.
	counter      mlIter
	counterLines lineCache
	counted      int
	next         int // start of the block's first line not yet emitted
	capLine      int // start of the line the newest held match starts on
	capKept      int // matches held that start on capLine
	capDropped   int // matches starting on capLine not held (counted in Line.More)
}

// run walks the matches until the end, the match limit, a stop or an error.
func (b *mlBlocks) run() error {
	s, data := b.s, b.s.data
	for !s.limitReached() {
		if s.interrupted(b.it.pos) {
			return s.stopErr
		}
		ms, me, ok := b.it.next()
		if !ok {
			break
		}
		if ms == len(data) && (len(data) == 0 || data[len(data)-1] == '\n') {
			break // an empty match past the last line is on no line
		}
		first, end := b.lines.bounds(ms, me)
		if b.skipLines {
			b.it.skipTo(min(end, len(data)))
			b.found++
		}
		if b.open && first < b.be {
			if err := b.join(first, end, ms, me); err != nil {
				return err
			}
			if b.skipLines && b.found == s.o.MaxCount {
				break
			}
			continue
		}
		if b.open {
			if err := b.close(); err != nil || b.stopped {
				return err
			}
			if s.limitReached() {
				break
			}
		}
		if err := b.start(first, end, ms, me); err != nil || b.stopped {
			return err
		}
		if b.skipLines && b.found == s.o.MaxCount {
			break
		}
	}
	if b.open {
		return b.close()
	}
	return nil
}

// mlLast is the offset of the last byte a match [ms, me) touches (ms for
// an empty match).
func mlLast(ms, me int) int {
	if me > ms {
		return me - 1
	}
	return ms
}

// start opens a block with its first match. In content mode a block that
// may hold a NUL is first measured (rg stops before such a block and prints
// none of it), then the context owed before it goes out.
func (b *mlBlocks) start(first, end, ms, me int) error {
	s := b.s
	b.open, b.bs, b.be, b.matches, b.finds, b.next = true, first, end, 0, 0, first
	s.ml = s.ml[:0]
	b.capLine, b.capKept, b.capDropped = first, 0, 0
	if b.emitting {
		if first <= b.lastNUL && s.nulIn(first, b.extent(first, end)-1) {
			b.stopped = true
			return nil
		}
		if err := s.contextBefore(first, s.lineNumber(first)); err != nil {
			return err
		}
	}
	b.hold(first, ms, me)
	return nil
}

// extent is the end of the block that starts at first and whose first
// match ends on the line ending at end: the matches are looked ahead on a
// copy of the iterator, none of them kept.
func (b *mlBlocks) extent(first, end int) int {
	ahead, lines := b.it.clone(), lineCache{data: b.s.data}
	for {
		ms, me, ok := ahead.next()
		if !ok || (ms == len(b.s.data) && (ms == 0 || b.s.data[ms-1] == '\n')) {
			return end
		}
		f, e := lines.bounds(ms, me)
		if f >= end {
			return end
		}
		end = max(end, e)
	}
}

// lineCache finds the lines a match touches for matches in increasing
// order, each byte of the text scanned once: one 50 MB line of matches cost
// a scan of the line per match.
type lineCache struct {
	data       []byte
	startFrom  int // the line holding startFrom starts at start
	start      int
	endFrom    int // no '\n' in [endFrom, end)
	end        int
	endChecked bool
}

// bounds returns the start of the line a match [ms, me) starts on and the
// end (past its '\n') of the line it ends on; ms does not decrease from one
// call to the next.
func (c *lineCache) bounds(ms, me int) (first, end int) {
	if i := bytes.LastIndexByte(c.data[c.startFrom:ms], '\n'); i >= 0 {
		c.start = c.startFrom + i + 1
	}
	c.startFrom = ms
	last := mlLast(ms, me)
	if !c.endChecked || last < c.endFrom || last > c.end {
		c.endFrom, c.end, c.endChecked = last, lineEnd(c.data, last), true
	}
	return c.start, c.end + 1
}

// join adds a match starting on a line of the open block. Every line before
// the one it starts on is final and goes out.
func (b *mlBlocks) join(first, end, ms, me int) error {
	if b.emitting && first > b.next && !b.refinds() {
		if err := b.emitUpTo(first); err != nil {
			return err
		}
	}
	b.be = max(b.be, end)
	b.hold(first, ms, me)
	return nil
}

// hold counts a match of the open block and, in content mode, keeps its
// span until its lines go out: at most MaxSubmatches starting on one line,
// and past the column cap only the line's first (the rest are counted).
func (b *mlBlocks) hold(first, ms, me int) {
	b.finds++
	if b.it.abutting || b.refinds() {
		return // (its line is a match line all the same)
	}
	b.matches++
	b.holdSpan(first, ms, me)
}

// holdSpan keeps a match's span (content mode) until its lines go out: at
// most MaxSubmatches starting on one line, and past the column cap only
// the line's first (the rest are counted).
func (b *mlBlocks) holdSpan(first, ms, me int) {
	if !b.emitting {
		return
	}
	if first != b.capLine {
		b.capLine, b.capKept, b.capDropped = first, 0, 0
	}
	cols := b.s.o.MaxColumns
	if b.capKept >= MaxSubmatches || (b.capKept > 0 && cols > 0 && ms-first >= cols) {
		b.capDropped++
		return
	}
	b.capKept++
	b.s.ml = append(b.s.ml, [2]int{ms, me})
}

// close ends the open block: its last lines go out (content mode), or it is
// checked for a NUL (-c, -l), and its matches are counted.
func (b *mlBlocks) close() error {
	s := b.s
	b.open = false
	if !b.emitting {
		if s.nulIn(b.bs, b.be-1) {
			b.stopped = true
			return nil
		}
		b.count()
		if s.o.FilesOnly {
			b.stopped = true
		}
		return nil
	}
	b.count()
	return b.emitUpTo(b.be)
}

// count adds the closed block's matches to the file's: those rg's printer
// finds in it (-c, --stats, the spans shown), which iterates over the
// block as find_iter does, from its start and seeing the text around it,
// while -m counts what the searcher found.
func (b *mlBlocks) count() {
	n := b.matches
	if b.refinds() {
		// rg's blocks take in adjacent lines, which these do not: over a
		// block right after the one before, the iteration goes on.
		if b.counter.data == nil || b.bs != b.counted {
			// Two matches at first: a FindAll chunk of mlChunk from each
			// block's start read on through the next 256 matches, for
			// every block (`-U -c '^$'` over a 10 MB text took 34 s).
			b.counter = mlIter{data: b.s.data, re: b.it.re, vm: b.it.vm, pos: b.bs, prevEnd: -1, restart: b.it.restart, chunk: 2}
			if b.it.pt != nil {
				// -P: the text decoded once for the search, not for each
				// find (a 1 MB -P -U -v -c took minutes)
				b.counter.pt, b.counter.last = b.it.pt, -1
				b.counter.at, _ = slices.BinarySearch(b.it.pt.offs, b.bs)
			}
		}
		n = 0
		for {
			ms, me, ok := b.counter.next()
			if !ok {
				break
			}
			if ms >= b.be {
				b.counter.ahead = append([][2]int{{ms, me}}, b.counter.ahead...)
				break
			}
			n++
			first, _ := b.counterLines.bounds(ms, me)
			b.holdSpan(first, ms, me)
		}
		b.counted = b.be
	}
	b.s.count += n
	b.s.uncounted += b.finds - n
}

// refinds reports whether the printer's matches are found again over each
// block (see count) rather than taken from the searcher: a pattern with an
// assertion (^, \A, \b, \B) may hold where a fresh search starts and not in
// an iteration, so the searcher finds what find_iter does not.
func (b *mlBlocks) refinds() bool {
	return b.it.searcher && b.it.fresh && b.it.restart != restartAnywhere
}

// emitUpTo emits the open block's lines before the line start upto, each
// with the spans of the held matches touching it, then forgets the matches
// that touch no later line.
func (b *mlBlocks) emitUpTo(upto int) error {
	s := b.s
	for ls := b.next; ls < upto && ls < len(s.data); {
		le := lineEnd(s.data, ls)
		s.more, s.kept = 0, 0
		s.spans = s.spans[:0]
		for _, mt := range s.ml {
			a, z := max(mt[0], ls), min(mt[1], le)
			if (a < z || (mt[0] >= ls && mt[0] <= le)) && s.keepSpan(a-ls) {
				if len(s.spans) == 0 {
					s.cont = mt[0] < ls
				}
				s.spans = append(s.spans, [2]int{a - ls, max(a, z) - ls})
			}
		}
		if ls == b.capLine {
			s.more += b.capDropped
		}
		if err := s.emitLineMatch(ls, le, s.lineNumber(ls), s.spans); err != nil {
			return err
		}
		ls = le + 1
		b.next = ls
	}
	kept := s.ml[:0]
	for _, mt := range s.ml {
		if mlLast(mt[0], mt[1]) >= upto {
			kept = append(kept, mt)
		}
	}
	s.ml = kept
	return nil
}

// runEveryFinds is runEvery for rg -v -U (SearchOptions.InvertFinds with
// Invert): the lines no find of rg's inverted searcher touches are
// selected, found as the search goes, so memory stays the file's bytes
// plus a constant however many lines match. MaxCount counts the finds:
// past the last one every line is selected, with no limit.
func (s *fileSearch) runEveryFinds() error {
	data := s.data
	f := findLines{it: newMLIter(s.m, data), lines: lineCache{data: data}, limit: s.o.MaxCount}
	f.it.searcher, f.it.fresh = true, true
	s.o.MaxCount = 0
	s.nextFind = func(from int) (int, bool) {
		for {
			if from < f.be {
				return max(f.bs, from), true
			}
			if f.done || (f.limit > 0 && f.finds >= f.limit) || s.interrupted(from) {
				f.done = true
				return 0, false
			}
			ms, me, ok := f.it.next()
			if !ok || (ms == len(data) && (len(data) == 0 || data[len(data)-1] == '\n')) {
				f.done = true // (an empty match past the last line is on no line)
				return 0, false
			}
			first, end := f.lines.bounds(ms, me)
			end = min(end, len(data))
			f.it.skipTo(end)
			f.finds++
			f.bs, f.be = first, end
		}
	}
	return s.runEvery()
}

// findSpans is the spans rg's printer shows on a line [ls, le] of
// runEveryFinds' that a find touches (a context line, for -v): the matches
// find_iter finds from the line's start that start on the line and end on
// it too (rg shows none that runs on past the line's terminator). As rg's
// printer, it looks at most printerLookAhead bytes past the line; a -P
// pattern's look-behind sees pcreLookBehind bytes before it.
func (s *fileSearch) findSpans(ls, le int) [][2]int {
	end := min(le+1, len(s.data))
	from := 0
	if s.m.vm != nil && s.m.vm.px != nil {
		from = max(0, ls-pcreLookBehind) // (its text is decoded whole: not from 0 per line)
	}
	it := newMLIter(s.m, s.data[from:min(len(s.data), end+printerLookAhead)])
	it.pos = ls - from
	if it.pt != nil {
		it.at, _ = slices.BinarySearch(it.pt.offs, ls-from)
	}
	s.spans = s.spans[:0]
	for {
		ms, me, ok := it.next()
		if !ok || ms+from >= end {
			return s.spans
		}
		if me+from <= end {
			s.spans = append(s.spans, [2]int{ms + from - ls, me + from - ls})
		}
	}
}

// printerLookAhead is how far past a line rg's printer looks for the end of
// a match starting on it; pcreLookBehind how much text before a line a -P
// pattern's look-behind sees in findSpans.
const (
	printerLookAhead = 128
	pcreLookBehind   = 4 << 10
)

// findLines is runEveryFinds' walk through the finds: the lines of the
// last one are [bs, be).
type findLines struct {
	it           mlIter
	lines        lineCache
	bs, be       int
	finds, limit int
	done         bool
}
