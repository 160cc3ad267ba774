package native

import (
	"regexp/syntax"
)

// A pattern with (?-u)'s '.', negated classes or \x80-\xFF (rg
// --no-unicode '[^a]') matches single bytes, not characters: `.` over "é"
// is two matches in rg. Go's regexp reads UTF-8, so such a pattern runs on
// the VM reading one byte at a time (pikeVM.bytes), each byte of 0x80-0xFF
// as its rgregex.ByteRune, and the rest of the pattern is spelled in bytes
// too (rgregex.Parse). Such patterns get a prefilter for the bytes a match
// needs and a line DFA that steps on the same bytes (with a word assertion
// it leaves the lines holding bytes >= 0x80 to the VM): `[^\x00-\x7F]` has
// no byte to look for first, and the VM alone read GOROOT/src about 20
// times slower than rg.

// compileBytes finishes Compile for a tree that matches bytes: the DFA
// selects lines where it can, the VM decides the others and finds spans.
func compileBytes(m *Matcher, full *syntax.Regexp) (*Matcher, error) {
	prog, err := compileProg(full)
	if err != nil {
		return nil, &PatternError{Pattern: m.opts.Pattern, Reason: err.Error(), Err: err}
	}
	m.vm = newPikeVM(prog)
	m.vm.bytes = true
	m.emptyOK = m.matchBytes(nil)
	if !m.emptyOK {
		// The bytes a match needs, as the VM reads them (a byte rune is
		// its byte): candidates only, the VM decides.
		m.pre, _ = buildPrefilter(full)
	}
	if !m.multi && hasOp(full, syntax.OpBeginText) {
		m.textVM = m.vm
	}
	if !m.multi {
		m.dfa = newByteLineDFA(prog)
	}
	return m, nil
}
