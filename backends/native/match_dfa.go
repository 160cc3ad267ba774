package native

import (
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/rgkit/rgkit/internal/rgregex"
)

// lineDFA answers "does this line hold a match?" with a lazily built DFA
// over the regexp's compiled program, one table lookup per byte. Go's
// regexp has no DFA: on a whole buffer it simulates the NFA (~15 MB/s) and
// on a line its backtracker clears a bitmap per call, so a pattern with no
// literal to prefilter on (or many candidate lines) was 10-40x slower than
// rg. The DFA only decides line selection; submatches still come from the
// regexp, on matching lines only.
//
// It reads ASCII bytes from its table. A byte >= 0x80 starts a rune that
// is decoded and stepped on its own (cached per state and rune), unless
// the program has a word assertion, whose view of a non-ASCII rune the
// DFA's states do not keep: a line holding one is then left to the regexp
// (ok=false), as is a line that alone fills the state cache.
type lineDFA struct {
	prog *syntax.Prog
	pool sync.Pool // *dfaCache; one per concurrent search
	// anchored: a match must start where the input does (the split check's
	// pieces around a literal, see splitCheck); a state with nothing left
	// to match is dead and ends the run.
	anchored bool
	// classes maps a byte to its column in a state's row of the table:
	// bytes that every instruction and assertion of prog treats alike
	// share one, so a row has stride entries, not 256, and the table of a
	// pattern with many states stays in the processor's cache. '\n' and
	// the bytes >= 0x80 have columns of their own.
	classes [256]byte
	stride  int
	// runes: a byte >= 0x80 is decoded and stepped as a rune (prog has no
	// word assertion); otherwise it ends the run undecided.
	runes bool
	// bytes: prog reads single bytes (rg --no-unicode's (?-u:.)), each
	// byte >= 0x80 as its rgregex.ByteRune, which is what the DFA steps on;
	// those bytes get columns of their own like the ASCII ones. With a word
	// assertion (which sees the character a byte is part of), a byte >=
	// 0x80 ends the run undecided instead: high lists their columns.
	bytes bool
	high  []byte
	// maxStates bounds a cache's states (dfaMaxStates; tests lower it to
	// see the cache fill up and reset).
	maxStates int
	once      sync.Once // sets classes and stride (see get)
}

const (
	dfaMaxStates = 4096
	// Transitions are a state's offset in the table (>= 0) or one of these,
	// all negative, so the hot loop tests for all of them at once.
	dfaUnknown = -1 // not computed yet
	dfaMatched = -2 // a match ends here
	dfaDead    = -3 // (anchored only) no match can follow
	dfaBail    = -4 // the DFA cannot tell (a word assertion next to a non-ASCII rune, a full cache)
	dfaRune    = -5 // a byte >= 0x80: a rune to decode and step (see runeStep)
)

// prev classes: what precedes the current position, for ^, \b and the
// CRLF-aware ^ of (?R).
const (
	prevNone    = 0 // line start
	prevWord    = 1
	prevNonWord = 2
	prevCR      = 3 // '\r', a non-word byte
)

type dfaState struct {
	pcs  []uint32 // program positions waiting for the next byte
	prev int8
	end  int8 // 0 unknown, 1 match at the end of the line, 2 none
}

type dfaCache struct {
	d      *lineDFA
	states []dfaState
	// trans is the transition table, d.stride entries per state, one per
	// byte class: the next state's offset in trans (state i * d.stride),
	// or a negative dfa* value. The column of the bytes >= 0x80 holds
	// dfaRune (or dfaBail) from the start, so no byte needs testing on its
	// own.
	trans []int32
	index map[string]int32
	// runeTrans caches the transitions on non-ASCII runes: state index <<
	// 32 | rune.
	runeTrans map[uint64]int32
	full      bool    // a state was refused since the last reset: the cache is full
	gen       int     // resets so far: a state kept from before one is void
	work      int     // bytes read since the last reset, about (see resetWorth)
	win       scanWin // the window of the search using the cache (see scanLines)
	stack     []uint32
	seen      []bool
	runes     []uint32 // rune instructions of the last closure
	key       []byte
}

