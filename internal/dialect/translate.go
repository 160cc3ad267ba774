package dialect

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rgkit/rgkit/internal/rgregex"
	"github.com/rgkit/rgkit/internal/runeclass"
	"github.com/rgkit/rgkit/search"
)

// Dialect is a regular-expression language an external engine reads.
type Dialect int

const (
	// Rust is ripgrep's (the Rust regex crate, Unicode mode).
	Rust Dialect = iota
	// PCRE is PCRE2 in UTF mode without UCP, as git grep -P runs it
	// under a UTF-8 locale: \w \d \s \b are ASCII, '.' is one character.
	PCRE
	// ERE is POSIX extended regular expressions with the GNU
	// extensions \b \B, under LC_ALL=C: the pattern is matched on bytes.
	ERE
)

func (d Dialect) String() string {
	return [...]string{"rust", "pcre", "ere"}[d]
}

// maxTranslated bounds a translated pattern (a Unicode class spelled out as
// UTF-8 byte sequences for ERE can grow large); beyond it the engine is
// skipped rather than handed a pattern it may choke on.
const maxTranslated = 64 << 10

// Translation is a Query's pattern re-emitted for one engine.
//
// The request language is Go RE2 syntax (see Normalize) with rg 13's
// semantics, as the native engine runs it (backends/native: ^ and $ are line
// anchors, no class matches '\n' outside multiline mode, '.' and broad
// classes never match invalid UTF-8). The Translation is made from the
// parsed syntax tree, never by editing the pattern text, and is exact: the
// engine selects the same lines as the native engine on the same text, or
// translate fails with ErrUnsupported. How:
//   - character classes, including '.', \d \w \s [[:alpha:]] and
//     case-folded letters, are spelled out from the tree's rune ranges, so
//     they are ASCII exactly where Go's are, whatever the engine's defaults;
//   - case-insensitive matching is spelled out the same way (k becomes
//     [Kk\x{212A}]), so no engine's own -i folding is relied on;
//   - literals the engines read differently (a{,3}, \Q..\E, {) come out
//     escaped;
//   - -w: rg gets -w (the native engine copies rg 13's word semantics); the
//     other dialects get rg's wrapper (?:^|\W)(?:PAT)(?:\W|$) with
//     rg's Unicode \W spelled out.
type Translation struct {
	// Pattern is passed with -e. For ERE with Fixed it is the literal.
	Pattern string
	// Fixed asks for -F (only for ERE, only when exact).
	Fixed bool
	// Word asks for the engine's -w (only for rg).
	Word bool
}

// translate re-emits q's pattern (q already normalised) for d. For rg, -w
// stays rg's own flag; the other dialects get the wrapper spelled out.
func Translate(q search.Query, d Dialect) (Translation, error) {
	return TranslateWith(q, d, d != Rust)
}

// TranslateWith is translate with the choice of spelling out -w as rg 13's
// wrapper (wrapWord) or leaving it to the engine's -w (rg only).
func TranslateWith(q search.Query, d Dialect, wrapWord bool) (Translation, error) {
	if q.Multiline && d != Rust {
		return Translation{}, fmt.Errorf("%w: multiline matching in %v (a line-by-line engine)", search.ErrUnsupported, d)
	}
	re, err := ReferenceTree(q.Pattern, q.Fixed, q.Case == search.CaseInsensitive, q.Multiline)
	if err != nil {
		return Translation{}, err
	}
	if d == ERE && q.Fixed && q.Case == search.CaseSensitive && !q.Word &&
		!strings.ContainsRune(q.Pattern, 0) && q.Pattern != "" {
		return Translation{Pattern: q.Pattern, Fixed: true}, nil
	}
	t := Translation{Word: q.Word && !wrapWord}
	if q.Word && wrapWord {
		if re, err = wordWrap(re, q.Multiline); err != nil {
			return Translation{}, err
		}
	}
	e := &emitter{d: d, multiline: q.Multiline}
	if err := e.emit(re); err != nil {
		return Translation{}, err
	}
	t.Pattern = e.b.String()
	if len(t.Pattern) > maxTranslated {
		return Translation{}, fmt.Errorf("%w: pattern too large once translated to %v (%d bytes)", search.ErrUnsupported, d, len(t.Pattern))
	}
	return t, nil
}

