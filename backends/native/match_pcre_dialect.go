package native

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"

	"github.com/rgkit/rgkit/internal/ucd"
)

// rg -P hands its pattern to PCRE2 10.45 in UTF and UCP mode with
// PCRE2_MATCH_INVALID_UTF. rgkit runs it on regexp2, whose dialect is
// .NET's; translatePCRE rewrites a PCRE2 pattern into a regexp2 pattern
// with the same meaning, or refuses a construct it cannot give PCRE2's
// meaning (docs/pcre.md lists both). The rewrites:
//
//   - \w \d \s \h \v (and negations) and \b \B spelled with PCRE2's UCP
//     classes (\w is [\p{L}\p{N}\p{Mn}\p{Pc}] since PCRE2 10.43; .NET's
//     differ in \p{N}, U+0085 and more);
//   - every character class and every '.' excludes the invalid-UTF-8
//     stand-ins (see pcreInvalidLo): PCRE2 never matches an invalid byte,
//     not even with [^x];
//   - Python-style (?P<n>), (?P=n), \g{n}, \g{-n}, \k{n}, \o{}, {,n};
//   - '[' inside a class is literal (in .NET "-[" would subtract).

// pcreInvalidLo..pcreInvalidHi stand for the bytes of invalid UTF-8 in the
// rune text regexp2 searches: byte b becomes pcreInvalidLo+b-0x80 (ASCII
// bytes are always valid). They are lone surrogates, which no valid UTF-8
// decodes to, and the translated pattern matches none of them.
const (
	pcreInvalidLo = 0xDC80
	pcreInvalidHi = 0xDCFF
)

// pcreMidProbe stands for the inside of a multi-byte character, where
// rg's iteration can restart (see pcreProg.midChar): there PCRE2 matches
// no character, no look-behind, and neither \b nor \B.
const pcreMidProbe = 0xDB7F

// pcreNoInvalid is the class subtraction that keeps the stand-ins (and
// the probe) out.
const pcreNoInvalid = `-[\uDB7F-\uDCFF]`

// pcreSets are the class contents (without brackets) of \w, \d, \s, \h
// and \v, and the POSIX classes, in one of PCRE2's modes.
type pcreSets struct {
	word, digit, space, h, v string
	posix                    map[string]string
}

// pcreUCP is UTF and UCP mode (rg's default); pcreASCII is neither (rg
// --no-unicode), where each byte is a character: a byte 0x80-0xFF is its
// stand-in (see pcreByte).
var (
	pcreUCP   = pcreSets{pcreWordSet, pcreDigitSet, pcreSpaceSet, pcreHSpace, pcreVSpace, pcrePosixUCP}
	pcreASCII = pcreSets{`A-Za-z0-9_`, `0-9`, `\t\n\x0B\f\r\x20`, `\t\x20\uF7A0`, `\n\x0B\f\r\uF785`, pcrePosixASCII}
)

// pcreByte is the rune that stands for byte b without UTF (rg
// --no-unicode): b itself when ASCII, else a private-use code point from
// pcreByteLo, which no case folding touches. (Not the surrogates of
// pcreInvalidLo: regexp2 v2.13.0 fails to match a set of several lone
// surrogates, such as [\uDCCE\uDCB4] or \uDCA2|\uDCA3.)
func pcreByte(b byte) rune {
	if b < utf8.RuneSelf {
		return rune(b)
	}
	return pcreByteLo + rune(b) - 0x80
}

// pcreByteLo stands for byte 0x80 without UTF (see pcreByte).
const pcreByteLo = 0xF780

// PCRE2's UCP class contents (without brackets).
const (
	pcreWordSet  = `\p{L}\p{N}\p{Mn}\p{Pc}`
	pcreDigitSet = `\p{Nd}`
	pcreSpaceSet = `\t\n\x0B\f\r\x85\u180E\p{Z}` // [\p{Z}\h\v]
	pcreHSpace   = `\t\x20\xA0\u1680\u180E\u2000-\u200A\u202F\u205F\u3000`
	pcreVSpace   = `\n\x0B\f\r\x85\u2028\u2029`
)

// PCRE2Unsupported is a PCRE2 construct rgkit's emulation refuses rather
// than answer differently from rg -P.
type PCRE2Unsupported struct {
	Construct string // as written
	Why       string
}

func (e *PCRE2Unsupported) Error() string {
	return fmt.Sprintf("%s is not supported by rgkit's PCRE2 emulation (%s)", e.Construct, e.Why)
}

// pcreSyntaxError is a pattern PCRE2 itself rejects, found while
// translating (regexp2 would accept it).
type pcreSyntaxError struct {
	offset int
	msg    string
}

func (e *pcreSyntaxError) Error() string {
	return fmt.Sprintf("error compiling pattern at offset %d: %s", e.offset, e.msg)
}

// pcreGroup is one open group of the pattern being translated.
type pcreGroup struct {
	dotall, extended bool // the flags in force inside it
	lookbehind       bool
	lookaround       bool // inside any look-around (\K is refused there, as PCRE2 does)
	lookbehindAt     int  // where the innermost look-behind opened
	flagsOnly        bool // a (?flags) with no body: closes with its parent
}

// pcreLits finds literals every match must contain, for the prefilter:
// runs of literal characters in sequence, through groups that neither
// alternate nor may be skipped, and through positive look-arounds (in
// line mode they look inside the line too).
type pcreLits struct {
	levels  []pcreLitLevel
	lastLit bool     // the previous item was a literal character
	pending []string // the runs of a group just closed, until its quantifier is seen
}

type pcreLitLevel struct {
	runs []string
	cur  []rune
	alt  bool // holds a '|'
	void bool // a negative look-around or a condition: its literals are not required
}

func (l *pcreLits) top() *pcreLitLevel { return &l.levels[len(l.levels)-1] }

func (l *pcreLits) endRun() {
	t := l.top()
	if len(t.cur) > 0 {
		t.runs = append(t.runs, string(t.cur))
		t.cur = nil
	}
}

func (l *pcreLits) commit() {
	l.top().runs = append(l.top().runs, l.pending...)
	l.pending = nil
}

func (l *pcreLits) literal(r rune) {
	l.commit()
	l.top().cur = append(l.top().cur, r)
	l.lastLit = true
}

// other is any item that is not a literal character.
func (l *pcreLits) other() {
	l.endRun()
	l.commit()
	l.lastLit = false
}

// quantifier applies to the previous item; min0 when it may repeat zero times.
func (l *pcreLits) quantifier(min0 bool) {
	t := l.top()
	if l.lastLit && min0 && len(t.cur) > 0 {
		t.cur = t.cur[:len(t.cur)-1]
	}
	l.endRun()
	if min0 {
		l.pending = nil
	}
	l.commit()
	l.lastLit = false
}

func (l *pcreLits) open(void bool) {
	l.other()
	l.levels = append(l.levels, pcreLitLevel{void: void})
}

func (l *pcreLits) close() {
	l.endRun()
	g := l.top()
	l.levels = l.levels[:len(l.levels)-1]
	l.pending = nil
	if !g.alt && !g.void {
		l.pending = g.runs
	}
	l.lastLit = false
}