// newLineDFA runs prog, whose assertions may include rgregex's (see
// compileProg): on ASCII bytes a Unicode word boundary is an ASCII one.
func newLineDFA(prog *syntax.Prog) *lineDFA {
	return &lineDFA{prog: prog, runes: !hasWordAssertion(prog), maxStates: dfaMaxStates}
}

// newByteLineDFA runs prog, which reads bytes (see compileBytes). A line
// assertion sees a byte as it sees the character the byte starts; a word
// assertion does not, so with one a line holding a byte >= 0x80 is left to
// the VM.
func newByteLineDFA(prog *syntax.Prog) *lineDFA {
	return &lineDFA{prog: prog, bytes: true, maxStates: dfaMaxStates}
}

// newAnchoredDFA runs prog anchored at the start of its input.
func newAnchoredDFA(prog *syntax.Prog) *lineDFA {
	d := newLineDFA(prog)
	d.anchored = true
	return d
}

// lineAssertions are the assertions whose truth the DFA's prev classes
// keep next to any rune: line and text edges, and (?R)'s.
var lineAssertions = uint32(syntax.EmptyBeginLine|syntax.EmptyEndLine|syntax.EmptyBeginText|syntax.EmptyEndText) |
	assertBit(rgregex.LineStartCRLF) | assertBit(rgregex.LineEndCRLF)

// hasWordAssertion reports an assertion of prog that looks at whether a
// rune is a word character (Go's \b, rg's Unicode ones, -w's halves).
func hasWordAssertion(prog *syntax.Prog) bool {
	for i := range prog.Inst {
		if in := &prog.Inst[i]; in.Op == syntax.InstEmptyWidth && in.Arg&^lineAssertions != 0 {
			return true
		}
	}
	return false
}

// byteClasses partitions the ASCII bytes by what prog's rune instructions
// and the assertions see in them (a word byte, '\r'); '\n' and the bytes
// >= 0x80 get a class each. Under bytes, the bytes >= 0x80 are partitioned
// as the ASCII ones are, by their rgregex.ByteRune. It returns the class
// of each byte and how many classes there are.
func byteClasses(prog *syntax.Prog, bytes bool) (classes [256]byte, n int) {
	var insts []*syntax.Inst
	for i := range prog.Inst {
		switch in := &prog.Inst[i]; in.Op {
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			insts = append(insts, in)
		}
	}
	ids := map[string]byte{}
	var sig strings.Builder
	last := utf8.RuneSelf
	if bytes {
		last = 256
	}
	for b := range last {
		if b == '\n' {
			continue
		}
		sig.Reset()
		sig.WriteByte(btoc(isWordByte(byte(b))))
		sig.WriteByte(btoc(b == '\r'))
		sig.WriteByte(btoc(b >= utf8.RuneSelf)) // (see lineDFA.high)
		for _, in := range insts {
			sig.WriteByte(btoc(runeMatches(in, rgregex.ByteRune(byte(b)))))
		}
		id, ok := ids[sig.String()]
		if !ok {
			id = byte(len(ids))
			ids[sig.String()] = id
		}
		classes[b] = id
	}
	nl, hi := byte(len(ids)), byte(len(ids)+1)
	classes['\n'] = nl
	if bytes {
		return classes, int(nl) + 1
	}
	for b := utf8.RuneSelf; b < 256; b++ {
		classes[b] = hi
	}
	return classes, int(hi) + 1
}

func btoc(b bool) byte {
	if b {
		return '1'
	}
	return '0'
}

// start creates the start state, the first of a cache; false when the
// cache cannot hold it.
func (c *dfaCache) start() bool {
	var pcs []uint32 // unanchored: closure adds the program start each step
	if c.d.anchored {
		pcs = []uint32{uint32(c.d.prog.Start)}
	}
	return c.state(pcs, prevNone) >= 0
}

