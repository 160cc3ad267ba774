package dialect

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
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

// Translation is a Query's pattern as one engine reads it.
//
// The request language is rg 15's regex dialect (see internal/rgregex and
// search.Normalize). rg reads it as is: the Rust Translation is the
// pattern itself, with only what rg's command line does not say (-F, -i
// and multiline dot-all as escapes and flags). git grep and grep are
// prefilters: they pick the files (git grep) or lines (grep) the native
// matcher then searches with rg's semantics, so their translation must
// never miss a match; it is made from rgregex's syntax tree, never by
// editing the pattern text, and is exact. How:
//   - character classes, including '.', Unicode \d \w \s, \p{..} and
//     case-folded letters, are spelled out from the tree's rune ranges
//     (for ERE under LC_ALL=C as UTF-8 byte sequences), so no engine's
//     own tables or defaults are relied on;
//   - case-insensitive matching is spelled out the same way (k becomes
//     [Kk\x{212A}]), so no engine's own -i folding is relied on;
//   - rg's Unicode word assertions (\b \B \b{start} \< ... and -w's
//     \b{start-half}/\b{end-half}) become PCRE look-around over the
//     spelled-out word class; ERE has no look-around: -w becomes the
//     wrapper (^|\W)(PAT)(\W|$), which selects the same lines, and any
//     other Unicode word assertion is refused;
//   - what cannot be said exactly is refused with search.ErrUnsupported:
//     multiline search, a NUL or line break in ERE, CRLF-aware anchors, a
//     translation larger than 64 KiB.
type Translation struct {
	// Pattern is passed with -e. For ERE with Fixed it is the literal.
	Pattern string
	// Fixed asks for -F (only for ERE, only when exact).
	Fixed bool
	// Word asks for the engine's -w (only for rg).
	Word bool
}

// Translate re-emits q's pattern (q already normalised) for d. For rg, -w
// stays rg's own flag; the other dialects get it spelled out.
func Translate(q search.Query, d Dialect) (Translation, error) {
	return TranslateWith(q, d, d != Rust)
}

// TranslateWith is Translate with the choice of spelling out -w in the
// pattern (wrapWord) or leaving it to the engine's -w (rg only). For rg,
// the spelled-out form is rg 14+'s own: \b{start-half}(?:PAT)\b{end-half}.
func TranslateWith(q search.Query, d Dialect, wrapWord bool) (Translation, error) {
	if d == Rust {
		return rust(q, wrapWord)
	}
	if q.Multiline {
		return Translation{}, fmt.Errorf("%w: multiline matching in %v (a line-by-line engine)", search.ErrUnsupported, d)
	}
	if d == ERE && q.Fixed && q.Case == search.CaseSensitive && !q.Word &&
		!strings.ContainsRune(q.Pattern, 0) && q.Pattern != "" {
		return Translation{Pattern: q.Pattern, Fixed: true}, nil
	}
	re, err := ReferenceTree(q.Pattern, q.Fixed, q.Case == search.CaseInsensitive, false)
	if err != nil {
		return Translation{}, err
	}
	e := &emitter{d: d}
	if q.Word {
		if d == PCRE {
			re = rgregex.Word(re)
		} else {
			re = e.wordWrap(re)
		}
	}
	if err := e.emit(re); err != nil {
		return Translation{}, err
	}
	t := Translation{Pattern: e.b.String()}
	if len(t.Pattern) > maxTranslated {
		return Translation{}, fmt.Errorf("%w: pattern too large once translated to %v (%d bytes)", search.ErrUnsupported, d, len(t.Pattern))
	}
	return t, nil
}