// longest is the longest required literal ("" for none).
func (l *pcreLits) longest() string {
	l.other()
	if len(l.levels) != 1 || l.top().alt {
		return ""
	}
	best := ""
	for _, r := range l.top().runs {
		if len(r) > len(best) {
			best = r
		}
	}
	return best
}

type pcreTranslator struct {
	src []rune
	i   int
	// mayFoldCase: -i, or a flag group that may set (?i), anywhere;
	// dashI: -i
	mayFoldCase, dashI bool
	out                strings.Builder
	stack              []pcreGroup
	cur                pcreGroup // flags in force
	captures           int       // capturing groups opened so far
	noAuto             bool      // (?n): plain groups do not capture
	lits               pcreLits
	caseless           bool // a (?i) appears: literals are required up to case
	// In a class: whether it is negated, and the bodies of the negated
	// shorthands and properties in it (see class).
	classNegated bool
	classNeg     []string
	// kSeen is the group number \K's marker group takes (the first \K's
	// position); kNum is that number known from a first pass, so that
	// references to later groups can be renumbered.
	kSeen, kNum int
	lastAssert  bool // the last item was an assertion that takes no quantifier
	crlf        bool // '\r' ends a line too (pcreMode.crlf)
	crOrLF      bool // a literal '\r' or '\n' was written (pcreTranslation.crOrLF)
	sets        pcreSets
	noInv       string // pcreNoInvalid, or "" without UTF: there every byte is a character
	bytes       bool   // without UTF (pcreMode.noUnicode): src holds pcreByte runes
}

// notNewline is the class body of what '.' and \N match without dotall.
func (t *pcreTranslator) notNewline() string {
	if t.crlf {
		return `[^\r\n` + t.noInv + `]`
	}
	return `[^\n` + t.noInv + `]`
}

// quantifierAt reports a {n}, {n,}, {n,m} or {,m} quantifier at t.i.
func (t *pcreTranslator) quantifierAt() bool {
	j := t.i + 1
	for j < len(t.src) && (t.src[j] >= '0' && t.src[j] <= '9' || t.src[j] == ',') {
		j++
	}
	body := string(t.src[t.i+1 : min(j, len(t.src))])
	return j < len(t.src) && t.src[j] == '}' && body != "" && body != "," && strings.Count(body, ",") <= 1
}

// bytesAt turns a syntax error's offset, counted in runes while
// translating, into bytes, as PCRE2 counts it.
func (t *pcreTranslator) bytesAt(err error) error {
	if se, ok := err.(*pcreSyntaxError); ok {
		se.offset = len(string(t.src[:min(max(se.offset, 0), len(t.src))]))
	}
	return err
}

// pcreKGroup names the group that marks \K.
const pcreKGroup = "rgkitK"

// userGroup is the regexp2 number of the user's group n.
func (t *pcreTranslator) userGroup(n int) int {
	if t.kNum > 0 && n >= t.kNum {
		return n + 1
	}
	return n
}

// pcreTranslation is a translated pattern and what the prefilter may use.
type pcreTranslation struct {
	pattern  string
	required string // a literal every match contains ("" for none)
	caseless bool   // required is only required up to case
	kGroup   int    // the regexp2 group marking \K (0 for none)
	// crOrLF says the pattern names '\r' or '\n' itself (PCRE2's
	// HASCRORLF), which keeps PCRE2 from skipping the '\n' of a "\r\n".
	crOrLF bool
}

// translatePCRE rewrites pattern (PCRE2 syntax) for regexp2. dotall is
// PCRE2_DOTALL (rg -U --multiline-dotall).
// pcreMode is how rg sets up PCRE2 beyond the pattern: dotall (-U
// --multiline-dotall) and crlf (--crlf, PCRE2's any-CRLF newline
// convention: '\r', '\n' and "\r\n" all end a line for '^', '$', '\Z',
// '.' and '\N').
type pcreMode struct {
	dotall, crlf bool
	// noUnicode is rg --no-unicode: PCRE2 without UTF and UCP, matching
	// bytes; \w, \d, \s, \b, POSIX classes and -i are ASCII.
	noUnicode bool
	caseless  bool // -i
}

func translatePCRE(pattern string, mode pcreMode) (pcreTranslation, error) {
	if !mode.noUnicode && !utf8.ValidString(pattern) {
		return pcreTranslation{}, &pcreSyntaxError{msg: "UTF-8 error in the pattern"}
	}
	tr, kSeen, err := translatePCREPass(pattern, mode, 0)
	if err == nil && kSeen > 0 {
		// \K's group renumbers the groups after it: again, knowing where.
		tr, _, err = translatePCREPass(pattern, mode, kSeen)
		tr.kGroup = kSeen
	}
	if mode.noUnicode && strings.ContainsFunc(tr.required, func(r rune) bool { return r >= utf8.RuneSelf }) {
		tr.required = "" // the prefilter looks for UTF-8, not stand-ins
	}
	return tr, err
}

func translatePCREPass(pattern string, mode pcreMode, kNum int) (pcreTranslation, int, error) {
	t := &pcreTranslator{src: []rune(pattern), cur: pcreGroup{dotall: mode.dotall}, kNum: kNum, crlf: mode.crlf, sets: pcreUCP, noInv: pcreNoInvalid}
	if mode.noUnicode {
		t.src = make([]rune, len(pattern))
		for i := 0; i < len(pattern); i++ {
			t.src[i] = pcreByte(pattern[i])
		}
		t.sets, t.noInv, t.bytes = pcreASCII, "", true
	}
	t.dashI, t.mayFoldCase = mode.caseless, mode.caseless || flagsMaySetI(pattern)
	t.lits.levels = []pcreLitLevel{{}}
	for t.i < len(t.src) {
		if err := t.step(); err != nil {
			return pcreTranslation{}, 0, t.bytesAt(err)
		}
	}
	for _, g := range t.stack {
		if !g.flagsOnly {
			return pcreTranslation{}, 0, t.bytesAt(&pcreSyntaxError{offset: len(t.src), msg: "missing closing parenthesis"})
		}
	}
	return pcreTranslation{pattern: t.out.String(), required: t.lits.longest(), caseless: t.caseless, crOrLF: t.crOrLF}, t.kSeen, nil
}

func (t *pcreTranslator) peek(k int) rune {
	if t.i+k < len(t.src) {
		return t.src[t.i+k]
	}
	return -1
}

func unsupported(construct, why string) error {
	return &PCRE2Unsupported{Construct: construct, Why: why}
}