// reset empties the cache, keeping its memory, and creates the start state
// again: the DFA goes on after its states filled the cache, as rg's lazy
// DFA does, instead of leaving every later line to the regexp.
func (c *dfaCache) reset() {
	c.states = c.states[:0]
	c.trans = c.trans[:0]
	clear(c.index)
	clear(c.runeTrans)
	c.full = false
	c.gen++
	c.work = 0
	c.start()
}

func (d *lineDFA) get() *dfaCache {
	if c, ok := d.pool.Get().(*dfaCache); ok {
		return c
	}
	// The byte classes are worked out for the first search that runs the
	// DFA: a pattern answered by its prefilter alone never needs them, and
	// a caller that compiles per file (the listing modes) paid them each
	// time.
	d.once.Do(func() {
		d.classes, d.stride = byteClasses(d.prog, d.bytes)
		if d.bytes && hasWordAssertion(d.prog) {
			for b := utf8.RuneSelf; b < 256; b++ {
				if !slices.Contains(d.high, d.classes[b]) {
					d.high = append(d.high, d.classes[b])
				}
			}
		}
	})
	return &dfaCache{d: d, index: map[string]int32{}, runeTrans: map[uint64]int32{}, seen: make([]bool, len(d.prog.Inst))}
}

func (d *lineDFA) put(c *dfaCache) { d.pool.Put(c) }

// match reports whether line (which holds no '\n') holds a match; ok is
// false when the DFA cannot tell and the caller must use the regexp. A line
// that meets a full cache is read again from a reset one, if the cache
// served long enough (see resetWorth).
func (c *dfaCache) match(line []byte) (matched, ok bool) {
	matched, ok = c.matchLine(line)
	c.work += len(line)
	if !ok && c.full && c.work >= resetWorth*c.d.maxStates {
		c.reset()
		matched, ok = c.matchLine(line)
	}
	return matched, ok
}

// resetWorth is how many bytes per state a full cache must have read since
// its last reset to be reset again. Where the text keeps asking for new
// states (or one line needs more than the cache holds), resetting at every
// line would spend the search building states that serve a few bytes
// each; until the cache has read that much, lines that need a new state
// go to the regexp, as they all did before the cache could reset. (rg's
// lazy DFA gives up on such a cache the same way.)
const resetWorth = 32

func (c *dfaCache) matchLine(line []byte) (matched, ok bool) {
	if len(c.states) == 0 && !c.start() {
		return false, false
	}
	cls := &c.d.classes
	t := c.trans
	base := int32(0) // the start state, created first
	for i := 0; i < len(line); i++ {
		v := t[int(base)+int(cls[line[i]])]
		if v < 0 {
			if v, i = c.special(base, line, i, v); v < 0 {
				return v == dfaMatched, v != dfaBail
			}
			t = c.trans
		}
		base = v
	}
	return c.matchesAtEnd(int(base)), true
}

// scan outcomes.
const (
	scanNone   = iota // no line of the data read holds a match
	scanMatch         // the line holding the returned offset holds a match
	scanUnsure        // the DFA cannot tell for the line holding the returned offset
)

