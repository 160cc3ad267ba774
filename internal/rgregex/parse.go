package rgregex

import (
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rgkit/rgkit/internal/ucd"
)

type flags struct{ i, m, s, U, u, x, R bool }

// parser reads rg's wrapped pattern "(?:pattern)" left to right.
type parser struct {
	src, pat string
	pos      int
	fl       flags
	names    map[string][2]int // each capture name's span, for a duplicate's message
	// deferred is the first refusal rg makes only after parsing (an
	// unknown Unicode property, Unicode under (?-u)): rg's parser reports
	// a syntax error anywhere in the pattern before it.
	deferred *Error
	depth    int
	// captures: groups become OpCapture nodes (Options.Captures); caps
	// counts the capturing groups opened so far.
	captures bool
	caps     int
	// onLit, when set, sees every literal character as written (plain,
	// escaped, or a class item or range end), for SmartCase.
	onLit func(rune)
}

// maxDepth bounds group and class nesting, so hostile input cannot
// exhaust the stack (rg's own nest limit is 250).
const maxDepth = 250

// maxCount bounds one counted repetition. rg accepts larger counts up to
// its size limit; the matcher would expand them into a huge program.
const maxCount = 10000

// err is a refusal at off in p.src, marking the character there as rg
// does for most of its errors.
func (p *parser) err(off int, kind Kind, msg string) *Error {
	_, n := utf8.DecodeRuneInString(p.src[min(off, len(p.src)):])
	return p.errSpan(off, off+n, kind, msg)
}

// errSpan is a refusal marking [start, end) of p.src, and the aux spans
// (an earlier part the offending one clashes with).
func (p *parser) errSpan(start, end int, kind Kind, msg string, aux ...[2]int) *Error {
	o := min(max(start-3, 0), len(p.pat))
	return &Error{Pattern: p.pat, Offset: o, Kind: kind, Msg: msg, Spans: append([][2]int{{start, end}}, aux...)}
}

// later records a refusal rg makes after parsing (see deferred); the
// parse goes on.
func (p *parser) later(e *Error) {
	if p.deferred == nil {
		p.deferred = e
	}
}

func (p *parser) eof() bool { return p.pos >= len(p.src) }

func (p *parser) peek() rune {
	if p.eof() {
		return -1
	}
	r, _ := utf8.DecodeRuneInString(p.src[p.pos:])
	return r
}

func (p *parser) peekAt(off int) rune {
	if p.pos+off >= len(p.src) {
		return -1
	}
	r, _ := utf8.DecodeRuneInString(p.src[p.pos+off:])
	return r
}

func (p *parser) next() rune {
	r, n := utf8.DecodeRuneInString(p.src[p.pos:])
	p.pos += n
	return r
}

// skipSpace skips whitespace and # comments in verbose mode (?x).
func (p *parser) skipSpace() {
	for p.fl.x && !p.eof() {
		r := p.peek()
		switch {
		case unicode.IsSpace(r):
			p.next()
		case r == '#':
			for !p.eof() && p.next() != '\n' {
			}
		default:
			return
		}
	}
}

func (p *parser) parseAll() (*syntax.Regexp, error) {
	if !utf8.ValidString(p.pat) {
		return nil, p.err(3, KindSyntax, "pattern is not valid UTF-8")
	}
	if i := strings.IndexFunc(p.pat, func(r rune) bool { return r >= assertBase }); i >= 0 {
		return nil, p.err(3+i, KindUnsupported, "characters U+10FFF0-U+10FFFF are reserved by rgkit")
	}
	re, err := p.parseAlt()
	if err != nil {
		return nil, err
	}
	if !p.eof() {
		// The wrapper's group was closed by the pattern's own ')', just
		// before p.pos: that one has no '(' of its own (Offset); rg marks
		// the wrapper's own ')', now without a '(' (Spans).
		e := p.err(p.pos-1, KindSyntax, "unopened group")
		e.Spans = [][2]int{{p.pos, p.pos + 1}}
		return nil, e
	}
	if p.deferred != nil {
		return nil, p.deferred
	}
	return re, nil
}

// parseAlt reads branches separated by '|' up to ')' or the end.
func (p *parser) parseAlt() (*syntax.Regexp, error) {
	var alts []*syntax.Regexp
	for {
		c, err := p.parseConcat()
		if err != nil {
			return nil, err
		}
		alts = append(alts, c)
		if p.peek() != '|' {
			return makeAlt(alts), nil
		}
		p.next()
	}
}