// step translates one item outside a character class.
func (t *pcreTranslator) step() error {
	c := t.src[t.i]
	if t.cur.extended {
		if c == '#' {
			for t.i < len(t.src) && t.src[t.i] != '\n' {
				t.i++
			}
			return nil
		}
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' {
			t.i++
			return nil
		}
	}
	// PCRE2 refuses a quantifier on \b, ^ and the other simple
	// assertions; their translations would take one.
	afterAssert := t.lastAssert
	t.lastAssert = false
	if afterAssert && (c == '*' || c == '+' || c == '?' || c == '{' && t.quantifierAt()) {
		end := t.i // PCRE2 points at the quantifier's last character
		if c == '{' {
			end += strings.IndexRune(string(t.src[t.i:]), '}')
		}
		return &pcreSyntaxError{offset: end, msg: "quantifier does not follow a repeatable item"}
	}
	switch c {
	case '\\':
		if strings.ContainsRune("bBAzZGK", t.peek(1)) {
			t.lastAssert = true
		}
		return t.escape(false)
	case '[':
		t.lits.other()
		return t.class()
	case '.':
		t.lits.other()
		t.i++
		if t.cur.dotall {
			t.out.WriteString(`[\s\S` + t.noInv + `]`)
		} else {
			t.out.WriteString(t.notNewline())
		}
		return nil
	case '(':
		return t.group()
	case ')':
		if !t.inGroup() {
			return &pcreSyntaxError{offset: t.i, msg: "unmatched closing parenthesis"}
		}
		t.i++
		t.out.WriteByte(')')
		t.closeGroup()
		t.lits.close()
		return nil
	case '*', '+':
		if t.cur.lookbehind {
			return t.unlimitedLookbehind()
		}
		t.lits.quantifier(c == '*')
	case '?':
		t.lits.quantifier(true)
	case '{':
		return t.brace()
	case '|':
		t.lits.other()
		t.lits.top().alt = true
	case '^', '$':
		t.lits.other()
		t.lastAssert = true
		if t.crlf {
			// regexp2's multiline anchors know '\n' only; a '\r' is a
			// line end as well.
			t.i++
			if c == '^' {
				t.out.WriteString(`(?:^|(?<=\r))`)
			} else {
				t.out.WriteString(`(?=\r|$)`)
			}
			return nil
		}
	default:
		t.lits.literal(c)
		t.crOrLF = t.crOrLF || c == '\r' || c == '\n'
	}
	t.out.WriteRune(c)
	t.i++
	return nil
}

// unlimitedLookbehind is PCRE2's error for a look-behind of unbounded
// length (regexp2 would accept it), at the look-behind's byte offset.
func (t *pcreTranslator) unlimitedLookbehind() error {
	return &pcreSyntaxError{offset: t.cur.lookbehindAt, msg: "length of lookbehind assertion is not limited"}
}

// inGroup reports an open group for a ')' to close.
func (t *pcreTranslator) inGroup() bool {
	for _, g := range t.stack {
		if !g.flagsOnly {
			return true
		}
	}
	return false
}

// closeGroup pops a group, and the (?flags) items that ended with it.
func (t *pcreTranslator) closeGroup() {
	for len(t.stack) > 0 {
		g := t.stack[len(t.stack)-1]
		t.stack = t.stack[:len(t.stack)-1]
		marker := g.flagsOnly
		g.flagsOnly = false
		t.cur = g
		if !marker {
			break
		}
	}
}

// brace handles {n}, {n,}, {n,m} and PCRE2 10.43's {,m}; other braces are
// literal in both dialects.
func (t *pcreTranslator) brace() error {
	j := t.i + 1
	for j < len(t.src) && (t.src[j] >= '0' && t.src[j] <= '9' || t.src[j] == ',') {
		j++
	}
	body := string(t.src[t.i+1 : min(j, len(t.src))])
	if j >= len(t.src) || t.src[j] != '}' || body == "" || strings.Count(body, ",") > 1 || body == "," {
		t.out.WriteString(`\{`)
		t.lits.literal('{')
		t.i++
		return nil
	}
	t.lits.quantifier(strings.HasPrefix(body, ",") || strings.TrimLeft(strings.Split(body, ",")[0], "0") == "")
	if t.cur.lookbehind && strings.HasSuffix(body, ",") {
		return t.unlimitedLookbehind()
	}
	if strings.HasPrefix(body, ",") {
		body = "0" + body
	}
	t.out.WriteString("{" + body + "}")
	t.i = j + 1
	return nil
}

// group translates the opening of a group.
func (t *pcreTranslator) group() error {
	start := t.i
	parent := t.cur
	push := func(g pcreGroup) {
		t.stack = append(t.stack, parent)
		t.cur = g
	}
	if t.peek(1) == '*' {
		return unsupported("(*VERB)", "backtracking verbs and option settings such as (*UTF) have no regexp2 equivalent")
	}
	if t.peek(1) != '?' {
		if !t.noAuto {
			t.captures++
		}
		t.i++
		t.out.WriteByte('(')
		push(parent)
		t.lits.open(false)
		return nil
	}
	t.i += 2
	rest := string(t.src[t.i:min(len(t.src), t.i+4)])
	switch {
	case strings.HasPrefix(rest, ":"), strings.HasPrefix(rest, ">"),
		strings.HasPrefix(rest, "="), strings.HasPrefix(rest, "!"):
		t.i++
		t.out.WriteString("(?" + rest[:1])
		g := parent
		g.lookaround = g.lookaround || rest[0] == '=' || rest[0] == '!'
		push(g)
		t.lits.open(rest[0] == '!')
		return nil
	case strings.HasPrefix(rest, "<="), strings.HasPrefix(rest, "<!"):
		t.out.WriteString("(?" + rest[:2])
		g := parent
		g.lookbehind, g.lookbehindAt, g.lookaround = true, start, true
		t.i += 2
		push(g)
		t.lits.open(rest[1] == '!')
		return nil
	case strings.HasPrefix(rest, "#"):
		for t.i < len(t.src) && t.src[t.i] != ')' {
			t.i++
		}
		t.i++
		return nil
	case strings.HasPrefix(rest, "P<"), strings.HasPrefix(rest, "<"), strings.HasPrefix(rest, "'"):
		if rest[0] == 'P' {
			t.i++
		}
		closer := '>'
		if t.src[t.i] == '\'' {
			closer = '\''
		}
		name, err := t.name(closer)
		if err != nil {
			return err
		}
		t.captures++
		t.out.WriteString("(?<" + name + ">")
		push(parent)
		t.lits.open(false)
		return nil
	case strings.HasPrefix(rest, "P="):
		t.i += 2
		name, err := t.name(')')
		if err != nil {
			return err
		}
		t.out.WriteString(`\k<` + name + `>`)
		t.lits.other()
		return nil
	case strings.HasPrefix(rest, "P>"), strings.HasPrefix(rest, "&"), strings.HasPrefix(rest, "R"),
		len(rest) > 0 && (rest[0] >= '0' && rest[0] <= '9' || rest[0] == '+' || rest[0] == '-' && len(rest) > 1 && rest[1] >= '0' && rest[1] <= '9'):
		return unsupported("(?"+string(t.src[t.i:min(len(t.src), t.i+2)])+"...)", "recursion and subroutine calls have no regexp2 equivalent")
	case strings.HasPrefix(rest, "|"):
		return unsupported("(?|...)", "branch-reset groups number captures differently in regexp2")
	case strings.HasPrefix(rest, "C"):
		return unsupported("(?C...)", "callouts have no regexp2 equivalent")
	case strings.HasPrefix(rest, "("):
		return t.condition(start, parent, push)
	}
	// Option settings: (?imnsx-imnsx) or (?imnsx-imnsx:...)
	j := t.i
	on := true
	g := parent
	var flags strings.Builder
	for ; j < len(t.src); j++ {
		c := t.src[j]
		switch c {
		case '-':
			on = false
		case 'i':
			t.caseless = t.caseless || on
		case 'm':
		case 'n':
			t.noAuto = on // approximate scope: PCRE2 scopes it like the others
		case 's':
			g.dotall = on
		case 'x':
			if j+1 < len(t.src) && t.src[j+1] == 'x' {
				return unsupported("(?xx)", "regexp2 has no extended-more mode")
			}
			g.extended = on
		case ')', ':':
		default:
			return unsupported("(?"+string(c)+")", "this option letter has no regexp2 equivalent")
		}
		if c == ')' || c == ':' {
			break
		}
		flags.WriteRune(c)
	}
	if j >= len(t.src) {
		return &pcreSyntaxError{offset: start, msg: "missing closing parenthesis"}
	}
	t.out.WriteString("(?" + flags.String() + string(t.src[j]))
	t.i = j + 1
	if t.src[j] == ':' {
		push(g)
		t.lits.open(false)
		return nil
	}
	// (?flags) applies to the end of the enclosing group (regexp2 scopes
	// it alike): a marker that the enclosing group's ')' pops too.
	saved := parent
	saved.flagsOnly = true
	t.stack = append(t.stack, saved)
	t.cur = g
	return nil
}