// scan reads data[from:to] from the state at base, a line at a time without
// stopping between lines: '\n' leads back to the start state, or ends the
// scan with a match when the line it ends matches at its end. It stops at
// the first byte where a match is known, with scanMatch and that byte's
// offset (the line holding it is the matching one; the offset is the
// line's '\n' when the match is at its end), or at a byte it cannot read
// (scanUnsure). Having read to to, it returns scanNone, to and the state
// there, from which a later call goes on; the last line's end (where no
// '\n' follows) is the caller's to check (matchesAtEnd).
func (c *dfaCache) scan(data []byte, from, to int, base int32) (at int, state int32, res int) {
	if len(c.states) == 0 && !c.start() {
		return from, 0, scanUnsure
	}
	cls := &c.d.classes
	t := c.trans
	data = data[:to]
	i := from
	st := uint32(base) // as in scanHalves: a uint32 widens for free
	for {
		// Four bytes at a time while no transition is special.
		for ; i+3 < len(data); i += 4 {
			v0 := uint32(t[int(st)+int(cls[data[i]])])
			if int32(v0) < 0 {
				break
			}
			v1 := uint32(t[int(v0)+int(cls[data[i+1]])])
			if int32(v1) < 0 {
				st, i = v0, i+1
				break
			}
			v2 := uint32(t[int(v1)+int(cls[data[i+2]])])
			if int32(v2) < 0 {
				st, i = v1, i+2
				break
			}
			v3 := uint32(t[int(v2)+int(cls[data[i+3]])])
			if int32(v3) < 0 {
				st, i = v2, i+3
				break
			}
			st = v3
		}
		if i >= len(data) {
			return i, int32(st), scanNone
		}
		v := t[int(st)+int(cls[data[i]])]
		if v < 0 {
			if v, i = c.scanStep(int32(st), data, i, v); v < 0 {
				return i, int32(st), scanEnd(v)
			}
			t = c.trans
		}
		st = uint32(v)
		i++
	}
}

// scanStep is scan's handling of the special transition v of the state at
// base on data[i] (see special; '\n' leads to lineEnd).
func (c *dfaCache) scanStep(base int32, data []byte, i int, v int32) (int32, int) {
	if data[i] == '\n' && v == dfaUnknown {
		return c.lineEnd(base), i
	}
	return c.special(base, data, i, v)
}

// scanEnd is the outcome of a scan stopped by the transition v < 0.
func scanEnd(v int32) int {
	if v == dfaMatched {
		return scanMatch
	}
	return scanUnsure
}

// lineEnd is the transition of the state at base on '\n': a match when the
// line matches at its end, else the start state of the next line (dead
// when anchored).
func (c *dfaCache) lineEnd(base int32) int32 {
	v := int32(0)
	if c.d.anchored {
		v = dfaDead
	}
	if c.matchesAtEnd(int(base)) {
		v = dfaMatched
	}
	c.trans[int(base)+int(c.d.classes['\n'])] = v
	return v
}

// matchAnchored is match for an anchored DFA, reading in from the start of
// in, or from its end towards its start when reverse is set (the reversed
// prefix before a literal). It stops at the first dead state. A byte >=
// 0x80 read in reverse ends the run undecided.
func (c *dfaCache) matchAnchored(in []byte, reverse bool) (matched, ok bool) {
	if len(c.states) == 0 && !c.start() {
		return false, false
	}
	cls := &c.d.classes
	base := int32(0)
	if !reverse {
		for i := 0; i < len(in); i++ {
			v := c.trans[int(base)+int(cls[in[i]])]
			if v < 0 {
				if v, i = c.special(base, in, i, v); v < 0 {
					return v == dfaMatched, v != dfaBail
				}
			}
			base = v
		}
		return c.matchesAtEnd(int(base)), true
	}
	for k := len(in) - 1; k >= 0; k-- {
		b := in[k]
		v := c.trans[int(base)+int(cls[b])]
		if v < 0 {
			if b >= utf8.RuneSelf {
				return false, false
			}
			if v, _ = c.special(base, in, k, v); v < 0 {
				return v == dfaMatched, v != dfaBail
			}
		}
		base = v
	}
	return c.matchesAtEnd(int(base)), true
}

