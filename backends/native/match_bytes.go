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
// needs but no line DFA: they are rare, and the VM alone is exact.

// compileBytes finishes Compile for a tree that matches bytes: the VM alone
// decides lines and finds spans.
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
	return m, nil
}
