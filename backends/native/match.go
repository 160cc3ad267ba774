package native

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"

	"github.com/rgkit/rgkit/internal/rgregex"
	"github.com/rgkit/rgkit/search"
)

// MatchOptions says what a Matcher looks for. The zero value of every field
// is rg's default.
type MatchOptions struct {
	// Pattern is in rg's regex dialect (the Rust regex crate's syntax, as
	// rg 15 reads it without -P; see internal/rgregex), or a literal when
	// Fixed is set.
	Pattern         string
	Fixed           bool // the pattern is a literal string (rg -F)
	Word            bool // match only whole words (rg -w)
	CaseInsensitive bool // ignore letter case (rg -i)
	Multiline       bool // a match may span lines and '.' matches '\n' (rg -U --multiline-dotall)
	CRLF            bool // ^ and $ also treat "\r\n" as a line end, '.' skips '\r' (rg --crlf)
	// PCRE2: Pattern is in PCRE2's dialect (rg -P), run on regexp2 with
	// PCRE2's meaning or refused (see match_pcre_dialect.go).
	PCRE2     bool
	NoUnicode bool // \w, \d, \s, \b and -i are ASCII-only (rg --no-unicode)
	AllowNUL  bool // the pattern may match a NUL byte (rg -a)
	// NullData is rg --null-data: the pattern is compiled for data whose
	// bytes NUL, '\n' and '\r' were permuted (see nullDataByte), so that
	// records end in '\n' and rg's meaning of '.', '^' and '$' around an
	// interior '\n' is (?R)'s around '\r'.
	NullData bool

	// sentinel: compile for data where this rune (U+FFFE, or another
	// noncharacter) stands for a genuine U+FFFD (see sentinelRunes).
	sentinel rune
}

// PatternError is a pattern the searcher cannot run as rg would: one rg
// refuses too (a syntax error, look-around, a back-reference, a NUL byte,
// a literal line terminator outside multiline mode), or one rg accepts that
// rgkit cannot give rg's meaning (Err is then an *rgregex.Error of kind
// rgregex.KindUnsupported).
type PatternError struct {
	Pattern string
	Reason  string
	Err     error // the *rgregex.Error, when there is one
}

func (e *PatternError) Error() string {
	return fmt.Sprintf("native: pattern %q: %s", e.Pattern, e.Reason)
}

func (e *PatternError) Unwrap() error { return e.Err }

// Matcher is a compiled pattern. It is safe for concurrent use: one Matcher
// serves every worker of a search.
type Matcher struct {
	opts MatchOptions
	// re finds matches when Go's regexp gives rg's answer on any text: the
	// pattern has none of the assertions Go lacks. In line mode no class or
	// literal of it can match '\n', so a match never crosses a line and it
	// may run on a whole buffer or on one line with the same result; ^ and
	// $ are line anchors. nil when vm must be used.
	re *regexp.Regexp
	// vm runs the pattern with rg's Unicode word assertions (and rg -w's
	// half boundaries); set when re is nil.
	vm *pikeVM
	// asciiRe is the pattern with Unicode \b and \B spelled as Go's ASCII
	// ones: on a line of ASCII bytes they agree, and Go's regexp is faster
	// than vm. nil unless those are the only assertions Go lacks.
	asciiRe *regexp.Regexp
	// pre finds candidate positions cheaply; nil when the pattern has no
	// usable required literal.
	pre *prefilter
	// split confirms candidate lines around the literal; nil when the
	// pattern has no such shape.
	split *splitCheck
	// dfa decides line selection in line mode; nil in multiline mode.
	dfa *lineDFA
	// exact means a prefilter hit is a match by itself, so the regexp only
	// runs to report submatches.
	exact bool
	// wholeLine is the literal a line must be, all of it, for the pattern
	// (?m:^)L(?m:$) (rg -x around a literal): a candidate line is decided
	// by comparing it, not by the DFA. "" for other patterns.
	wholeLine string
	// runs finds a line's spans for a class run before a literal (see
	// runSpans), in place of re; nil for other patterns.
	runs *runSpans
	// lit, when set, is the one case-sensitive literal that is the whole
	// pattern: a line's submatches are its occurrences, found with
	// bytes.Index instead of the regexp.
	lit []byte
	// multi: rg -U with a pattern that can match '\n' or holds an anchor
	// (of the text or of a line). Any other pattern finds the same lines
	// in line mode, which is faster.
	multi bool
	// ml and mlASCII are how a multiline search iterates re and asciiRe
	// (see mlIter), read off the pattern once rather than per file.
	ml, mlASCII mlShape
	// midEmpty: the pattern matches empty anywhere, so rg also finds an
	// empty match inside each character (see midCharEach).
	midEmpty bool
	// emptyOK means the pattern can match the empty string, so every line
	// is a candidate and the prefilter cannot be trusted to skip lines.
	emptyOK bool
	// textVM is set when the pattern holds \A (or ^ under (?-m)). rg
	// selects lines one by one, where \A holds at every line start, but
	// finds the spans to report in its buffer, where \A holds only at the
	// buffer's start: a later line matches with no span. textVM finds
	// those spans with the line's previous byte in view.
	textVM *pikeVM
	// sentinel runs in place of this Matcher on data holding a genuine
	// U+FFFD, which this one's classes miss (see sentinelRunes); nil when
	// no class, '.' or literal of the pattern holds U+FFFD. spares are
	// the Matchers for the other sentinels, compiled when data holds
	// U+FFFE too.
	sentinel *Matcher
	spares   *spareSentinels
}