// matchAnchoredAt is matchAnchored on data from at, reading forwards from
// data[at] or, in reverse, backwards from data[at-1], at most limit bytes
// (a rune that crosses the limit is read whole): the input ends where
// the data does, and a run that reaches the limit first is undecided. A
// non-ASCII rune read backwards is the one utf8.DecodeLastRune finds,
// which is the one a forward decoding finds there.
func (c *dfaCache) matchAnchoredAt(data []byte, at int, reverse bool, limit int) (matched, ok bool) {
	if len(c.states) == 0 && !c.start() {
		return false, false
	}
	cls := &c.d.classes
	base := int32(0)
	if !reverse {
		end := min(len(data), at+limit)
		i := at
		for ; i < end; i++ {
			v := c.trans[int(base)+int(cls[data[i]])]
			if v < 0 {
				if v, i = c.special(base, data, i, v); v < 0 {
					return v == dfaMatched, v != dfaBail
				}
			}
			base = v
		}
		if i < len(data) {
			return false, false // the limit, not the end of the data
		}
		return c.matchesAtEnd(int(base)), true
	}
	lo := max(0, at-limit)
	k := at - 1
	for ; k >= lo; k-- {
		b := data[k]
		v := c.trans[int(base)+int(cls[b])]
		if v < 0 {
			if b >= utf8.RuneSelf && v == dfaRune {
				var w int
				v, w = c.runeStepBack(base, data[:k+1])
				k -= w - 1
			} else {
				v, _ = c.special(base, data, k, v)
			}
			if v < 0 {
				return v == dfaMatched, v != dfaBail
			}
		}
		base = v
	}
	if k >= 0 {
		return false, false // the limit, not the start of the data
	}
	return c.matchesAtEnd(int(base)), true
}

// runeStepBack steps the state at base on the last rune of in (read
// backwards), returning the transition and the rune's length.
func (c *dfaCache) runeStepBack(base int32, in []byte) (int32, int) {
	r, w := utf8.DecodeLastRune(in)
	return c.runeTo(base, r, w), w
}

// special handles a negative transition v of the state at base on in[i]:
// computes an unknown one (dfaBail when the cache is full), steps a
// non-ASCII rune (returning the offset of its last byte), and returns the
// transition, a state's offset or what ends the run.
func (c *dfaCache) special(base int32, in []byte, i int, v int32) (int32, int) {
	switch v {
	case dfaUnknown:
		b := in[i]
		v = c.step(int(base)/c.d.stride, rgregex.ByteRune(b), 1)
		if v == dfaUnknown {
			return dfaBail, i // the cache is full
		}
		c.trans[int(base)+int(c.d.classes[b])] = v
		return v, i
	case dfaRune:
		return c.runeStep(base, in, i)
	}
	return v, i
}

// runeStep steps the state at base on the rune that starts at in[i] (a
// byte >= 0x80; an invalid byte is U+FFFD, as Go's regexp reads it),
// returning the transition and the offset of the rune's last byte.
func (c *dfaCache) runeStep(base int32, in []byte, i int) (int32, int) {
	r, w := utf8.DecodeRune(in[i:])
	return c.runeTo(base, r, w), i + w - 1
}

// runeTo is the transition of the state at base on the rune r, w bytes
// long (see step), cached per state and rune; dfaBail when the cache is
// full.
func (c *dfaCache) runeTo(base int32, r rune, w int) int32 {
	st := int(base) / c.d.stride
	key := uint64(st)<<32 | uint64(r)
	if v, ok := c.runeTrans[key]; ok {
		return v
	}
	v := c.step(st, r, w)
	if v == dfaUnknown {
		return dfaBail
	}
	c.runeTrans[key] = v
	return v
}

// matchesAtEnd reports whether the state at base matches at the end of
// the input (a $ or \b there), computed once per state.
func (c *dfaCache) matchesAtEnd(base int) bool {
	st := &c.states[base/c.d.stride]
	if st.end == 0 {
		st.end = 2
		if c.closure(st.pcs, emptyContext(prevRune(st.prev), -1)) {
			st.end = 1
		}
	}
	return st.end == 1
}

func prevRune(p int8) rune {
	switch p {
	case prevWord:
		return 'a'
	case prevNonWord:
		return ' '
	case prevCR:
		return '\r'
	}
	return -1
}

