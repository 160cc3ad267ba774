package native

import (
	"errors"
	"fmt"
	"runtime/debug"
	"sort"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
)

// PCRE2MatchTimeout bounds one match attempt of a -P pattern. regexp2
// backtracks like PCRE2, which stops a runaway match at its match limit
// (rg: "PCRE2: error matching: match limit exceeded"); regexp2 has a
// time limit instead. Five seconds of regexp2 is roughly the work PCRE2's
// JIT does before it gives up.
var PCRE2MatchTimeout = 5 * time.Second

// pcreBacktrackSlots bounds regexp2's backtracking stack per match (in
// ints): 2M is 16 MB, far above what a line-sized match needs.
const pcreBacktrackSlots = 2 << 20

// MatchLimitError is a -P match that ran past the limits above, worded as
// rg words PCRE2's.
type MatchLimitError struct {
	Path string // the file, when known
	Err  error
}

func (e *MatchLimitError) Error() string {
	if e.Path != "" {
		return e.Path + ": PCRE2: error matching: match limit exceeded"
	}
	return "PCRE2: error matching: match limit exceeded"
}

func (e *MatchLimitError) Unwrap() error { return e.Err }

// PCRE2Error is a -P pattern that does not compile: a syntax error, or a
// construct the emulation refuses (Err is then a *PCRE2Unsupported).
type PCRE2Error struct {
	Pattern string
	Err     error
}

func (e *PCRE2Error) Error() string {
	var se *pcreSyntaxError
	if errors.As(e.Err, &se) {
		return "PCRE2: " + se.Error()
	}
	var ue *PCRE2Unsupported
	if errors.As(e.Err, &ue) {
		return "PCRE2: " + ue.Error()
	}
	return "PCRE2: error compiling pattern: " + e.Err.Error()
}

func (e *PCRE2Error) Unwrap() error { return e.Err }

// pcreProg is a -P pattern compiled with regexp2. It finds matches in
// bytes: the text is decoded to runes once per call, invalid UTF-8 bytes
// becoming stand-ins the pattern cannot match (see pcreInvalidLo).
type pcreProg struct {
	re    *regexp2.Regexp
	texts sync.Pool // *pcreText
	// rg's iteration restarts one byte after an empty match, which for a
	// multi-byte character is inside it: PCRE2 then sees the character
	// behind and an invalid byte ahead (see midChar).
	// required is a literal every match contains ("" for none), up to
	// case when requiredFold: the prefilter looks for it.
	required     string
	requiredFold bool
	// kGroup is the group whose position is a \K's: the reported match
	// starts there when it took part (0: the pattern has no \K).
	kGroup int
	// bytes: without UTF (rg --no-unicode) each byte is a character
	// (pcreByte).
	bytes bool
	// decoded counts the bytes text has decoded, for the tests that hold
	// a search to decoding its text once.
	decoded atomic.Int64
}

// start is where the match in v starts as PCRE2 reports it: at the last
// \K passed, else at the whole match's start.
func (p *pcreProg) start(v regexp2.MatchView) (int, int) {
	i, n, _ := v.GroupRange(0)
	if p.kGroup > 0 {
		if k, _, ok := v.GroupRange(p.kGroup); ok {
			return k, i + n
		}
	}
	return i, i + n
}

// pcreText is a byte text as regexp2 reads it.
type pcreText struct {
	runes []rune
	offs  []int // byte offset of each rune, then len(b)
}

func compilePCRE(pattern string, caseless bool, mode pcreMode) (*pcreProg, error) {
	mode.caseless = caseless
	tr, err := translatePCRE(pattern, mode)
	if err != nil {
		return nil, &PCRE2Error{Pattern: pattern, Err: err}
	}
	p := &pcreProg{required: tr.required, requiredFold: caseless || tr.caseless, kGroup: tr.kGroup, bytes: mode.noUnicode}
	if mode.crlf && !tr.crOrLF {
		// PCRE2, after a failed attempt at the '\r' of a "\r\n", tries
		// next after the '\n', not before it: a match starts there only
		// where the search itself starts (\G).
		tr.pattern = `(?:\G|(?<!\r(?=\n)))(?:` + tr.pattern + `)`
	}
	opts := regexp2.Multiline
	if caseless {
		opts |= regexp2.IgnoreCase
	}
	re, err := regexp2.Compile(tr.pattern, opts, regexp2.OptionMaintainCaptureOrder(), regexp2.OptionMaxBacktrackingStackSize(pcreBacktrackSlots))
	if err != nil {
		return nil, &PCRE2Error{Pattern: pattern, Err: err}
	}
	re.MatchTimeout = PCRE2MatchTimeout
	p.re = re
	return p, nil
}