// ReferenceTree parses a pattern the way the native engine reads it: in
// rg's dialect (internal/rgregex: Unicode classes, ^ and $ as line
// anchors), case folding when insensitive, '.' matching '\n' in multiline
// mode; then classes are adjusted to rg's matcher (rgClasses).
//
// The assertions Go's syntax lacks (Unicode \b and \B, \b{start} and the
// like, which rgregex writes as placeholder literals) become empty
// matches: the tree then matches wherever the pattern does, and more. The
// engines that translate it (git grep, system grep) only choose the files
// the native matcher searches, so a wider pattern costs time, never
// answers; lineModeEquivalent only looks at characters.
func ReferenceTree(pattern string, fixed, fold, multiline bool) (*syntax.Regexp, error) {
	if fixed {
		pattern = regexp.QuoteMeta(pattern)
	}
	re, err := rgregex.Parse(pattern, rgregex.Options{CaseInsensitive: fold, DotNL: multiline})
	if err != nil {
		return nil, fmt.Errorf("%w: pattern not normalised: %w", search.ErrUnsupported, err)
	}
	if rgregex.MatchesBytes(re) {
		// (?-u)'s single bytes: the tools would read its byte runes as
		// characters and choose too few files.
		return nil, fmt.Errorf("%w: a pattern that matches single bytes ((?-u) '.', a negated class or \\x80-\\xFF)", search.ErrUnsupported)
	}
	re = dropAssertions(re)
	rgClasses(re, multiline)
	return re, nil
}

// dropAssertions replaces rgregex's placeholder assertions with empty
// matches (see ReferenceTree).
func dropAssertions(re *syntax.Regexp) *syntax.Regexp {
	if _, ok := rgregex.AssertionOf(re); ok {
		return &syntax.Regexp{Op: syntax.OpEmptyMatch}
	}
	for i, sub := range re.Sub {
		re.Sub[i] = dropAssertions(sub)
	}
	return re
}

// rgClasses rewrites every class, '.' included, as rg's matcher reads it:
// outside multiline mode no class holds '\n'. (A class keeps U+FFFD: the
// tools match its UTF-8 bytes, a genuine U+FFFD, never an invalid byte,
// as rg does.)
func rgClasses(re *syntax.Regexp, multiline bool) {
	var cls []rune
	switch re.Op {
	case syntax.OpAnyCharNotNL:
		cls = []rune{0, '\n' - 1, '\n' + 1, unicode.MaxRune}
	case syntax.OpAnyChar:
		cls = []rune{0, unicode.MaxRune}
	case syntax.OpCharClass:
		cls = re.Rune
	default:
		for _, sub := range re.Sub {
			rgClasses(sub, multiline)
		}
		return
	}
	if !multiline {
		cls = runeclass.Without(cls, '\n')
	}
	re.Op, re.Rune, re.Sub = syntax.OpCharClass, cls, nil
	re.Flags &^= syntax.FoldCase
	if len(cls) == 0 {
		re.Op = syntax.OpNoMatch
	}
}

// wordWrap builds rg 13's -w selection, (?:^|\W)(?:re)(?:\W|$) with rg's
// Unicode \W, on the tree, so that case folding never touches the wrapper.
func wordWrap(re *syntax.Regexp, multiline bool) (*syntax.Regexp, error) {
	side := func(src string) (*syntax.Regexp, error) {
		w, err := syntax.Parse(src, syntax.Perl&^syntax.OneLine)
		if err != nil {
			return nil, err
		}
		rgClasses(w, multiline)
		return w, nil
	}
	left, err := side(`(?:^|` + runeclass.RgNonWord + `)`)
	if err != nil {
		return nil, err
	}
	right, err := side(`(?:` + runeclass.RgNonWord + `|$)`)
	if err != nil {
		return nil, err
	}
	inner := &syntax.Regexp{Op: syntax.OpCapture, Sub: []*syntax.Regexp{re}}
	return &syntax.Regexp{Op: syntax.OpConcat, Sub: []*syntax.Regexp{left, inner, right}}, nil
}

// emitter writes a syntax tree in one Dialect.
type emitter struct {
	d         Dialect
	multiline bool
	b         strings.Builder
}

func (e *emitter) unsupported(what string) error {
	return fmt.Errorf("%w: %s has no exact %v Translation", search.ErrUnsupported, what, e.d)
}

func (e *emitter) group() string {
	if e.d == ERE {
		return "("
	}
	return "(?:"
}

