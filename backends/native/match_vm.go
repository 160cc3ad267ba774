package native

import (
	"errors"
	"regexp/syntax"
	"sync"
	"unicode/utf8"

	"github.com/rgkit/rgkit/internal/rgregex"
)

// pikeVM runs a compiled program the way Go's regexp runs its NFA
// (leftmost-first, one pass, no backtracking), with the zero-width
// assertions Go lacks: rg's Unicode \b and \B, word starts and ends and
// their halves (\b{start-half} is what -w is made of), and CRLF-aware line
// anchors. rgregex marks each as a placeholder rune; compileVM turns those
// instructions into InstEmptyWidth with an assertion bit above Go's eight.
//
// It only runs where Go's regexp cannot give rg's answer: lines holding a
// non-ASCII character for a pattern with such an assertion (on ASCII text
// Unicode and ASCII word boundaries coincide, and the line DFA decides).
type pikeVM struct {
	prog *syntax.Prog
	pool sync.Pool // *vmMachine
	// px, when set, is a -P pattern: find and eachMatch run it instead.
	px *pcreProg
	// bytes: the program reads the text one byte at a time, a byte of
	// 0x80-0xFF as its rgregex.ByteRune (see compileBytes).
	bytes bool
}

// assertBit is an assertion's bit in an InstEmptyWidth Arg, above Go's
// syntax.EmptyOp bits (which fit in 8).
func assertBit(a rgregex.Assertion) uint32 { return 1 << (8 + uint32(a)) }

// maxProgInsts bounds a compiled program (counted repetitions are
// expanded): about what rg's default size limit allows.
const maxProgInsts = 1 << 20

var errProgTooBig = errors.New("the compiled pattern is too large (counted repetitions nest too deeply)")

// compileProg compiles a simplified tree and turns placeholder runes into
// assertion instructions.
func compileProg(tree *syntax.Regexp) (*syntax.Prog, error) {
	if n := progSizeEstimate(tree); n > maxProgInsts {
		return nil, errProgTooBig
	}
	prog, err := syntax.Compile(tree)
	if err != nil {
		return nil, err
	}
	for i := range prog.Inst {
		in := &prog.Inst[i]
		if in.Op != syntax.InstRune1 {
			continue
		}
		if a, ok := rgregex.AssertionRune(in.Rune[0]); ok {
			in.Op, in.Arg, in.Rune = syntax.InstEmptyWidth, assertBit(a), nil
		}
	}
	return prog, nil
}

// progSizeEstimate bounds the instructions a simplified tree compiles to.
func progSizeEstimate(re *syntax.Regexp) int {
	n := 1
	for _, s := range re.Sub {
		n += progSizeEstimate(s)
		if n > maxProgInsts {
			return n
		}
	}
	return n
}

func newPikeVM(prog *syntax.Prog) *pikeVM { return &pikeVM{prog: prog} }

// invalidRune stands for a byte of invalid UTF-8 next to a position: rg's
// Unicode word assertions treat it apart from a genuine U+FFFD (\B and the
// half boundaries never match next to one; \b sees a non-word byte).
const invalidRune = -2

// emptyContext is the set of zero-width assertions true between r1 and r2
// (-1 at either edge of the text, invalidRune for an invalid byte): Go's
// own bits plus rgregex's, with the rules of rg's regex engine.
func emptyContext(r1, r2 rune) uint32 {
	g1, g2 := r1, r2
	if g1 == invalidRune {
		g1 = utf8.RuneError
	}
	if g2 == invalidRune {
		g2 = utf8.RuneError
	}
	op := uint32(syntax.EmptyOpContext(g1, g2))
	w1 := r1 >= 0 && rgregex.IsWordRune(r1)
	w2 := r2 >= 0 && rgregex.IsWordRune(r2)
	a1 := r1 >= 0 && syntax.IsWordChar(r1)
	a2 := r2 >= 0 && syntax.IsWordChar(r2)
	uni := wordBits(w1, w2, rgregex.WordBoundary, rgregex.NotWordBoundary,
		rgregex.WordStart, rgregex.WordEnd, rgregex.WordStartHalf, rgregex.WordEndHalf)
	if r1 == invalidRune {
		uni &^= assertBit(rgregex.NotWordBoundary) | assertBit(rgregex.WordStartHalf)
	}
	if r2 == invalidRune {
		uni &^= assertBit(rgregex.NotWordBoundary) | assertBit(rgregex.WordEndHalf)
	}
	op |= uni
	op |= wordBits(a1, a2, 0, 0, rgregex.WordStartASCII, rgregex.WordEndASCII,
		rgregex.WordStartHalfASCII, rgregex.WordEndHalfASCII)
	if r1 < 0 && r1 != invalidRune || r1 == '\n' || (r1 == '\r' && r2 != '\n') {
		op |= assertBit(rgregex.LineStartCRLF)
	}
	if r2 < 0 && r2 != invalidRune || r2 == '\r' || (r2 == '\n' && r1 != '\r') {
		op |= assertBit(rgregex.LineEndCRLF)
	}
	return op
}