// Compile builds a Matcher with rg 15's semantics: the pattern is read in
// rg's dialect (Unicode \w \d \s \b, simple case folding under -i), -w
// is rg 14+'s \b{start-half}(?:pattern)\b{end-half}, in line mode no part
// of the pattern matches '\n', and '.' and broad classes never match a
// byte of invalid UTF-8 (Go would decode it as U+FFFD and match it).
func Compile(o MatchOptions) (*Matcher, error) {
	if o.PCRE2 {
		return compilePCREMatcher(o)
	}
	pat := o.Pattern
	if o.Fixed {
		pat = regexp.QuoteMeta(pat) // Go's escapes are valid in rg's dialect
	}
	tree, err := rgregex.Parse(pat, rgregex.Options{
		CaseInsensitive: o.CaseInsensitive, DotNL: o.Multiline, CRLF: o.CRLF, NoUnicode: o.NoUnicode, AllowNUL: o.AllowNUL})
	if err != nil {
		return nil, &PatternError{Pattern: o.Pattern, Reason: err.Error(), Err: err}
	}
	tree = tree.Simplify()
	if o.NullData {
		tree = permuteForNullData(tree)
	}
	if o.CRLF && !o.Multiline {
		if err := stripCR(tree); err != nil {
			return nil, &PatternError{Pattern: o.Pattern, Reason: err.Error()}
		}
	}
	bytesMode := rgregex.MatchesBytes(tree) // (its VM reads a genuine U+FFFD as bytes: no sentinel)
	var sentinel *Matcher
	if o.sentinel != 0 {
		toSentinel(tree, o.sentinel)
	} else if holdsFFFD(tree) && !bytesMode {
		so := o
		so.sentinel = sentinelRunes[0]
		sentinel, _ = Compile(so) // (it compiles as this one does; nil keeps the old answer)
	}
	if err := rewriteForRg(tree, o.Multiline); err != nil {
		return nil, &PatternError{Pattern: o.Pattern, Reason: err.Error()}
	}
	// An anchor at the text's start or end (\A, \z, (?-m)^ and $) is one
	// place in the file under -U, not one per line: it needs the whole
	// file too. So does a line anchor, as rg decides it: a pattern that
	// holds one may match next to a '\n', so rg's -U searches the whole
	// text, and its blocks (matches on adjacent lines printed as one,
	// with the first one's column) follow.
	anchored := hasOp(tree, syntax.OpBeginText) || hasOp(tree, syntax.OpEndText) ||
		hasOp(tree, syntax.OpBeginLine) || hasOp(tree, syntax.OpEndLine) ||
		!o.NullData && (holdsAssertion(tree, rgregex.LineStartCRLF) || holdsAssertion(tree, rgregex.LineEndCRLF)) // (--crlf's ^ and $; --null-data's own stand for its permuted ones)
	m := &Matcher{opts: o, multi: o.Multiline && (canMatchNewline(tree) || anchored), sentinel: sentinel}
	if sentinel != nil {
		m.spares = &spareSentinels{}
	}
	full := tree
	switch {
	case o.Word && o.NoUnicode:
		// rg --no-unicode -w: the half boundaries are ASCII ones.
		full = &syntax.Regexp{Op: syntax.OpConcat, Sub: []*syntax.Regexp{
			rgregex.AssertionNode(rgregex.WordStartHalfASCII), tree, rgregex.AssertionNode(rgregex.WordEndHalfASCII)}}
	case o.Word:
		full = rgregex.Word(tree)
	}
	if bytesMode {
		return compileBytes(m, full)
	}
	prog, err := compileProg(full)
	if err != nil {
		return nil, &PatternError{Pattern: o.Pattern, Reason: err.Error(), Err: err}
	}
	if rgregex.HasAssertion(full) {
		m.vm = newPikeVM(prog)
		if a := asciiEquivalent(full); a != nil {
			m.asciiRe, _ = compileGo("", a)
		}
	} else if m.re, err = compileGo("", full); err != nil {
		// Go's parser refuses some trees rg accepts (a{1001}): run them
		// on the VM.
		m.re, m.vm = nil, newPikeVM(prog)
	}
	if m.multi {
		m.ml, m.mlASCII = shapeOf(m.re), shapeOf(m.asciiRe)
	}
	m.midEmpty = !m.multi && emptyWithoutAssertion(full)
	m.emptyOK = m.matchBytes(nil)
	if !m.multi && hasOp(full, syntax.OpBeginText) {
		m.textVM = newPikeVM(prog)
	}
	if !m.multi {
		m.dfa = newLineDFA(prog)
	}
	if !m.emptyOK {
		m.pre, m.exact = buildPrefilter(tree)
		if o.Word || m.multi {
			m.exact = false
		} else if !m.exact {
			m.split = buildSplit(tree, m.pre)
		}
		if !m.multi && !o.Word {
			m.wholeLine = wholeLineLiteral(tree, m.pre)
		}
		if m.re != nil && !m.multi && !o.Word && !m.exact {
			m.runs = buildRunSpans(tree, m.pre)
		}
		if m.exact && m.textVM == nil && len(m.pre.finders) == 1 && !m.pre.finders[0].fold && len(m.pre.finders[0].litB) > 0 {
			m.lit = m.pre.finders[0].litB
		}
	}
	return m, nil
}