func (e *emitter) emit(re *syntax.Regexp) error {
	switch re.Op {
	case syntax.OpNoMatch:
		e.noMatch()
	case syntax.OpEmptyMatch:
		e.b.WriteString(e.group() + ")")
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 {
				if orbit := foldOrbit(r); len(orbit) > 2 {
					if err := e.class(orbit); err != nil {
						return err
					}
					continue
				}
			}
			if err := e.literal(r); err != nil {
				return err
			}
		}
	case syntax.OpCharClass:
		return e.class(re.Rune)
	case syntax.OpAnyCharNotNL:
		if e.d == ERE {
			return e.class([]rune{0, '\n' - 1, '\n' + 1, unicode.MaxRune})
		}
		e.b.WriteString(".")
	case syntax.OpAnyChar:
		if e.d == ERE {
			if e.multiline {
				return e.unsupported("'.' matching a line break")
			}
			return e.class([]rune{0, '\n' - 1, '\n' + 1, unicode.MaxRune})
		}
		e.b.WriteString("(?s:.)")
	case syntax.OpBeginLine, syntax.OpBeginText, syntax.OpEndLine, syntax.OpEndText:
		e.anchor(re.Op)
	case syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		b := `\b`
		if re.Op == syntax.OpNoWordBoundary {
			b = `\B`
		}
		if e.d == Rust {
			b = "(?-u:" + b + ")"
		}
		e.b.WriteString(b)
	case syntax.OpCapture:
		e.b.WriteString(e.group())
		if err := e.emit(re.Sub[0]); err != nil {
			return err
		}
		e.b.WriteString(")")
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		return e.repeat(re)
	case syntax.OpConcat:
		subs := re.Sub
		if e.d == Rust {
			subs = beginAnchorsFirst(subs)
		}
		for _, s := range subs {
			if err := e.emit(s); err != nil {
				return err
			}
		}
	case syntax.OpAlternate:
		e.b.WriteString(e.group())
		for i, s := range re.Sub {
			if i > 0 {
				e.b.WriteString("|")
			}
			if err := e.emit(s); err != nil {
				return err
			}
		}
		e.b.WriteString(")")
	default:
		return e.unsupported(fmt.Sprintf("regexp op %v", re.Op))
	}
	return nil
}

// beginAnchorsFirst reorders each run of consecutive zero-width
// assertions in a concatenation so that its begin anchors (^, \A) come
// first. rg 13's regex engine never matches an assertion followed by a line
// start, \B^ or \b^, except at the very start of the text, though it does
// match ^\B and ^\b (the same condition: all hold at one position, so
// their order never changes what matches). subs is not modified.
func beginAnchorsFirst(subs []*syntax.Regexp) []*syntax.Regexp {
	out := make([]*syntax.Regexp, 0, len(subs))
	for i := 0; i < len(subs); {
		if !isAssertion(subs[i]) {
			out = append(out, subs[i])
			i++
			continue
		}
		j := i
		for j < len(subs) && isAssertion(subs[j]) {
			j++
		}
		for _, s := range subs[i:j] {
			if s.Op == syntax.OpBeginLine || s.Op == syntax.OpBeginText {
				out = append(out, s)
			}
		}
		for _, s := range subs[i:j] {
			if s.Op != syntax.OpBeginLine && s.Op != syntax.OpBeginText {
				out = append(out, s)
			}
		}
		i = j
	}
	return out
}

// isAssertion reports whether re is a zero-width assertion: an anchor or a
// word boundary.
func isAssertion(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpBeginLine, syntax.OpBeginText, syntax.OpEndLine, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return true
	}
	return false
}

// noMatch writes something that never matches (rg 13 rejects an empty class).
func (e *emitter) noMatch() {
	if e.d == Rust {
		e.b.WriteString(`(?-u:\b)(?-u:\B)`)
		return
	}
	e.b.WriteString(`\b\B`)
}

// anchor writes ^ $ \A \z. In a line-by-line search each line is the whole
// text, so all four are line anchors; in multiline mode they keep Go's
// meaning over the whole file.
func (e *emitter) anchor(op syntax.Op) {
	begin := op == syntax.OpBeginLine || op == syntax.OpBeginText
	switch {
	case !e.multiline && begin:
		e.b.WriteString("^")
	case !e.multiline:
		e.b.WriteString("$")
	case op == syntax.OpBeginLine:
		e.b.WriteString("(?m:^)")
	case op == syntax.OpEndLine:
		e.b.WriteString("(?m:$)")
	case op == syntax.OpBeginText:
		e.b.WriteString(`\A`)
	default:
		e.b.WriteString(`\z`)
	}
}