// rust is the pattern for rg: rg reads rgkit's dialect itself. rg is run
// with --case-sensitive and without --multiline-dotall, so -i and
// multiline's dot-all come as a leading flag group, which applies to the
// whole pattern (rg wraps it in a group first) and never ends inside a
// (?x) comment, as a closing parenthesis could.
func rust(q search.Query, wrapWord bool) (Translation, error) {
	pat := q.Pattern
	if q.Fixed {
		pat = regexp.QuoteMeta(pat) // Go's escapes are valid in rg's dialect
	}
	var flags string
	if q.Case == search.CaseInsensitive {
		flags += "i"
	}
	if q.Multiline {
		flags += "s"
	}
	if flags != "" {
		pat = "(?" + flags + ")" + pat
	}
	t := Translation{Pattern: pat, Word: q.Word}
	if q.Word && wrapWord {
		t.Pattern, t.Word = `\b{start-half}(?:`+pat+`)\b{end-half}`, false
		// A (?x) comment at the end would swallow the closing ')'.
		if _, err := rgregex.Parse(t.Pattern, rgregex.Options{DotNL: q.Multiline}); err != nil {
			return Translation{}, fmt.Errorf("%w: -w cannot be spelled out around this pattern: %w", search.ErrUnsupported, err)
		}
	}
	return t, nil
}

// ReferenceTree parses a pattern the way the native engine reads it: rg's
// dialect (internal/rgregex) with ^ and $ as line anchors, case folding
// when insensitive, '.' matching '\n' in multiline mode; then classes are
// adjusted to rg's matcher (rgClasses). Assertions Go lacks stay
// rgregex's placeholders.
func ReferenceTree(pattern string, fixed, fold, multiline bool) (*syntax.Regexp, error) {
	if fixed {
		pattern = regexp.QuoteMeta(pattern)
	}
	re, err := rgregex.Parse(pattern, rgregex.Options{CaseInsensitive: fold, DotNL: multiline})
	if err != nil {
		return nil, fmt.Errorf("search: pattern not normalised: %w", err)
	}
	rgClasses(re, multiline)
	return re, nil
}

// rgClasses rewrites every class, '.' included, as rg's matcher reads it
// and as the native engine does (native.rewriteForRg): outside multiline
// mode no class holds '\n'; a class of more than one character never holds
// U+FFFD, which is how Go's '.' is kept from matching invalid UTF-8.
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
	if n := runeclass.Size(cls); n > 1 && runeclass.Has(cls, utf8.RuneError) {
		cls = runeclass.Without(cls, utf8.RuneError)
	}
	re.Op, re.Rune, re.Sub = syntax.OpCharClass, cls, nil
	re.Flags &^= syntax.FoldCase
	if len(cls) == 0 {
		re.Op = syntax.OpNoMatch
	}
}

// wordClass is rg's Unicode \w as sorted ranges (rgregex's table), and
// asciiWord (?-u:\w).
var (
	wordClass = sync.OnceValue(func() []rune {
		re, err := rgregex.Parse(`\w`, rgregex.Options{})
		if err != nil || re.Op != syntax.OpCharClass {
			panic("dialect: rgregex cannot read \\w") // a bug in rgregex, not input
		}
		return re.Rune
	})
	asciiWord = []rune{'0', '9', 'A', 'Z', '_', '_', 'a', 'z'}
)

// wordWrap builds (?:^|\W)(?:re)(?:\W|$) with rg's Unicode \W, on the
// tree. In a line-by-line search it selects exactly the lines rg -w
// (\b{start-half}(?:re)\b{end-half}) selects: a match of re with no word
// character on either side is one with a line edge or a non-word
// character consumed on each side, and back.
func (e *emitter) wordWrap(re *syntax.Regexp) *syntax.Regexp {
	nonWord := runeclass.Without(negateRanges(wordClass()), '\n')
	nw := func() *syntax.Regexp { return &syntax.Regexp{Op: syntax.OpCharClass, Rune: nonWord} }
	left := &syntax.Regexp{Op: syntax.OpAlternate, Sub: []*syntax.Regexp{{Op: syntax.OpBeginLine}, nw()}}
	right := &syntax.Regexp{Op: syntax.OpAlternate, Sub: []*syntax.Regexp{nw(), {Op: syntax.OpEndLine}}}
	inner := &syntax.Regexp{Op: syntax.OpCapture, Sub: []*syntax.Regexp{re}}
	return &syntax.Regexp{Op: syntax.OpConcat, Sub: []*syntax.Regexp{left, inner, right}}
}

