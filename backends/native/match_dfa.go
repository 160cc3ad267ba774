package native

import (
	"regexp/syntax"
	"slices"
	"sync"
)

// lineDFA answers "does this line hold a match?" with a lazily built DFA
// over the regexp's compiled program, one table lookup per byte. Go's
// regexp has no DFA: on a whole buffer it simulates the NFA (~15 MB/s) and
// on a line its backtracker clears a bitmap per call, so a pattern with no
// literal to prefilter on (or many candidate lines) was 10-40x slower than
// rg. The DFA only decides line selection; submatches still come from the
// regexp, on matching lines only.
//
// It handles ASCII bytes; a line with a byte >= 0x80 is left to the regexp
// (ok=false), as is a line met while the state cache is full.
type lineDFA struct {
	prog *syntax.Prog
	pool sync.Pool // *dfaCache; one per concurrent search
	// anchored: a match must start where the input does (the split check's
	// pieces around a literal, see splitCheck); a state with nothing left
	// to match is dead and ends the run.
	anchored bool
}

const (
	dfaMaxStates = 4096
	// Transitions are a state's offset in the table (>= 0) or one of these,
	// all negative, so the hot loop tests for all of them at once.
	dfaUnknown = -1 // not computed yet
	dfaMatched = -2 // a match ends here
	dfaDead    = -3 // (anchored only) no match can follow
	dfaBail    = -4 // a byte >= 0x80: the DFA cannot tell
	dfaStride  = 256
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
	// trans is the transition table, dfaStride entries per state, one per
	// byte: the next state's offset in trans (state i * dfaStride), or a
	// negative dfa* value. Bytes >= 0x80 hold dfaBail from the start, so
	// no byte needs testing on its own.
	trans []int32
	index map[string]int32
	stack []uint32
	seen  []bool
	runes []uint32 // rune instructions of the last closure
	key   []byte
}

// newLineDFA runs prog, whose assertions may include rgregex's (see
// compileProg): on ASCII bytes a Unicode word boundary is an ASCII one.
func newLineDFA(prog *syntax.Prog) *lineDFA {
	return &lineDFA{prog: prog}
}

// newAnchoredDFA runs prog anchored at the start of its input.
func newAnchoredDFA(prog *syntax.Prog) *lineDFA {
	return &lineDFA{prog: prog, anchored: true}
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

func (d *lineDFA) get() *dfaCache {
	if c, ok := d.pool.Get().(*dfaCache); ok {
		return c
	}
	return &dfaCache{d: d, index: map[string]int32{}, seen: make([]bool, len(d.prog.Inst))}
}

func (d *lineDFA) put(c *dfaCache) { d.pool.Put(c) }

// match reports whether line holds a match; ok is false when the DFA cannot
// tell (non-ASCII byte, state cache full) and the caller must use the regexp.
func (c *dfaCache) match(line []byte) (matched, ok bool) {
	if len(c.states) == 0 && !c.start() {
		return false, false
	}
	t := c.trans
	base := 0 // the start state, created first
	for _, b := range line {
		v := t[base+int(b)]
		if v < 0 {
			if v = c.special(base, b, v); v < 0 {
				return v == dfaMatched, v != dfaBail
			}
			t = c.trans
		}
		base = int(v)
	}
	return c.matchesAtEnd(base), true
}

// matchAnchored is match for an anchored DFA, reading in from the start of
// in, or from its end towards its start when reverse is set (the reversed
// prefix before a literal). It stops at the first dead state.
func (c *dfaCache) matchAnchored(in []byte, reverse bool) (matched, ok bool) {
	if len(c.states) == 0 && !c.start() {
		return false, false
	}
	base := 0
	for k := range in {
		b := in[k]
		if reverse {
			b = in[len(in)-1-k]
		}
		v := c.trans[base+int(b)]
		if v < 0 {
			if v = c.special(base, b, v); v < 0 {
				return v == dfaMatched, v != dfaBail
			}
		}
		base = int(v)
	}
	return c.matchesAtEnd(base), true
}

// special handles a negative transition v of the state at base on b:
// computes an unknown one (dfaBail when the cache is full) and returns the
// transition, a state's offset or what ends the run.
func (c *dfaCache) special(base int, b byte, v int32) int32 {
	if v != dfaUnknown {
		return v
	}
	v = c.step(base/dfaStride, b)
	if v == dfaUnknown {
		return dfaBail // the cache is full
	}
	c.trans[base+int(b)] = v
	return v
}

// matchesAtEnd reports whether the state at base matches at the end of
// the input (a $ or \b there), computed once per state.
func (c *dfaCache) matchesAtEnd(base int) bool {
	st := &c.states[base/dfaStride]
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

// step computes the transition of state i on byte b.
func (c *dfaCache) step(i int, b byte) int32 {
	st := &c.states[i]
	r := rune(b)
	if c.closure(st.pcs, emptyContext(prevRune(st.prev), r)) {
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
	prev := int8(prevNonWord)
	if isWordByte(b) {
		prev = prevWord
	} else if b == '\r' {
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
	if len(c.states) >= dfaMaxStates {
		return dfaUnknown
	}
	v := int32(len(c.states)) * dfaStride
	c.states = append(c.states, dfaState{pcs: pcs, prev: prev})
	row := len(c.trans)
	c.trans = slices.Grow(c.trans, dfaStride)[:row+dfaStride]
	for i := range dfaStride {
		c.trans[row+i] = dfaUnknown
		if i >= 0x80 {
			c.trans[row+i] = dfaBail
		}
	}
	c.index[string(c.key)] = v
	return v
}