func (e *emitter) repeat(re *syntax.Regexp) error {
	sub := re.Sub[0]
	atom := isAtom(sub, e.d)
	if !atom {
		e.b.WriteString(e.group())
	}
	if err := e.emit(sub); err != nil {
		return err
	}
	if !atom {
		e.b.WriteString(")")
	}
	switch re.Op {
	case syntax.OpStar:
		e.b.WriteString("*")
	case syntax.OpPlus:
		e.b.WriteString("+")
	case syntax.OpQuest:
		e.b.WriteString("?")
	default:
		switch {
		case re.Max == -1:
			fmt.Fprintf(&e.b, "{%d,}", re.Min)
		case re.Min == re.Max:
			fmt.Fprintf(&e.b, "{%d}", re.Min)
		default:
			fmt.Fprintf(&e.b, "{%d,%d}", re.Min, re.Max)
		}
	}
	// Laziness changes which match is reported, never whether a line
	// matches; ERE has none, and spans come from the reference matcher.
	if re.Flags&syntax.NonGreedy != 0 && e.d != ERE {
		e.b.WriteString("?")
	}
	return nil
}

// isAtom reports whether re is emitted as one unit a repetition operator can
// follow without a group. Classes always are (ERE alternations come out in
// parentheses); so is a single character, unless it is several bytes in ERE.
func isAtom(re *syntax.Regexp, d Dialect) bool {
	switch re.Op {
	case syntax.OpLiteral:
		if len(re.Rune) != 1 {
			return false
		}
		r := re.Rune[0]
		if d != ERE || r < utf8.RuneSelf {
			return true
		}
		return re.Flags&syntax.FoldCase != 0 && len(foldOrbit(r)) > 2
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL,
		syntax.OpCapture, syntax.OpAlternate, syntax.OpEmptyMatch:
		return true
	}
	return false
}

// foldOrbit returns the simple case-folding orbit of r as a sorted class
// (pairs of lo, hi), as Go's (?i) matches it.
func foldOrbit(r rune) []rune {
	set := []rune{r}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		set = append(set, f)
	}
	return toRanges(set)
}

// toRanges sorts runes into a class of single-rune ranges.
func toRanges(rs []rune) []rune {
	for i := 1; i < len(rs); i++ {
		for j := i; j > 0 && rs[j] < rs[j-1]; j-- {
			rs[j], rs[j-1] = rs[j-1], rs[j]
		}
	}
	out := make([]rune, 0, 2*len(rs))
	for _, r := range rs {
		out = append(out, r, r)
	}
	return out
}