// compilePCREMatcher builds a Matcher for rg -P: regexp2 finds every
// match (there is no prefilter or DFA), one line at a time, or over the
// whole text with -U, where rg's PCRE2 searcher always runs multiline.
func compilePCREMatcher(o MatchOptions) (*Matcher, error) {
	if o.NullData && pcreSeesLineEnds(o) {
		return nil, errPCRENullData
	}
	px, err := compilePCRE(pcrePattern(o), o.CaseInsensitive, pcreModeFor(o))
	if err != nil {
		return nil, err
	}
	m := &Matcher{opts: o, vm: &pikeVM{px: px}, multi: o.Multiline}
	m.emptyOK = m.matchBytes(nil)
	if px.required != "" && !m.emptyOK {
		lit := &syntax.Regexp{Op: syntax.OpLiteral, Rune: []rune(px.required)}
		if px.requiredFold {
			lit.Flags = syntax.FoldCase
		}
		m.pre, _ = buildPrefilter(lit) // a candidate only: regexp2 decides
	}
	return m, nil
}

// errPCRENullData refuses what the PCRE2 emulation would answer wrongly.
var errPCRENullData = fmt.Errorf("%w: -P with --null-data and a pattern that names or anchors at line ends (^ $ . \\ [, a NUL, CR or LF byte): the pure-Go PCRE2 emulation cannot run it on --null-data's records; rg's own -P can (rgkit fetch installs rg 15)", search.ErrUnsupported)