func (p *pcreProg) text(b []byte) *pcreText {
	t, _ := p.texts.Get().(*pcreText)
	if t == nil {
		t = &pcreText{}
	}
	t.runes, t.offs = t.runes[:0], t.offs[:0]
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf || p.bytes {
			t.runes = append(t.runes, pcreByte(c))
			t.offs = append(t.offs, i)
			i++
			continue
		}
		r, w := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && w == 1 {
			r = pcreInvalidLo + rune(c) - 0x80
		}
		t.runes = append(t.runes, r)
		t.offs = append(t.offs, i)
		i += w
	}
	t.offs = append(t.offs, len(b))
	p.decoded.Add(int64(len(b)))
	return t
}

func (p *pcreProg) done(t *pcreText) {
	if cap(t.runes) <= 1<<20 {
		p.texts.Put(t)
	}
}

// runeIndex is the index of the first rune at or after byte pos.
func (t *pcreText) runeIndex(pos int) int {
	return sort.SearchInts(t.offs, pos)
}

// next finds the first match at or after rune index at.
func (p *pcreProg) next(t *pcreText, at int) (s, e int, ok bool) {
	err := p.re.FindRunesMatches(t.runes, at, func(v regexp2.MatchView) bool {
		s, e = p.start(v)
		ok = true
		return false
	})
	if err != nil {
		panic(&MatchLimitError{Err: err})
	}
	return s, e, ok
}

// find is pikeVM.find for a -P pattern: the first match in b at or after
// pos, b[:pos] in view of the look-behinds.
func (p *pcreProg) find(b []byte, pos int) (int, int, bool) {
	t := p.text(b)
	defer p.done(t)
	s, e, ok := p.next(t, t.runeIndex(pos))
	if !ok {
		return 0, 0, false
	}
	return t.offs[s], t.offs[e], true
}

// eachMatch is pikeVM.eachMatch for a -P pattern, iterating as rg's PCRE2
// matcher does: after an empty match the next search starts one byte on
// (PCRE2 skips to the next character), and an empty match right after a
// match is dropped.
func (p *pcreProg) eachMatch(b []byte, from int, fn func(s, e int) bool) (stopped bool) {
	t := p.text(b)
	defer p.done(t)
	at, last := t.runeIndex(from), -1
	for at <= len(t.runes) {
		s, e, ok := p.next(t, at)
		if !ok {
			return false
		}
		if s == e {
			at = e + 1
			if e == last {
				if p.midChar(t, e, fn) {
					return true
				}
				continue
			}
		} else {
			at = e
		}
		last = e
		if !fn(t.offs[s], t.offs[e]) {
			return true
		}
		if s == e && p.midChar(t, e, fn) {
			return true
		}
	}
	return false
}

// midChar reports the empty matches inside the character at rune e,
// after an empty match before it: PCRE2 finds one at each of its inner
// bytes when the pattern matches empty there, where nothing matches behind
// or ahead and neither \b nor \B holds (pcreMidProbe). stopped when fn
// said stop.
func (p *pcreProg) midChar(t *pcreText, e int, fn func(s, e int) bool) (stopped bool) {
	if e >= len(t.runes) || t.offs[e+1]-t.offs[e] < 2 {
		return false
	}
	probe := &pcreText{runes: []rune{pcreMidProbe, pcreMidProbe}, offs: []int{0, 1, 2}}
	if s, end, ok := p.next(probe, 1); !ok || s != 1 || end != 1 {
		return false
	}
	for b := t.offs[e] + 1; b < t.offs[e+1]; b++ {
		if !fn(b, b) {
			return true
		}
	}
	return false
}

// catchMatchLimit turns the panic of a match past the limits into *err.
func catchMatchLimit(err *error) {
	if r := recover(); r != nil {
		ml, ok := r.(*MatchLimitError)
		if !ok {
			panic(r)
		}
		*err = ml
	}
}

// PCRE2Expander expands rg -r's template for the matches of a -P pattern:
// $1, ${1}, $name, ${name} and $$, as rg interpolates them.
type PCRE2Expander struct {
	p *pcreProg
}

// NewPCRE2Expander compiles o's pattern (o.PCRE2 set) for Expand.
func NewPCRE2Expander(o MatchOptions) (*PCRE2Expander, error) {
	p, err := compilePCRE(pcrePattern(o), o.CaseInsensitive, pcreModeFor(o))
	if err != nil {
		return nil, err
	}
	return &PCRE2Expander{p: p}, nil
}