// literal writes one character matched exactly.
func (e *emitter) literal(r rune) error {
	if e.d == ERE {
		switch {
		case r == 0 || r == '\n':
			return e.unsupported(fmt.Sprintf("the character %U", r))
		case r < utf8.RuneSelf && strings.ContainsRune(`.[]()*+?{}|^$\`, r):
			e.b.WriteByte('\\')
			e.b.WriteRune(r)
		default:
			e.b.WriteRune(r)
		}
		return nil
	}
	switch {
	case r < utf8.RuneSelf && strings.ContainsRune(`\.+*?()|[]{}^$#&-~`, r):
		e.b.WriteByte('\\')
		e.b.WriteRune(r)
	case unicode.IsPrint(r) && r != utf8.RuneError && !unicode.IsSpace(r) || r == ' ':
		e.b.WriteRune(r)
	default:
		fmt.Fprintf(&e.b, `\x{%X}`, r)
	}
	return nil
}

// class writes a character class given as sorted pairs (lo, hi).
func (e *emitter) class(ranges []rune) error {
	if len(ranges) == 0 {
		e.noMatch()
		return nil
	}
	if e.d == ERE {
		return e.classERE(ranges)
	}
	if len(ranges) == 2 && ranges[0] == 0 && ranges[1] == unicode.MaxRune {
		e.b.WriteString("(?s:.)")
		return nil
	}
	if len(ranges) == 2 && ranges[0] == ranges[1] {
		return e.literal(ranges[0])
	}
	e.b.WriteString("[")
	item := func(r rune) {
		if r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			e.b.WriteRune(r)
		} else {
			fmt.Fprintf(&e.b, `\x{%X}`, r)
		}
	}
	for i := 0; i < len(ranges); i += 2 {
		// Surrogates are not characters: Rust and PCRE refuse them.
		for _, r := range splitSurrogates(ranges[i], ranges[i+1]) {
			item(r[0])
			if r[1] != r[0] {
				e.b.WriteByte('-')
				item(r[1])
			}
		}
	}
	e.b.WriteString("]")
	return nil
}

func splitSurrogates(lo, hi rune) [][2]rune {
	const sLo, sHi = 0xD800, 0xDFFF
	var out [][2]rune
	if lo < sLo {
		out = append(out, [2]rune{lo, min(hi, sLo-1)})
	}
	if hi > sHi {
		out = append(out, [2]rune{max(lo, sHi+1), hi})
	}
	return out
}

// classERE writes a class for a byte-oriented ERE (LC_ALL=C): the ASCII
// members as one bracket expression, each non-ASCII range as UTF-8 byte
// sequences, all as alternatives. NUL and '\n' are left out: searched text
// never contains either (a NUL makes a file binary; lines end at '\n').
func (e *emitter) classERE(ranges []rune) error {
	var ascii [128]bool
	var alts []string
	for i := 0; i < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		for r := lo; r <= min(hi, 0x7F); r++ {
			ascii[r] = true
		}
		if hi >= 0x80 {
			for _, seq := range rgregex.UTF8Sequences(max(lo, 0x80), hi) {
				alts = append(alts, seqERE(seq))
			}
		}
	}
	ascii[0], ascii['\n'] = false, false
	if b := bracketERE(ascii); b != "" {
		alts = append([]string{b}, alts...)
	}
	switch len(alts) {
	case 0:
		e.noMatch()
	case 1:
		if ranges[len(ranges)-1] < utf8.RuneSelf {
			e.b.WriteString(alts[0]) // one ASCII bracket or character: an atom
			break
		}
		fallthrough
	default:
		e.b.WriteString("(" + strings.Join(alts, "|") + ")")
	}
	return nil
}

// bracketERE writes a POSIX bracket expression for a set of ASCII bytes:
// ']' first, '^' not first, '[' and '-' last, so none is read as syntax.
func bracketERE(set [128]bool) string {
	n := 0
	var only byte
	for i, in := range set {
		if in {
			n++
			only = byte(i)
		}
	}
	switch {
	case n == 0:
		return ""
	case n == 1 && strings.IndexByte(`.[]()*+?{}|^$\`, only) >= 0:
		return `\` + string(only)
	case n == 1:
		return string(only)
	}
	var b strings.Builder
	b.WriteByte('[')
	if set[']'] {
		b.WriteByte(']')
	}
	special := func(c int) bool { return c == ']' || c == '^' || c == '[' || c == '-' }
	for c := 1; c < 128; c++ {
		if !set[c] || special(c) {
			continue
		}
		end := c
		for end+1 < 128 && set[end+1] && !special(end+1) {
			end++
		}
		b.WriteByte(byte(c))
		if end > c+1 {
			b.WriteByte('-')
		}
		if end > c {
			b.WriteByte(byte(end))
		}
		c = end
	}
	if set['^'] {
		if b.Len() == 1 {
			// '^' first would negate: put it after another member, or alone.
			if !set['['] && !set['-'] {
				return `\^`
			}
			if set['['] {
				b.WriteString("[^")
				set['['] = false
			} else {
				b.WriteString("-^")
				set['-'] = false
			}
		} else {
			b.WriteByte('^')
		}
	}
	if set['['] {
		b.WriteByte('[')
	}
	if set['-'] {
		b.WriteByte('-')
	}
	b.WriteByte(']')
	return b.String()
}

// seqERE is a UTF-8 byte sequence (rgregex.UTF8Sequences) as an ERE for a
// byte-oriented grep: a byte, or a bracket of bytes, per position.
func seqERE(seq rgregex.UTF8Seq) string {
	var b strings.Builder
	for _, r := range seq {
		if r.Lo == r.Hi {
			b.WriteByte(r.Lo)
		} else {
			b.WriteByte('[')
			b.WriteByte(r.Lo)
			b.WriteByte('-')
			b.WriteByte(r.Hi)
			b.WriteByte(']')
		}
	}
	return b.String()
}