// condition handles (?(...)yes|no): a group number, a <name> or 'name',
// or a look-around assertion as the condition.
func (t *pcreTranslator) condition(start int, parent pcreGroup, push func(pcreGroup)) error {
	t.i++ // the inner '('
	t.lits.open(true)
	switch c := t.peek(0); {
	case c >= '0' && c <= '9':
		j := t.i
		for j < len(t.src) && t.src[j] >= '0' && t.src[j] <= '9' {
			j++
		}
		if j >= len(t.src) || t.src[j] != ')' {
			return unsupported("(?(...)", "this condition has no regexp2 equivalent")
		}
		n, _ := strconv.Atoi(string(t.src[t.i:j]))
		fmt.Fprintf(&t.out, "(?(%d)", t.userGroup(n))
		t.i = j + 1
	case c == '<' || c == '\'':
		closer := '>'
		if c == '\'' {
			closer = '\''
		}
		name, err := t.name(closer)
		if err != nil {
			return err
		}
		if t.peek(0) != ')' {
			return &pcreSyntaxError{offset: start, msg: "missing closing parenthesis for condition"}
		}
		t.i++
		t.out.WriteString("(?(" + name + ")")
	case c == '?' && (t.peek(1) == '=' || t.peek(1) == '!' || t.peek(1) == '<'):
		// A look-around condition: regexp2 reads (?(?=...)yes|no) alike.
		t.out.WriteString("(?")
		push(parent)
		t.i-- // re-read the '(' of the assertion as a group
		return nil
	default:
		return unsupported("(?(R)/(?(DEFINE)...", "this condition has no regexp2 equivalent")
	}
	push(parent)
	return nil
}

// name reads a group name up to closer (t.i at the opening < or ').
func (t *pcreTranslator) name(closer rune) (string, error) {
	if t.peek(0) == '<' || t.peek(0) == '\'' || t.peek(0) == '{' {
		t.i++
	}
	j := t.i
	for j < len(t.src) && t.src[j] != closer {
		c := t.src[j]
		if !(c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return "", &pcreSyntaxError{offset: j, msg: "syntax error in subpattern name (missing terminator?)"}
		}
		j++
	}
	if j >= len(t.src) || j == t.i {
		return "", &pcreSyntaxError{offset: j, msg: "subpattern name expected"}
	}
	name := string(t.src[t.i:j])
	t.i = j + 1
	return name, nil
}

// escape translates a backslash sequence, inside a class or not, and
// tells the literal finder what it was.
func (t *pcreTranslator) escape(inClass bool) error {
	if inClass {
		return t.escapeItem(true)
	}
	c := t.peek(1)
	if c == 'Q' {
		return t.escapeItem(false) // its characters are told one by one
	}
	if c == 'E' {
		t.i += 2
		return nil
	}
	if c >= 0 && c < utf8.RuneSelf && !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
		t.lits.literal(c)
	} else {
		t.lits.other()
	}
	return t.escapeItem(false)
}