// pcreSeesLineEnds reports a -P pattern that could see the bytes
// --null-data permutes (see nullDataByte: the data's '\n', '\r' and NUL are
// not themselves there) or the line ends regexp2 anchors at: one with an
// anchor, a dot, an escape or a class, or one of those bytes itself (with
// -F, only the bytes). The rest match the permuted data as they match rg's.
func pcreSeesLineEnds(o MatchOptions) bool {
	if o.Fixed {
		return strings.ContainsAny(o.Pattern, "\n\r\x00")
	}
	return strings.ContainsAny(o.Pattern, "^$.\\[\n\r\x00")
}

// Multiline reports whether the Matcher searches the whole text rather
// than line by line: under -U, unless (outside -P) no part of the pattern
// can match '\n', as in rg, which then searches line by line.
func (m *Matcher) Multiline() bool { return m.multi }

// Options returns the options the Matcher was compiled with.
func (m *Matcher) Options() MatchOptions { return m.opts }

// Spans returns the byte ranges rg reports as matches in one line (with
// -w, the whole-word matches): for a caller that has the line but not the
// whole file, such as an engine re-spanning another tool's output. line is
// the line without its '\n' (keep a '\r' before it: rg sees it). The line
// is taken to start the file: a pattern with \A has spans on a file's
// first line only (see Matcher.textVM).
func (m *Matcher) Spans(line []byte) [][2]int {
	m, line = m.withSentinel(line)
	return m.appendSpans(line, nil)
}

// WordSpans is Spans, kept for callers written for rg 13's -w, whose spans
// depended on rg's read buffers. Since rg 14 they do not: atBufferStart is
// ignored.
//
// Deprecated: use Spans.
func (m *Matcher) WordSpans(line []byte, atBufferStart bool) [][2]int {
	return m.Spans(line)
}

// matchBytes reports whether b holds a match (b is a line, or the whole
// text in multiline mode).
func (m *Matcher) matchBytes(b []byte) bool {
	switch {
	case m.re != nil:
		return m.re.Match(b)
	case m.asciiRe != nil && isASCII(b):
		return m.asciiRe.Match(b)
	}
	_, _, ok := m.vm.find(b, 0, true)
	return ok
}

// appendSpans appends the spans of every match in b, as Go's FindAllIndex
// and rg's find_iter find them.
func (m *Matcher) appendSpans(b []byte, dst [][2]int) [][2]int {
	re := m.re
	if re == nil && m.asciiRe != nil && isASCII(b) {
		re = m.asciiRe
	}
	if m.midEmpty {
		midCharEach(b, 0, engineEach(b, 0, m.vm, re))(func(s, e int) bool { dst = append(dst, [2]int{s, e}); return true })
		return dst
	}
	if re == nil {
		return m.vm.findAll(b, 0, dst)
	}
	if r := m.runsFor(re, b); r != nil {
		r.each(b, func(s, e int) bool { dst = append(dst, [2]int{s, e}); return true })
		return dst
	}
	for _, loc := range re.FindAllIndex(b, -1) {
		dst = append(dst, [2]int{loc[0], loc[1]})
	}
	return dst
}

func hasOp(re *syntax.Regexp, op syntax.Op) bool {
	if re.Op == op {
		return true
	}
	for _, s := range re.Sub {
		if hasOp(s, op) {
			return true
		}
	}
	return false
}

// holdsAssertion reports whether re holds the placeholder for a.
func holdsAssertion(re *syntax.Regexp, a rgregex.Assertion) bool {
	if b, ok := rgregex.AssertionOf(re); ok {
		return a == b
	}
	for _, s := range re.Sub {
		if holdsAssertion(s, a) {
			return true
		}
	}
	return false
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// asciiEquivalent returns tree with Unicode \b and \B as Go's ASCII ones,
// or nil when it holds another assertion Go lacks.
func asciiEquivalent(re *syntax.Regexp) *syntax.Regexp {
	if a, ok := rgregex.AssertionOf(re); ok {
		switch a {
		case rgregex.WordBoundary:
			return &syntax.Regexp{Op: syntax.OpWordBoundary}
		case rgregex.NotWordBoundary:
			return &syntax.Regexp{Op: syntax.OpNoWordBoundary}
		}
		return nil
	}
	out := *re
	out.Sub = make([]*syntax.Regexp, len(re.Sub))
	for i, s := range re.Sub {
		if out.Sub[i] = asciiEquivalent(s); out.Sub[i] == nil {
			return nil
		}
	}
	return &out
}