// parseConcat reads one branch.
func (p *parser) parseConcat() (*syntax.Regexp, error) {
	var items []*syntax.Regexp
	last := -1 // index in items of what a repetition applies to; -1: nothing
	for {
		p.skipSpace()
		if p.eof() {
			break
		}
		start := p.pos
		r := p.peek()
		if r == '|' || r == ')' {
			break
		}
		switch r {
		case '*', '+', '?', '{':
			if last < 0 {
				return nil, p.err(start, KindSyntax, "repetition operator missing expression")
			}
			rep, err := p.parseRepeat(items[last])
			if err != nil {
				return nil, err
			}
			items[last] = rep
			continue
		}
		item, err := p.parseAtom()
		if err != nil {
			return nil, err
		}
		if item == nil { // a flag group such as (?i): nothing to repeat
			last = -1
			continue
		}
		items = append(items, item)
		last = len(items) - 1
	}
	return makeConcat(items), nil
}

func (p *parser) parseAtom() (*syntax.Regexp, error) {
	start := p.pos
	switch r := p.next(); r {
	case '(':
		return p.parseGroup(start)
	case '[':
		p.pos = start
		cls, err := p.parseClass()
		if err != nil {
			return nil, err
		}
		return classNode(cls), nil
	case '\\':
		return p.parseEscape(start)
	case '.':
		switch {
		case !p.fl.u && p.fl.s:
			return classNode(anyByte), nil
		case !p.fl.u && p.fl.R:
			return classNode(negateBytes(ranges{'\n', '\n', '\r', '\r'})), nil
		case !p.fl.u:
			return classNode(negateBytes(single('\n'))), nil
		case p.fl.s:
			return classNode(ranges{0, utf8.MaxRune}), nil
		case p.fl.R:
			return classNode(negate(ranges{'\n', '\n', '\r', '\r'})), nil
		}
		return classNode(negate(single('\n'))), nil
	case '^':
		switch {
		case !p.fl.m:
			return &syntax.Regexp{Op: syntax.OpBeginText}, nil
		case p.fl.R:
			return assertNode(LineStartCRLF), nil
		}
		return &syntax.Regexp{Op: syntax.OpBeginLine}, nil
	case '$':
		switch {
		case !p.fl.m:
			return &syntax.Regexp{Op: syntax.OpEndText}, nil
		case p.fl.R:
			return assertNode(LineEndCRLF), nil
		}
		return &syntax.Regexp{Op: syntax.OpEndLine}, nil
	default:
		return p.literal(r), nil
	}
}

// literal is one character under the current flags.
func (p *parser) literal(r rune) *syntax.Regexp {
	if p.onLit != nil {
		p.onLit(r)
	}
	if p.fl.i {
		if !p.fl.u {
			if f := foldASCII(single(r)); len(f) > 2 || f[0] != f[1] {
				return classNode(f)
			}
		} else {
			if ucd.SimpleFold(r) != unicode.SimpleFold(r) {
				// a case pair Unicode 16 added (U+A7DC and U+019B):
				// Go's FoldCase would not know it
				return classNode(foldUnicode(single(r)))
			}
			// FoldCase on a rune without case is harmless, and keeps
			// "x1 = 2" one literal for the prefilter.
			return &syntax.Regexp{Op: syntax.OpLiteral, Rune: []rune{r}, Flags: syntax.FoldCase}
		}
	}
	return &syntax.Regexp{Op: syntax.OpLiteral, Rune: []rune{r}}
}