// negateRanges is the complement of a sorted class within 0..MaxRune.
func negateRanges(cls []rune) []rune {
	var out []rune
	next := rune(0)
	for i := 0; i < len(cls); i += 2 {
		if cls[i] > next {
			out = append(out, next, cls[i]-1)
		}
		next = cls[i+1] + 1
	}
	if next <= unicode.MaxRune {
		out = append(out, next, unicode.MaxRune)
	}
	return out
}

// emitter writes a syntax tree in PCRE or ERE (line mode only).
type emitter struct {
	d Dialect
	b strings.Builder
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
	if a, ok := rgregex.AssertionOf(re); ok {
		return e.assertion(a)
	}
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
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		return e.class([]rune{0, '\n' - 1, '\n' + 1, unicode.MaxRune})
	case syntax.OpBeginLine, syntax.OpBeginText:
		// A line-by-line search: each line is the whole text.
		e.b.WriteString("^")
	case syntax.OpEndLine, syntax.OpEndText:
		e.b.WriteString("$")
	case syntax.OpWordBoundary:
		// (?-u:\b): ASCII in PCRE without UCP and in GNU ERE under LC_ALL=C.
		e.b.WriteString(`\b`)
	case syntax.OpNoWordBoundary:
		e.b.WriteString(`\B`)
	case syntax.OpCapture:
		e.b.WriteString(e.group())
		if err := e.emit(re.Sub[0]); err != nil {
			return err
		}
		e.b.WriteString(")")
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		return e.repeat(re)
	case syntax.OpConcat:
		for _, s := range re.Sub {
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

// noMatch writes something that never matches.
func (e *emitter) noMatch() { e.b.WriteString(`\b\B`) }

// assertion writes one of rg's word assertions Go lacks as PCRE
// look-around over the word class spelled out (exact: rg too looks one
// character behind and ahead). ERE has no look-around.
func (e *emitter) assertion(a rgregex.Assertion) error {
	if e.d != PCRE {
		return e.unsupported("rg's Unicode word assertion (\\b, \\B, \\b{start}, \\<, ...)")
	}
	w := wordClass()
	switch a {
	case rgregex.WordStartASCII, rgregex.WordEndASCII, rgregex.WordStartHalfASCII, rgregex.WordEndHalfASCII:
		w = asciiWord
	case rgregex.LineStartCRLF, rgregex.LineEndCRLF:
		return e.unsupported("a CRLF-aware line anchor")
	}
	sub := &emitter{d: e.d}
	if err := sub.class(w); err != nil {
		return err
	}
	W := sub.b.String()
	after, notAfter := "(?<="+W+")", "(?<!"+W+")"
	before, notBefore := "(?="+W+")", "(?!"+W+")"
	switch a {
	case rgregex.WordBoundary:
		e.b.WriteString("(?:" + after + notBefore + "|" + notAfter + before + ")")
	case rgregex.NotWordBoundary:
		e.b.WriteString("(?:" + after + before + "|" + notAfter + notBefore + ")")
	case rgregex.WordStart, rgregex.WordStartASCII:
		e.b.WriteString(notAfter + before)
	case rgregex.WordEnd, rgregex.WordEndASCII:
		e.b.WriteString(after + notBefore)
	case rgregex.WordStartHalf, rgregex.WordStartHalfASCII:
		e.b.WriteString(notAfter)
	case rgregex.WordEndHalf, rgregex.WordEndHalfASCII:
		e.b.WriteString(notBefore)
	default:
		return e.unsupported(fmt.Sprintf("assertion %d", a))
	}
	return nil
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
		// Letters, digits and marks as themselves (PCRE runs in UTF mode):
		// a spelled-out Unicode class stays a third of the size.
		if r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)) ||
			r > 0xFF && r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)) {
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