// ctxRune is the rune an assertion sees for a decoded (r, width).
func ctxRune(r rune, w int) rune {
	if r == utf8.RuneError && w == 1 {
		return invalidRune
	}
	return r
}

func wordBits(w1, w2 bool, b, nb, start, end, startHalf, endHalf rgregex.Assertion) uint32 {
	var op uint32
	if w1 != w2 && b != 0 {
		op |= assertBit(b)
	}
	if w1 == w2 && nb != 0 {
		op |= assertBit(nb)
	}
	if !w1 && w2 {
		op |= assertBit(start)
	}
	if w1 && !w2 {
		op |= assertBit(end)
	}
	if !w1 {
		op |= assertBit(startHalf)
	}
	if !w2 {
		op |= assertBit(endHalf)
	}
	return op
}

// vmThread is one NFA thread: a program position and where its match began.
type vmThread struct {
	pc    uint32
	start int
}

// vmQueue is an ordered set of threads (a sparse set keyed by pc), in
// priority order.
type vmQueue struct {
	sparse []uint32
	dense  []vmThread
}

func (q *vmQueue) contains(pc uint32) bool {
	j := q.sparse[pc]
	return int(j) < len(q.dense) && q.dense[j].pc == pc
}

func (q *vmQueue) insert(pc uint32, start int) {
	q.sparse[pc] = uint32(len(q.dense))
	q.dense = append(q.dense, vmThread{pc, start})
}

type vmMachine struct {
	q0, q1 vmQueue
	stack  []vmThread
}

func (v *pikeVM) machine() *vmMachine {
	if m, ok := v.pool.Get().(*vmMachine); ok {
		return m
	}
	n := len(v.prog.Inst)
	return &vmMachine{q0: vmQueue{sparse: make([]uint32, n)}, q1: vmQueue{sparse: make([]uint32, n)}}
}

// add follows the empty transitions from pc under ctx, inserting the rune
// and match instructions reached into q in priority order.
func (v *pikeVM) add(m *vmMachine, q *vmQueue, pc uint32, start int, ctx uint32) {
	m.stack = append(m.stack[:0], vmThread{pc, start})
	for len(m.stack) > 0 {
		t := m.stack[len(m.stack)-1]
		m.stack = m.stack[:len(m.stack)-1]
		if q.contains(t.pc) {
			continue
		}
		q.insert(t.pc, t.start)
		in := &v.prog.Inst[t.pc]
		switch in.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			// Out has priority over Arg: push Arg first.
			m.stack = append(m.stack, vmThread{in.Arg, t.start}, vmThread{in.Out, t.start})
		case syntax.InstCapture, syntax.InstNop:
			m.stack = append(m.stack, vmThread{in.Out, t.start})
		case syntax.InstEmptyWidth:
			if in.Arg&^ctx == 0 {
				m.stack = append(m.stack, vmThread{in.Out, t.start})
			}
		}
	}
}

// find returns the leftmost-first match in b starting at or after pos;
// b[:pos] is seen by the assertions. With any set, it stops at the first
// match it sees (only whether there is one counts).
func (v *pikeVM) find(b []byte, pos int, any bool) (int, int, bool) {
	if v.px != nil {
		return v.px.find(b, pos)
	}
	m := v.machine()
	defer v.pool.Put(m)
	clist, nlist := &m.q0, &m.q1
	clist.dense, nlist.dense = clist.dense[:0], nlist.dense[:0]
	if v.bytes {
		return v.findBytes(b, pos, any)
	}
	c1 := rune(-1) // what the assertions see before i
	if pos > 0 {
		c1 = runeBefore(b, pos)
	}
	r, w := decodeAt(b, pos)
	ms, me, matched := -1, -1, false
	for i := pos; ; {
		c := ctxRune(r, w)
		if !matched {
			v.add(m, clist, uint32(v.prog.Start), i, wordContext(b, i, c1, c))
		}
		if len(clist.dense) == 0 {
			break
		}
		r2, w2 := decodeAt(b, i+w)
		before := c
		var nctx uint32
		if before == invalidRune {
			before = runeBefore(b, i+w)
			nctx = wordContext(b, i+w, before, ctxRune(r2, w2))
		} else {
			nctx = emptyContext(before, ctxRune(r2, w2)) // (what wordContext gives after a valid rune)
		}
	step:
		for _, t := range clist.dense {
			in := &v.prog.Inst[t.pc]
			switch in.Op {
			case syntax.InstMatch:
				ms, me, matched = t.start, i, true
				if any {
					return ms, me, true
				}
				break step // lower-priority threads lose to this match
			case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
				if w > 0 && runeMatches(in, r) {
					v.add(m, nlist, in.Out, t.start, nctx)
				}
			}
		}
		if w == 0 {
			break
		}
		clist, nlist = nlist, clist
		nlist.dense = nlist.dense[:0]
		i += w
		c1, r, w = before, r2, w2
	}
	return ms, me, matched
}