// parseGroup reads a group after its '(' (at start).
func (p *parser) parseGroup(start int) (*syntax.Regexp, error) {
	if p.depth++; p.depth > maxDepth {
		return nil, p.err(start, KindSyntax, "exceeds the nest limit of 250")
	}
	defer func() { p.depth-- }()
	saved := p.fl
	capture, name := start > 0, "" // (the wrapper's group, at 0, is not the pattern's)
	if p.peek() == '?' {
		p.next()
		switch p.peek() {
		case '=', '!':
			return nil, p.errSpan(start, p.pos+1, KindLookAround, "look-around, including look-ahead and look-behind, is not supported")
		case '<':
			if c := p.peekAt(1); c == '=' || c == '!' {
				return nil, p.errSpan(start, p.pos+2, KindLookAround, "look-around, including look-ahead and look-behind, is not supported")
			}
			p.next()
			var err error
			if name, err = p.parseName(); err != nil {
				return nil, err
			}
		case 'P':
			if p.peekAt(1) != '<' {
				return nil, p.err(p.pos, KindSyntax, "unrecognized flag")
			}
			p.pos += 2
			var err error
			if name, err = p.parseName(); err != nil {
				return nil, err
			}
		default:
			capture = false
			open, err := p.parseFlags(start)
			if err != nil {
				return nil, err
			}
			if !open { // (?flags): applies to the rest of the enclosing group
				return nil, nil
			}
		}
	}
	cap := 0
	if capture {
		p.caps++
		cap = p.caps
	}
	re, err := p.parseAlt()
	if err != nil {
		return nil, err
	}
	if p.eof() {
		return nil, p.err(start, KindSyntax, "unclosed group")
	}
	p.next() // ')'
	p.fl = saved
	if capture && p.captures {
		if re == nil {
			re = &syntax.Regexp{Op: syntax.OpEmptyMatch}
		}
		re = &syntax.Regexp{Op: syntax.OpCapture, Cap: cap, Name: name, Sub: []*syntax.Regexp{re}}
	}
	return re, nil
}

// parseName reads a capture name and its '>'. Capture groups carry no
// meaning for a searcher; the name is checked as rg checks it.
func (p *parser) parseName() (string, error) {
	start := p.pos
	for !p.eof() && p.peek() != '>' {
		r := p.next()
		first := p.pos-utf8.RuneLen(r) == start
		ok := r == '_' || unicode.IsLetter(r) || (!first && (unicode.IsDigit(r) || r == '.' || r == '[' || r == ']'))
		if !ok {
			return "", p.err(p.pos-utf8.RuneLen(r), KindSyntax, "invalid capture group character")
		}
	}
	if p.eof() {
		return "", p.err(start, KindSyntax, "unclosed capture group name")
	}
	name := p.src[start:p.pos]
	p.next()
	if name == "" {
		return "", p.err(start, KindSyntax, "empty capture group name")
	}
	span := [2]int{start, p.pos - 1}
	if first, ok := p.names[name]; ok {
		return "", p.errSpan(span[0], span[1], KindSyntax, "duplicate capture group name", first)
	}
	p.names[name] = span
	return name, nil
}

// parseFlags reads "flags)" or "flags:" after "(?". open reports a group
// that follows (":"), else the flags apply from here on.
func (p *parser) parseFlags(start int) (open bool, err error) {
	seen := map[rune]int{} // each flag's offset
	neg, negAt, any := false, -1, false
	for {
		if p.eof() {
			return false, p.err(start, KindSyntax, "unclosed group")
		}
		at := p.pos
		r := p.next()
		switch r {
		case ':', ')':
			if negAt >= 0 && negAt == at-1 {
				return false, p.err(negAt, KindSyntax, "dangling flag negation operator")
			}
			if r == ')' && !any && !neg {
				// "(?)": rg reads the '?' as a repetition of nothing
				return false, p.err(start+1, KindSyntax, "repetition operator missing expression")
			}
			return r == ':', nil
		case '-':
			if neg {
				return false, p.errSpan(at, at+1, KindSyntax, "flag negation operator repeated", [2]int{negAt, negAt + 1})
			}
			neg, negAt = true, at
			continue
		}
		if first, ok := seen[r]; ok {
			return false, p.errSpan(at, at+1, KindSyntax, "duplicate flag", [2]int{first, first + 1})
		}
		seen[r] = at
		any = true
		v := !neg
		switch r {
		case 'i':
			p.fl.i = v
		case 'm':
			p.fl.m = v
		case 's':
			p.fl.s = v
		case 'U':
			p.fl.U = v
		case 'u':
			p.fl.u = v
		case 'x':
			p.fl.x = v
		case 'R':
			p.fl.R = v
		default:
			return false, p.err(at, KindSyntax, "unrecognized flag")
		}
	}
}