func isWordByte(b byte) bool {
	return b == '_' || ('0' <= b && b <= '9') || ('a' <= b && b <= 'z') || ('A' <= b && b <= 'Z')
}

// step computes the transition of state i on the rune r, w bytes long
// (an invalid byte is r = U+FFFD, w = 1).
func (c *dfaCache) step(i int, r rune, w int) int32 {
	st := &c.states[i]
	if c.closure(st.pcs, emptyContext(prevRune(st.prev), ctxRune(r, w))) {
		return dfaMatched
	}
	var next []uint32
	for _, pc := range c.runes {
		inst := &c.d.prog.Inst[pc]
		if runeMatches(inst, r) {
			next = append(next, inst.Out)
		}
	}
	slices.Sort(next)
	next = slices.Compact(next)
	if c.d.anchored && len(next) == 0 {
		return dfaDead
	}
	prev := int8(prevNonWord) // a non-ASCII rune too: no word assertion reads it
	if r < utf8.RuneSelf && isWordByte(byte(r)) {
		prev = prevWord
	} else if r == '\r' {
		prev = prevCR
	}
	return c.state(next, prev)
}

func runeMatches(inst *syntax.Inst, r rune) bool {
	switch inst.Op {
	case syntax.InstRune1:
		return inst.Rune[0] == r
	case syntax.InstRuneAny:
		return true
	case syntax.InstRuneAnyNotNL:
		return r != '\n'
	}
	return inst.MatchRune(r)
}

// closure follows the empty transitions from pcs plus, unanchored, the
// program start (such a search may start anywhere) under the context ctx, leaves
// the rune instructions reached in c.runes, and reports a reached match.
func (c *dfaCache) closure(pcs []uint32, ctx uint32) bool {
	clear(c.seen)
	c.runes = c.runes[:0]
	c.stack = append(c.stack[:0], pcs...)
	if !c.d.anchored {
		c.stack = append(c.stack, uint32(c.d.prog.Start))
	}
	matched := false
	for len(c.stack) > 0 {
		pc := c.stack[len(c.stack)-1]
		c.stack = c.stack[:len(c.stack)-1]
		if c.seen[pc] {
			continue
		}
		c.seen[pc] = true
		inst := &c.d.prog.Inst[pc]
		switch inst.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			c.stack = append(c.stack, inst.Arg, inst.Out)
		case syntax.InstCapture, syntax.InstNop:
			c.stack = append(c.stack, inst.Out)
		case syntax.InstEmptyWidth:
			if inst.Arg&^ctx == 0 {
				c.stack = append(c.stack, inst.Out)
			}
		case syntax.InstMatch:
			matched = true
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			c.runes = append(c.runes, pc)
		}
	}
	return matched
}

// state returns the transition value of the state for (pcs, prev) (its
// offset in trans), creating it; dfaUnknown when the cache is full.
func (c *dfaCache) state(pcs []uint32, prev int8) int32 {
	c.key = append(c.key[:0], byte(prev))
	for _, pc := range pcs {
		c.key = append(c.key, byte(pc), byte(pc>>8), byte(pc>>16), byte(pc>>24))
	}
	if i, ok := c.index[string(c.key)]; ok {
		return i
	}
	if len(c.states) >= c.d.maxStates {
		c.full = true
		return dfaUnknown
	}
	stride := c.d.stride
	v := int32(len(c.states) * stride)
	c.states = append(c.states, dfaState{pcs: pcs, prev: prev})
	row := len(c.trans)
	c.trans = slices.Grow(c.trans, stride)[:row+stride]
	for i := range stride {
		c.trans[row+i] = dfaUnknown
	}
	for _, hi := range c.d.high {
		c.trans[row+int(hi)] = dfaBail
	}
	if !c.d.bytes {
		hi := c.d.classes[utf8.RuneSelf]
		c.trans[row+int(hi)] = dfaBail
		if c.d.runes {
			c.trans[row+int(hi)] = dfaRune
		}
	}
	c.index[string(c.key)] = v
	return v
}