func (t *pcreTranslator) escapeItem(inClass bool) error {
	if t.i+1 >= len(t.src) {
		return &pcreSyntaxError{offset: t.i + 1, msg: `\ at end of pattern`}
	}
	c := t.src[t.i+1]
	t.i += 2
	w := &t.out
	set := func(pos, neg string) error {
		switch {
		case inClass && neg == "":
			w.WriteString(pos)
		case inClass:
			return t.negatedMember(pos)
		case neg == "":
			w.WriteString("[" + pos + t.noInv + "]")
		default:
			w.WriteString("[^" + pos + t.noInv + "]")
		}
		return nil
	}
	switch c {
	case 'w':
		return set(t.sets.word, "")
	case 'W':
		return set(t.sets.word, "^")
	case 'd':
		return set(t.sets.digit, "")
	case 'D':
		return set(t.sets.digit, "^")
	case 's':
		return set(t.sets.space, "")
	case 'S':
		return set(t.sets.space, "^")
	case 'h':
		return set(t.sets.h, "")
	case 'H':
		return set(t.sets.h, "^")
	case 'v':
		return set(t.sets.v, "")
	case 'V':
		return set(t.sets.v, "^")
	case 'N':
		if t.peek(0) == '{' {
			return unsupported(`\N{...}`, "named characters are not supported by PCRE2 in this form")
		}
		if inClass {
			return &pcreSyntaxError{offset: t.i - 1, msg: `escape sequence is invalid in character class`}
		}
		w.WriteString(t.notNewline())
		return nil
	case 'b', 'B':
		if inClass {
			if c == 'b' {
				w.WriteString(`\x08`)
				return nil
			}
			return &pcreSyntaxError{offset: t.i - 1, msg: `escape sequence is invalid in character class`}
		}
		word := "[" + t.sets.word + "]"
		if c == 'b' {
			w.WriteString("(?:(?<=" + word + ")(?!" + word + ")|(?<!" + word + ")(?=" + word + "))")
		} else {
			probe := "[" + t.sets.word + `\uDB7F]`
			w.WriteString("(?:(?<=" + word + ")(?=" + word + ")|(?<!" + probe + ")(?!" + probe + "))")
		}
		return nil
	case 'p', 'P':
		return t.property(c == 'P', inClass)
	case 'Q':
		end := strings.Index(string(t.src[t.i:]), `\E`)
		var lit []rune
		if end < 0 {
			lit, t.i = t.src[t.i:], len(t.src)
		} else {
			n := utf8.RuneCountInString(string(t.src[t.i:])[:end])
			lit, t.i = t.src[t.i:t.i+n], t.i+n+2
		}
		for _, r := range lit {
			writeLiteral(w, r)
			if !inClass {
				t.lits.literal(r)
			}
		}
		return nil
	case 'E':
		return nil // an \E without \Q is ignored
	case 'x':
		if t.bytes {
			return t.byteEscape()
		}
		if t.peek(0) == '{' {
			j := strings.IndexRune(string(t.src[t.i:]), '}')
			if j < 0 {
				return &pcreSyntaxError{offset: t.i, msg: "missing terminating } in \\x{}"}
			}
			n := utf8.RuneCountInString(string(t.src[t.i:])[:j])
			return t.codePoint(string(t.src[t.i+1:t.i+n]), 16, n+1)
		}
		if d := strings.ToLower(string(t.src[t.i:min(t.i+2, len(t.src))])); d == "0a" || d == "0d" {
			t.crOrLF = true
		}
		w.WriteString(`\x`)
		return nil
	case 'o':
		if t.peek(0) != '{' {
			return &pcreSyntaxError{offset: t.i, msg: "missing opening brace after \\o"}
		}
		j := strings.IndexRune(string(t.src[t.i:]), '}')
		if j < 0 {
			return &pcreSyntaxError{offset: t.i, msg: "missing } after \\o{"}
		}
		n := utf8.RuneCountInString(string(t.src[t.i:])[:j])
		return t.codePoint(string(t.src[t.i+1:t.i+n]), 8, n+1)
	case 'g':
		if inClass {
			return &pcreSyntaxError{offset: t.i - 1, msg: `escape sequence is invalid in character class`}
		}
		return t.backrefG()
	case 'k':
		if inClass {
			return &pcreSyntaxError{offset: t.i - 1, msg: `escape sequence is invalid in character class`}
		}
		closer := map[rune]rune{'<': '>', '\'': '\'', '{': '}'}[t.peek(0)]
		if closer == 0 {
			return &pcreSyntaxError{offset: t.i, msg: `\k is not followed by a braced, angle-bracketed, or quoted name`}
		}
		name, err := t.name(closer)
		if err != nil {
			return err
		}
		w.WriteString(`\k<` + name + `>`)
		return nil
	case 'K':
		switch {
		case inClass:
			return &pcreSyntaxError{offset: t.i - 1, msg: `escape sequence is invalid in character class`}
		case t.cur.lookaround:
			return &pcreSyntaxError{offset: len(t.src), msg: `\K is not allowed in lookarounds (but see PCRE2_EXTRA_ALLOW_LOOKAROUND_BSK)`}
		}
		// An empty group marks where the reported match starts (see
		// pcreKGroup); it takes a group number, so the user's groups
		// after it are renumbered (userGroup).
		if t.kSeen == 0 {
			t.kSeen = t.captures + 1
		}
		w.WriteString("(?<" + pcreKGroup + ">)")
		return nil
	case 'C':
		return unsupported(`\C`, "matching one code unit has no regexp2 equivalent")
	case 'X':
		return unsupported(`\X`, "regexp2's grapheme clusters follow another Unicode version than PCRE2 10.45")
	case 'u', 'U', 'L', 'l':
		return &pcreSyntaxError{offset: t.i, msg: `PCRE2 does not support \F, \L, \l, \N{name}, \U, or \u`}
	case 'R':
		if inClass {
			return &pcreSyntaxError{offset: t.i - 1, msg: `escape sequence is invalid in character class`}
		}
		w.WriteString(`(?>\r\n|[` + t.sets.v + `])`)
		return nil
	}
	if c >= '1' && c <= '9' && !inClass {
		digits := string(c)
		for t.i < len(t.src) && t.src[t.i] >= '0' && t.src[t.i] <= '9' {
			digits += string(t.src[t.i])
			t.i++
		}
		if n, err := strconv.Atoi(digits); err == nil && t.kNum > 0 {
			fmt.Fprintf(w, `\%d(?:)`, t.userGroup(n))
		} else {
			w.WriteString(`\` + digits)
		}
		return nil
	}
	if c < utf8.RuneSelf && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
		// \t \n \r \f \e \a \cX \0nn \A \z \Z \G: the same in both dialects.
		if c == 'Z' && t.crlf && !inClass {
			w.WriteString(`(?=(?:\r\n|\r|\n)?\z)`)
			return nil
		}
		if c == 'r' || c == 'n' {
			t.crOrLF = true
		}
		if strings.ContainsRune("tnrfeac0AzZG", c) {
			w.WriteRune('\\')
			w.WriteRune(c)
			return nil
		}
		return &pcreSyntaxError{offset: t.i, msg: "unrecognized character follows \\"}
	}
	writeLiteral(w, c)
	return nil
}

// byteEscape translates \xhh or \x{h..} without UTF (t.i after the x):
// a value up to 0xFF is a byte (its stand-in above 0x7F), more is
// PCRE2's error.
func (t *pcreTranslator) byteEscape() error {
	var digits string
	if t.peek(0) == '{' {
		j := strings.IndexRune(string(t.src[t.i:]), '}')
		if j < 0 {
			return &pcreSyntaxError{offset: t.i, msg: "missing terminating } in \\x{}"}
		}
		digits = string(t.src[t.i+1 : t.i+j]) // ASCII up to the brace
		t.i += j + 1
	} else {
		for len(digits) < 2 && t.i < len(t.src) && strings.ContainsRune("0123456789abcdefABCDEF", t.src[t.i]) {
			digits += string(t.src[t.i])
			t.i++
		}
		if digits == "" {
			digits = "0"
		}
	}
	v, err := strconv.ParseUint(strings.TrimSpace(digits), 16, 32)
	switch {
	case err != nil && strings.TrimSpace(digits) == "":
		return &pcreSyntaxError{offset: t.i, msg: "digits missing in \\x{} or \\o{} or \\N{U+}"}
	case err != nil || v > 0xFF:
		return &pcreSyntaxError{offset: t.i - 1, msg: "character code point value in \\x{} or \\o{} is too large"}
	}
	t.crOrLF = t.crOrLF || v == '\r' || v == '\n'
	writeLiteral(&t.out, pcreByte(byte(v)))
	return nil
}

// codePoint writes \x{...} or \o{...} (digits in base) as regexp2's \x{}.
func (t *pcreTranslator) codePoint(digits string, base, skip int) error {
	v, err := strconv.ParseUint(strings.TrimSpace(digits), base, 32)
	switch {
	case err != nil && strings.TrimSpace(digits) == "":
		return &pcreSyntaxError{offset: t.i, msg: "digits missing in \\x{} or \\o{} or \\N{U+}"}
	case err != nil || v > utf8.MaxRune:
		return &pcreSyntaxError{offset: t.i, msg: "character code point value in \\x{} or \\o{} is too large"}
	case v >= 0xD800 && v <= 0xDFFF:
		return &pcreSyntaxError{offset: t.i, msg: "disallowed UTF-8/16 code point (>= 0xd800 && <= 0xdfff)"}
	}
	if t.bytes && v > 0xFF {
		return &pcreSyntaxError{offset: t.i, msg: "character code point value in \\x{} or \\o{} is too large"}
	}
	t.i += skip
	t.crOrLF = t.crOrLF || v == '\r' || v == '\n'
	if t.bytes {
		writeLiteral(&t.out, pcreByte(byte(v)))
		return nil
	}
	fmt.Fprintf(&t.out, `\x{%x}`, v)
	return nil
}

// backrefG translates \gN, \g{N}, \g{-N}, \g{name}; \g<..> and \g'..'
// (subroutine calls) are refused.
func (t *pcreTranslator) backrefG() error {
	switch t.peek(0) {
	case '<', '\'':
		return unsupported(`\g<...>`, "subroutine calls have no regexp2 equivalent")
	}
	braced := t.peek(0) == '{'
	if braced {
		t.i++
	}
	j := t.i
	for j < len(t.src) && (t.src[j] == '-' || t.src[j] == '+' || t.src[j] >= '0' && t.src[j] <= '9' || braced && t.src[j] != '}') {
		j++
	}
	ref := string(t.src[t.i:j])
	if braced {
		if j >= len(t.src) {
			return &pcreSyntaxError{offset: j, msg: `\g is not followed by a braced, angle-bracketed, or quoted name/number or by a plain number`}
		}
		j++
	}
	t.i = j
	n, err := strconv.Atoi(ref)
	switch {
	case err != nil:
		t.out.WriteString(`\k<` + ref + `>`)
		return nil
	case strings.HasPrefix(ref, "+"):
		return unsupported(`\g{+N}`, "forward relative references have no regexp2 equivalent")
	case n < 0:
		n = t.captures + 1 + n
		if n <= 0 {
			return &pcreSyntaxError{offset: j, msg: "a relative value of zero is not allowed"}
		}
	case n == 0:
		return &pcreSyntaxError{offset: j, msg: "a relative value of zero is not allowed"}
	}
	// (?:) keeps a following digit out of the group number.
	fmt.Fprintf(&t.out, `\%d(?:)`, t.userGroup(n))
	return nil
}

// property translates \p{..} \P{..} \pL; PCRE2's special properties are
// spelled out, the rest (categories, scripts) kept by name.
func (t *pcreTranslator) property(negated, inClass bool) error {
	var name string
	switch t.peek(0) {
	case '{':
		j := strings.IndexRune(string(t.src[t.i:]), '}')
		if j < 0 {
			return &pcreSyntaxError{offset: t.i, msg: "malformed \\P or \\p sequence"}
		}
		n := utf8.RuneCountInString(string(t.src[t.i:])[:j])
		name = string(t.src[t.i+1 : t.i+n])
		t.i += n + 1
	case -1:
		return &pcreSyntaxError{offset: t.i, msg: "malformed \\P or \\p sequence"}
	default:
		name = string(t.src[t.i])
		t.i++
	}
	if strings.HasPrefix(name, "^") {
		negated, name = !negated, name[1:]
	}
	var body string
	spelled := true // from internal/ucd: regexp2's -i must not fold it
	n := pcreLoose(name)
	switch n {
	case "any":
		body, spelled = `\x00-\x{10FFFF}`, false
	case "l&", "lc":
		body, spelled = `\p{Lu}\p{Ll}\p{Lt}`, false
	case "xan":
		body, spelled = `\p{L}\p{N}`, false
	case "xwd":
		body, spelled = pcreWordSet, false
	case "xsp", "xps":
		body, spelled = pcreSpaceSet, false
	case "xuc":
		return unsupported(`\p{Xuc}`, "not spelled out for regexp2")
	case "ascii":
		body = `\x00-\x7F`
	default:
		if b, ok, unknown := pcreScript(name); ok {
			body = b
			break
		} else if unknown {
			return &pcreSyntaxError{offset: t.i, msg: `unknown property after \P or \p`}
		}
		if strings.ContainsAny(name, ":=") {
			return unsupported(`\p{`+name+`}`, "property=value forms differ between PCRE2 and regexp2")
		}
		if gc, ok := pcreCategoryName(n); ok {
			b, ok := pcreCategory(gc, t.dashI)
			if !ok {
				body, spelled = `\p{`+gc+`}`, false
				break
			}
			if t.bytes && !t.dashI && t.mayFoldCase && (gc == "Lu" || gc == "Ll" || gc == "Lt") {
				return unsupported(`\p{`+name+`} with --no-unicode and (?i)`, "PCRE2 then reads it as any cased letter, which is not emulated without UTF")
			}
			body = b
			break
		}
		canon, _ := ucd.Property(n)
		switch canon {
		case "Hyphen", "":
			return &pcreSyntaxError{offset: t.i, msg: `unknown property after \P or \p`}
		case "Bidi_Mirrored":
			return unsupported(`\p{`+name+`}`, "PCRE2 10.45's table of it differs from Unicode's")
		}
		rs, ok := ucd.Ranges(ucd.Binary, canon)
		if !ok || strings.HasPrefix(canon, "Other_") {
			return &pcreSyntaxError{offset: t.i, msg: `unknown property after \P or \p`}
		}
		if inClass && t.mayFoldCase && !closedUnderFolding(rs) {
			return unsupported(`\p{`+name+`} in a class under -i or (?i)`, "regexp2 would fold its case, PCRE2 does not")
		}
		body = spellRanges(rs)
	}
	if t.bytes {
		body = pcreLatin1(body)
	}
	switch {
	case inClass && negated:
		return t.negatedMember(body)
	case inClass:
		t.out.WriteString(body)
		return nil
	}
	cls := "[" + body + t.noInv + "]"
	if negated {
		cls = "[^" + body + t.noInv + "]"
	}
	if spelled && t.mayFoldCase {
		// PCRE2's -i leaves a property alone (Lu, Ll and Lt are spelled
		// out for it above); regexp2's would fold the class
		cls = "(?-i:" + cls + ")"
	}
	t.out.WriteString(cls)
	return nil
}

// pcreLoose is a property name as PCRE2 compares names: case, spaces,
// '_' and '-' ignored.
func pcreLoose(name string) string {
	return strings.ToLower(strings.NewReplacer(" ", "", "_", "", "-", "").Replace(name))
}

// flagsMaySetI reports a flag group of pattern that holds an i: (?i),
// (?si:...), (?-i) too (a guess on the safe side).
func flagsMaySetI(pattern string) bool {
	for rest := pattern; ; {
		i := strings.Index(rest, "(?")
		if i < 0 {
			return false
		}
		rest = rest[i+2:]
		flags := rest[:len(rest)-len(strings.TrimLeft(rest, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ^-"))]
		if strings.Contains(flags, "i") {
			return true
		}
	}
}

// pcreLatin1 is a property's class body (as property spells it) for text
// without UTF (rg --no-unicode), where PCRE2 reads each byte as the
// Latin-1 code point of its value: the stand-ins of the bytes whose code
// point has the property (see pcreByte), or U+10FFFF, which such text
// never holds, for none. A body regexp2 refuses is kept, to be refused
// with the pattern.
func pcreLatin1(body string) string {
	re, err := regexp2.Compile(`^[`+body+`]$`, regexp2.None)
	if err != nil {
		return body
	}
	var b strings.Builder
	for c := range 256 {
		if ok, err := re.MatchString(string(rune(c))); err == nil && ok {
			fmt.Fprintf(&b, `\x{%x}`, pcreByte(byte(c)))
		}
	}
	if b.Len() == 0 {
		return `\x{10ffff}`
	}
	return b.String()
}

// pcreScript spells out a script property as PCRE2 10.45 reads it, from
// Unicode 16's tables: a bare script name (\p{Greek}, \p{Grek}) and
// scx:/Script_Extensions= hold the characters of the script and those
// whose script extensions name it (U+00B7, of Common, is Greek too),
// sc:/Script= those of the script alone. regexp2 knows only Go's Script
// tables, of Unicode 15. unknown is an sc: or scx: form naming no script.
func pcreScript(name string) (body string, ok, unknown bool) {
	extensions := true
	key, val, hasVal := strings.Cut(name, ":")
	if !hasVal {
		key, val, hasVal = strings.Cut(name, "=")
	}
	if hasVal {
		switch pcreLoose(key) {
		case "sc", "script":
			extensions = false
		case "scx", "scriptextensions":
		default:
			return "", false, false
		}
		name = val
	}
	canon, ok := ucd.Value("Script", pcreLoose(name))
	if !ok {
		return "", false, hasVal
	}
	rs, _ := ucd.Ranges(ucd.Script, canon)
	body = spellRanges(rs)
	if extensions {
		rs, _ = ucd.Ranges(ucd.ScriptExtension, canon)
		body += spellRanges(rs) // (overlapping ranges in a class are harmless)
	}
	return body, true, false
}

// spellRanges writes a table's ranges as the inside of a regexp2 class.
func spellRanges(rs []rune) string {
	var b strings.Builder
	for i := 0; i+1 < len(rs); i += 2 {
		fmt.Fprintf(&b, `\x{%x}`, rs[i])
		if rs[i+1] != rs[i] {
			fmt.Fprintf(&b, `-\x{%x}`, rs[i+1])
		}
	}
	return b.String()
}

// closedUnderFolding reports whether every case variant of a rune of rs
// is in rs too, so that regexp2's -i changes nothing about it.
func closedUnderFolding(rs []rune) bool {
	for i := 0; i+1 < len(rs); i += 2 {
		for r := rs[i]; r <= rs[i+1]; r++ {
			for f := ucd.SimpleFold(r); f != r; f = ucd.SimpleFold(f) {
				if !ucd.In(rs, f) {
					return false
				}
			}
		}
	}
	return true
}

// pcreCategory spells out the general category gc (a short name) from
// Unicode 16's tables, as PCRE2 10.45 has it; under -i, Lu, Ll and Lt are
// every cased letter, as PCRE2 reads them then. ok is false for Cs, which
// has no table (no text holds a surrogate).
func pcreCategory(gc string, caseless bool) (string, bool) {
	names := []string{gc}
	if caseless && (gc == "Lu" || gc == "Ll" || gc == "Lt") {
		names = []string{"Lu", "Ll", "Lt"}
	}
	var b strings.Builder
	for _, name := range names {
		long, ok := ucd.Value("General_Category", strings.ToLower(name))
		if !ok {
			return "", false
		}
		rs, ok := ucd.Ranges(ucd.GeneralCategory, long)
		if !ok {
			return "", false
		}
		b.WriteString(spellRanges(rs))
	}
	return b.String(), true
}

// pcreCategoryName is the general category whose short name is loose
// (PCRE2 knows them by these alone: \p{Letter} is an unknown property).
func pcreCategoryName(loose string) (string, bool) {
	for _, gc := range strings.Fields("C Cc Cf Cn Co Cs L Ll Lm Lo Lt Lu M Mc Me Mn N Nd Nl No P Pc Pd Pe Pf Pi Po Ps S Sc Sk Sm So Z Zl Zp Zs") {
		if strings.ToLower(gc) == loose {
			return gc, true
		}
	}
	return "", false
}

// class translates a bracketed character class.
func (t *pcreTranslator) class() error {
	t.i++
	start := t.out.Len()
	t.out.WriteByte('[')
	t.classNegated, t.classNeg = false, nil
	if t.peek(0) == '^' {
		t.out.WriteByte('^')
		t.classNegated = true
		t.i++
	}
	// A range's ends are checked as PCRE2 checks them (regexp2 refused a
	// reversed one in words of its own, and took \d-z for three members):
	// prev is the item before a '-' (rangeDash), the range's start.
	const (
		itemNone  = iota
		itemLit   // a character, prevVal
		itemClass // \d, \w, \p{..}, [:alpha:], ...: no range may end at one
		itemOther // an escape whose value is not known here: not checked
	)
	prev, prevVal, rangeDash := itemNone, rune(0), false
	item := func(kind int, val rune) error {
		if !rangeDash {
			prev, prevVal = kind, val
			return nil
		}
		rangeDash = false
		switch {
		case kind == itemClass && prev != itemOther:
			return &pcreSyntaxError{offset: t.i, msg: "invalid range in character class"}
		case prev == itemClass && kind != itemOther:
			return &pcreSyntaxError{offset: t.i - 1, msg: "invalid range in character class"}
		case prev == itemLit && kind == itemLit && prevVal > val:
			return &pcreSyntaxError{offset: t.i - 1, msg: "range out of order in character class"}
		}
		prev = itemNone // (a range is not the start of another)
		return nil
	}
	first := true
	for {
		if t.i >= len(t.src) {
			return &pcreSyntaxError{offset: len(t.src), msg: "missing terminating ] for character class"}
		}
		c := t.src[t.i]
		var err error
		switch {
		case c == ']' && !first:
			t.i++
			t.out.WriteString(t.noInv + "]")
			t.splitNegated(start)
			return nil
		case c == '[' && (t.peek(1) == ':' || t.peek(1) == '.' || t.peek(1) == '='):
			if n := posixClassLen(t.src[t.i:]); n > 0 {
				if err := t.posixClass(n); err != nil {
					return err
				}
				if err := item(itemClass, 0); err != nil {
					return err
				}
				first = false
				continue
			}
			t.out.WriteString(`\[`)
			t.i++
			err = item(itemLit, '[')
		case c == '\\':
			kind := itemOther
			if strings.ContainsRune("dDwWsShHvVpP", t.peek(1)) {
				kind = itemClass
			}
			if err := t.escape(true); err != nil {
				return err
			}
			err = item(kind, 0)
		case c == '-' && t.peek(1) == ']' && !first:
			// Literal at the end: escaped, or with the subtraction that
			// follows it regexp2 would read "x--[" as a range to '-'.
			writeLiteral(&t.out, '-')
			t.i++
			err = item(itemLit, '-')
		case c == '-':
			t.out.WriteByte('-') // a range, or literal at the start, in both dialects
			t.i++
			if prev != itemNone && !rangeDash {
				rangeDash = true
			} else {
				err = item(itemLit, '-')
			}
		default:
			writeLiteral(&t.out, c)
			t.crOrLF = t.crOrLF || c == '\r' || c == '\n'
			t.i++
			err = item(itemLit, c)
		}
		if err != nil {
			return err
		}
		first = false
	}
}

// negatedMember records \W, \S, \D, \H, \V or \P{..} (body is the set
// it negates) in a class: a regexp2 class cannot hold a negated set, so
// splitNegated rewrites the class.
func (t *pcreTranslator) negatedMember(body string) error {
	t.classNeg = append(t.classNeg, body)
	return nil
}

// splitNegated rewrites the class written from start, when it held
// negated members N1..Nk besides its members P: [P\N1..] becomes
// (?:[P]|[^N1]|...), and [^P\N1..] (not P, and in every Ni) becomes
// (?:(?![P])(?=[N1])...[Nk]), each one character wide.
func (t *pcreTranslator) splitNegated(start int) {
	if len(t.classNeg) == 0 {
		return
	}
	all := t.out.String()
	class := all[start:]
	open := "["
	if t.classNegated {
		open = "[^"
	}
	members := strings.TrimSuffix(strings.TrimPrefix(class, open), t.noInv+"]")
	t.out.Reset()
	t.out.WriteString(all[:start])
	t.out.WriteString("(?:")
	if t.classNegated {
		if members != "" {
			t.out.WriteString("(?![" + members + "])")
		}
		for i, body := range t.classNeg {
			if i < len(t.classNeg)-1 {
				t.out.WriteString("(?=[" + body + "])")
			} else {
				t.out.WriteString("[" + body + t.noInv + "]")
			}
		}
	} else {
		var alts []string
		if members != "" {
			alts = append(alts, class)
		}
		for _, body := range t.classNeg {
			alts = append(alts, "[^"+body+t.noInv+"]")
		}
		t.out.WriteString(strings.Join(alts, "|"))
	}
	t.out.WriteString(")")
	t.classNeg = nil
}

// posixClassLen is the length of a POSIX class ([:name:], [:^name:],
// [.x.], [=x=]) at the start of src, which PCRE2 reads as one, or 0: any
// other "[:" is a literal '['.
func posixClassLen(src []rune) int {
	if len(src) < 2 {
		return 0
	}
	delim := src[1]
	i := 2
	if delim == ':' && i < len(src) && src[i] == '^' {
		i++
	}
	start := i
	for i < len(src) && (src[i] >= 'a' && src[i] <= 'z' || delim != ':' && src[i] != delim && src[i] != ']') {
		i++
	}
	if i > start && i+1 < len(src) && src[i] == delim && src[i+1] == ']' {
		return i + 2
	}
	return 0
}

// pcrePosixUCP are the POSIX classes as PCRE2 reads them in UCP mode.
var pcrePosixUCP = map[string]string{
	"alnum": `\p{L}\p{N}`, "alpha": `\p{L}`, "blank": pcreHSpace, "cntrl": `\p{Cc}`,
	"digit": `\p{Nd}`, "lower": `\p{Ll}`, "space": pcreSpaceSet, "upper": `\p{Lu}`,
	"word": pcreWordSet, "ascii": `\x00-\x7F`, "xdigit": `0-9A-Fa-f`,
	// Punctuation and the ASCII symbols ($+<=>^`|~), not ¢ or ©.
	"punct": `\p{P}\x24\x2B\x3C-\x3E\x5E\x60\x7C\x7E`,
}

// pcreGraphPrint are PCRE2's UCP [:graph:] and [:print:]: letters, marks,
// numbers, punctuation, symbols and the format characters, but U+061C
// and U+2066-U+2069 (and for graph U+180E); print adds the space
// separators (Zs). Built at the first use, from Go's Cf table.
var pcreGraphPrint = sync.OnceValues(func() (graph, print string) {
	var cf strings.Builder
	for _, r16 := range unicode.Cf.R16 {
		addCfRange(&cf, rune(r16.Lo), rune(r16.Hi), rune(r16.Stride))
	}
	for _, r32 := range unicode.Cf.R32 {
		addCfRange(&cf, rune(r32.Lo), rune(r32.Hi), rune(r32.Stride))
	}
	const base = `\p{L}\p{M}\p{N}\p{P}\p{S}`
	return base + cf.String(), base + `\p{Zs}\x{180e}` + cf.String()
})

// addCfRange writes the format characters lo..hi (by stride) that PCRE2's
// [:print:] holds (see pcreGraphPrint): all but U+061C, U+180E (print adds
// it itself) and U+2066-U+2069.
func addCfRange(w *strings.Builder, lo, hi, stride rune) {
	for r := lo; r <= hi; r += stride {
		if r == 0x061C || r == 0x180E || 0x2066 <= r && r <= 0x2069 {
			continue
		}
		fmt.Fprintf(w, `\x{%x}`, r)
	}
}

// pcrePosixASCII are the POSIX classes without UCP: ASCII.
var pcrePosixASCII = map[string]string{
	"alnum": `A-Za-z0-9`, "alpha": `A-Za-z`, "blank": `\t\x20`, "cntrl": `\x00-\x1F\x7F`,
	"digit": `0-9`, "lower": `a-z`, "space": `\t\n\x0B\f\r\x20`, "upper": `A-Z`,
	"word": `A-Za-z0-9_`, "ascii": `\x00-\x7F`, "xdigit": `0-9A-Fa-f`,
	"graph": `\x21-\x7E`, "print": `\x20-\x7E`, "punct": `\x21-\x2F\x3A-\x40\x5B-\x60\x7B-\x7E`,
}

// posixClass translates the POSIX class of n runes at t.i, inside a class.
func (t *pcreTranslator) posixClass(n int) error {
	body := string(t.src[t.i+2 : t.i+n-2])
	if t.src[t.i+1] != ':' {
		return &pcreSyntaxError{offset: t.i + n, msg: "POSIX collating elements are not supported"}
	}
	negated := strings.HasPrefix(body, "^")
	name := strings.TrimPrefix(body, "^")
	set, ok := t.sets.posix[name]
	if !ok && (name == "graph" || name == "print") {
		// (UCP: the ASCII table has both.)
		graph, print := pcreGraphPrint()
		set, ok = graph, true
		if name == "print" {
			set = print
		}
	}
	if !ok {
		return &pcreSyntaxError{offset: t.i + n, msg: "unknown POSIX class name"}
	}
	t.i += n
	if negated {
		return t.negatedMember(set)
	}
	t.out.WriteString(set)
	return nil
}

// writeLiteral writes r so that regexp2 reads it as itself, in or out of a
// class.
func writeLiteral(w *strings.Builder, r rune) {
	if r < utf8.RuneSelf && strings.ContainsRune(`\^$.|?*+()[]{}-#/ `+"\t\n\r\f\v", r) {
		switch r {
		case '\t':
			w.WriteString(`\t`)
		case '\n':
			w.WriteString(`\n`)
		case '\r':
			w.WriteString(`\r`)
		case '\f':
			w.WriteString(`\f`)
		case '\v':
			w.WriteString(`\x0B`)
		case '-':
			// (regexp2 misreads "\-" as a range's end: [%-\-] held '-' alone)
			w.WriteString(`\x2D`)
		default:
			w.WriteByte('\\')
			w.WriteRune(r)
		}
		return
	}
	w.WriteRune(r)
}