// parseRepeat applies the repetition operator at p.pos to sub.
func (p *parser) parseRepeat(sub *syntax.Regexp) (*syntax.Regexp, error) {
	start := p.pos
	re := &syntax.Regexp{Sub: []*syntax.Regexp{sub}}
	switch p.next() {
	case '*':
		re.Op = syntax.OpStar
	case '+':
		re.Op = syntax.OpPlus
	case '?':
		re.Op = syntax.OpQuest
	case '{':
		re.Op = syntax.OpRepeat
		p.skipSpace()
		lo, ok := p.decimal()
		if !ok {
			return nil, p.err(p.pos, KindSyntax, "repetition quantifier expects a valid decimal")
		}
		hi := lo
		p.skipSpace()
		if p.peek() == ',' {
			p.next()
			p.skipSpace()
			hi = -1
			if p.peek() != '}' {
				if hi, ok = p.decimal(); !ok {
					return nil, p.err(p.pos, KindSyntax, "repetition quantifier expects a valid decimal")
				}
			}
		}
		p.skipSpace()
		if p.peek() != '}' {
			return nil, p.errSpan(start, p.pos, KindSyntax, "unclosed counted repetition")
		}
		p.next()
		if hi >= 0 && lo > hi {
			end := p.pos
			if p.peek() == '?' {
				end++ // (rg marks the operator, its laziness included)
			}
			return nil, p.errSpan(start, end, KindSyntax, "invalid repetition count range, the start must be <= the end")
		}
		if lo > maxCount || hi > maxCount {
			return nil, p.err(start, KindUnsupported, "repetition count above 10000 is not supported")
		}
		re.Min, re.Max = lo, hi
	}
	lazy := false
	if p.peek() == '?' {
		p.next()
		lazy = true
	}
	if lazy != p.fl.U {
		re.Flags |= syntax.NonGreedy
	}
	return re, nil
}

func (p *parser) decimal() (int, bool) {
	start := p.pos
	for !p.eof() && '0' <= p.src[p.pos] && p.src[p.pos] <= '9' {
		p.pos++
	}
	n, err := strconv.Atoi(p.src[start:p.pos])
	if err != nil {
		return 0, false
	}
	return n, true
}

func classNode(r ranges) *syntax.Regexp {
	if len(r) == 0 {
		return &syntax.Regexp{Op: syntax.OpNoMatch}
	}
	if len(r) == 2 && r[0] == r[1] {
		return &syntax.Regexp{Op: syntax.OpLiteral, Rune: []rune{r[0]}}
	}
	return &syntax.Regexp{Op: syntax.OpCharClass, Rune: []rune(r)}
}

func isPlaceholder(re *syntax.Regexp) bool { _, ok := AssertionOf(re); return ok }

// makeConcat joins items, merging runs of plain literals (one literal is
// what the prefilter looks for).
func makeConcat(items []*syntax.Regexp) *syntax.Regexp {
	var out []*syntax.Regexp
	owned := false // out's last item is a copy made here, extended in place (a copy per merge was quadratic: minutes for a 1 MB literal)
	for _, it := range items {
		if n := len(out); n > 0 && it.Op == syntax.OpLiteral && out[n-1].Op == syntax.OpLiteral &&
			it.Flags == out[n-1].Flags && !isPlaceholder(it) && !isPlaceholder(out[n-1]) {
			if !owned {
				merged := *out[n-1]
				merged.Rune = append([]rune(nil), merged.Rune...)
				out[n-1], owned = &merged, true
			}
			out[n-1].Rune = append(out[n-1].Rune, it.Rune...)
			continue
		}
		out, owned = append(out, it), false
	}
	switch len(out) {
	case 0:
		return &syntax.Regexp{Op: syntax.OpEmptyMatch}
	case 1:
		return out[0]
	}
	return &syntax.Regexp{Op: syntax.OpConcat, Sub: out}
}

// makeAlt joins branches. As in rg, branches that are all single
// characters, or all classes, become one class; a mix stays an
// alternation. (This decides rg's NUL ban: `\x00|a` is the class
// [\x00a], allowed; `(?i)\x00|a` is a literal NUL or the class [Aa],
// refused.)
func makeAlt(alts []*syntax.Regexp) *syntax.Regexp {
	if len(alts) == 1 {
		return alts[0]
	}
	var cls ranges
	kind := 0 // 1: all single characters; 2: all classes
	for _, a := range alts {
		k, r := 0, ranges(nil)
		switch {
		case a.Op == syntax.OpCharClass:
			k, r = 2, a.Rune
		case a.Op == syntax.OpLiteral && len(a.Rune) == 1 && !isPlaceholder(a):
			k, r = 1, single(a.Rune[0])
			if a.Flags&syntax.FoldCase != 0 {
				if f := foldUnicode(r); len(f) > 2 || f[0] != f[1] {
					k, r = 2, f // rg folds a cased letter into a class
				}
			}
		}
		if k == 0 || (kind != 0 && k != kind) {
			return &syntax.Regexp{Op: syntax.OpAlternate, Sub: alts}
		}
		kind, cls = k, union(cls, r)
	}
	return classNode(cls)
}