// Expand appends to dst the template expanded against the match that
// starts at byte start of text (found again there, with text around it in
// view of the look-arounds).
func (x *PCRE2Expander) Expand(dst []byte, tmpl string, text []byte, start int) (out []byte, err error) {
	defer catchMatchLimit(&err)
	t := x.p.text(text)
	defer x.p.done(t)
	var groups [][2]int
	from := t.runeIndex(start)
	if x.p.kGroup > 0 {
		// The match reported at start began before it (at or before the
		// \K): find it again from the line's start, as rg iterated.
		from = x.p.matchBefore(t, from)
	}
	ferr := x.p.re.FindRunesMatches(t.runes, from, func(v regexp2.MatchView) bool {
		groups = make([][2]int, v.GroupCount())
		for g := range groups {
			if i, n, ok := v.GroupRange(g); ok {
				groups[g] = [2]int{t.offs[i], t.offs[i+n]}
			} else {
				groups[g] = [2]int{-1, -1}
			}
		}
		s, e := x.p.start(v)
		groups[0] = [2]int{t.offs[s], t.offs[e]}
		return false
	})
	if ferr != nil {
		return dst, &MatchLimitError{Err: ferr}
	}
	group := func(name string) []byte {
		n := -1
		if k, ok := atoi(name); ok {
			n = k
			if x.p.kGroup > 0 && n >= x.p.kGroup {
				n++ // the \K marker's group is not the user's
			}
		} else {
			n = x.p.re.GroupNumberFromName(name)
		}
		if n < 0 || n >= len(groups) || groups[n][0] < 0 {
			return nil
		}
		return text[groups[n][0]:groups[n][1]]
	}
	return interpolate(dst, tmpl, group), nil
}

// matchBefore is where to search again for the match that rg's iteration
// reports at rune index start (see eachMatch): where that search began.
func (p *pcreProg) matchBefore(t *pcreText, start int) int {
	at, last := 0, -1
	for at <= len(t.runes) {
		s, e, ok := p.next(t, at)
		if !ok || s > start {
			break
		}
		if s == start && (s != e || e != last) {
			return at
		}
		if s == e {
			at = e + 1
		} else {
			at = e
		}
		last = e
	}
	return start
}

func atoi(s string) (int, bool) {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' || n > 1<<20 {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, s != ""
}

// interpolate expands $ references in tmpl as rg's replacement does: the
// longest [_0-9A-Za-z]+ after '$', or a braced name; "$$" is '$'; a '$'
// with no name after it is kept.
func interpolate(dst []byte, tmpl string, group func(string) []byte) []byte {
	for i := 0; i < len(tmpl); {
		c := tmpl[i]
		if c != '$' || i+1 >= len(tmpl) {
			dst = append(dst, c)
			i++
			continue
		}
		if tmpl[i+1] == '$' {
			dst = append(dst, '$')
			i += 2
			continue
		}
		if tmpl[i+1] == '{' {
			j := i + 2
			for j < len(tmpl) && tmpl[j] != '}' {
				j++
			}
			if j < len(tmpl) && j > i+2 && isNameRun(tmpl[i+2:j]) {
				dst = append(dst, group(tmpl[i+2:j])...)
				i = j + 1
				continue
			}
			dst = append(dst, c)
			i++
			continue
		}
		j := i + 1
		for j < len(tmpl) && isNameByte(tmpl[j]) {
			j++
		}
		if j == i+1 {
			dst = append(dst, c)
			i++
			continue
		}
		dst = append(dst, group(tmpl[i+1:j])...)
		i = j
	}
	return dst
}

func isNameByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isNameRun(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isNameByte(s[i]) {
			return false
		}
	}
	return true
}

// pcreModeFor is the PCRE2 set-up rg -P uses for o.
func pcreModeFor(o MatchOptions) pcreMode {
	return pcreMode{dotall: o.Multiline, crlf: o.CRLF, noUnicode: o.NoUnicode}
}

// pcrePattern is the pattern rg -P builds from o: -F quoted, -w and -x
// wrapped as rg's PCRE2 matcher wraps them.
func pcrePattern(o MatchOptions) string {
	p := o.Pattern
	if o.Fixed {
		p = QuotePCRE2(p)
	}
	if o.Word {
		p = `(?<!\w)(?:` + p + `)(?!\w)`
	}
	return p
}

// QuotePCRE2 escapes every ASCII character but letters, digits and '_'
// (PCRE2 reads an escaped non-alphanumeric as itself).
func QuotePCRE2(s string) string {
	out := make([]byte, 0, len(s)*2)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < utf8.RuneSelf && !isNameByte(c) {
			if c == '\n' {
				out = append(out, `\n`...)
				continue
			}
			out = append(out, '\\')
		}
		out = append(out, c)
	}
	return string(out)
}

// PCRE2Version is what rg --pcre2-version prints here: the PCRE2 release
// whose dialect is emulated, and the library that runs it.
func PCRE2Version() string {
	v := "v2"
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "github.com/dlclark/regexp2/v2" {
				v = d.Version
			}
		}
	}
	return fmt.Sprintf("PCRE2 10.45 is emulated with github.com/dlclark/regexp2/v2 %s (JIT is not available)", v)
}