// decodeAt is the rune the program reads at i: decodeAt's, or under bytes
// the byte's.
func (v *pikeVM) decodeAt(b []byte, i int) (rune, int) {
	if !v.bytes {
		return decodeAt(b, i)
	}
	if i >= len(b) {
		return -1, 0
	}
	return rgregex.ByteRune(b[i]), 1
}

// step moves clist's threads over r (none at the end, r < 0) into nlist,
// whose threads start under ctx, in priority order. A thread that reaches
// the match ends the step, lower-priority threads losing to it; start is
// where its match began. (find keeps this loop inline: a call per
// position cost it 5% on a Unicode \b search.)
func (v *pikeVM) step(m *vmMachine, clist, nlist *vmQueue, r rune, ctx uint32) (start int, matched bool) {
	for _, t := range clist.dense {
		in := &v.prog.Inst[t.pc]
		switch in.Op {
		case syntax.InstMatch:
			return t.start, true
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			if r >= 0 && runeMatches(in, r) {
				v.add(m, nlist, in.Out, t.start, ctx)
			}
		}
	}
	return 0, false
}

// findBytes is find for a program that reads bytes (v.bytes): it steps one
// byte at a time, each byte of 0x80-0xFF read as its rgregex.ByteRune,
// while the assertions see the characters around each position as in
// find (rg's Unicode \b next to "é" sees "é", also in a pattern that
// matches single bytes).
func (v *pikeVM) findBytes(b []byte, pos int, any bool) (int, int, bool) {
	m := v.machine()
	defer v.pool.Put(m)
	clist, nlist := &m.q0, &m.q1
	clist.dense, nlist.dense = clist.dense[:0], nlist.dense[:0]
	ctxAt := func(i int) uint32 {
		before := rune(-1)
		if i > 0 {
			before = runeBefore(b, i)
		}
		return wordContext(b, i, before, ctxRune(decodeAt(b, i)))
	}
	ctx := ctxAt(pos)
	ms, me, matched := -1, -1, false
	for i := pos; ; i++ {
		if !matched {
			v.add(m, clist, uint32(v.prog.Start), i, ctx)
		}
		if len(clist.dense) == 0 {
			break
		}
		r := rune(-1)
		if i < len(b) {
			r = rgregex.ByteRune(b[i])
			ctx = ctxAt(i + 1)
		}
		if s, ok := v.step(m, clist, nlist, r, ctx); ok {
			ms, me, matched = s, i, true
			if any {
				return ms, me, true
			}
		}
		if i >= len(b) {
			break
		}
		clist, nlist = nlist, clist
		nlist.dense = nlist.dense[:0]
	}
	return ms, me, matched
}

// asciiWordAssertions are the word assertions that see bytes: Go's \b and
// \B, and rg's ASCII ones (--no-unicode's \b, -w's halves).
var asciiWordAssertions = uint32(syntax.EmptyWordBoundary|syntax.EmptyNoWordBoundary) |
	assertBit(rgregex.WordStartASCII) | assertBit(rgregex.WordEndASCII) |
	assertBit(rgregex.WordStartHalfASCII) | assertBit(rgregex.WordEndHalfASCII)

// wordContext is emptyContext(before, next) at b[i], before being what the
// Unicode assertions see there (runeBefore's). The ASCII ones see the byte
// before i alone: where runeBefore looked back past stray continuation
// bytes to an ASCII letter ("n\x90k"), that byte is not a word byte to
// them, and rg --no-unicode -w 'k' matches there.
func wordContext(b []byte, i int, before, next rune) uint32 {
	ctx := emptyContext(before, next)
	if i > 0 && b[i-1] >= utf8.RuneSelf && before >= 0 && before < utf8.RuneSelf {
		ctx = ctx&^asciiWordAssertions | emptyContext(invalidRune, next)&asciiWordAssertions
	}
	return ctx
}

// runeBefore is the character rg's regex engine sees before position at
// (at > 0): it steps back over at most three UTF-8 continuation bytes to
// the nearest other byte and decodes the character that starts there,
// whether or not it ends at at. So in "a\x95" the character before the
// end is 'a', and in "\x7f\x95" it is U+007F; invalidRune when nothing
// valid starts there. The forward scan's own rune differs only next to
// invalid UTF-8.
func runeBefore(b []byte, at int) rune {
	start, limit := at-1, max(at-4, 0)
	for start > limit && b[start]&0xC0 == 0x80 {
		start--
	}
	return ctxRune(decodeAt(b[:at], start))
}

// decodeAt is the rune at i (-1, 0 at the end). An invalid byte is U+FFFD
// of width 1, as in Go's regexp.
func decodeAt(b []byte, i int) (rune, int) {
	if i >= len(b) {
		return -1, 0
	}
	if c := b[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRune(b[i:])
}

// findAll appends the spans of all matches in b[from:] as Go's
// FindAllIndex finds them (an empty match right after a match is skipped);
// the assertions see b[:from].
func (v *pikeVM) findAll(b []byte, from int, dst [][2]int) [][2]int {
	v.eachMatch(b, from, func(s, e int) bool {
		dst = append(dst, [2]int{s, e})
		return true
	})
	return dst
}
