package rgregex

import (
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rgkit/rgkit/internal/ucd"
)

// escape is what one backslash sequence means: a character, a class, or
// (outside classes only) an assertion.
type escape struct {
	r      rune   // a character, when cls and node are nil
	cls    ranges // a class (\d, \p{Greek}, ...), already folded and negated
	isCls  bool
	node   *syntax.Regexp // an assertion
	byteHi bool           // (?-u) \x80-\xFF: a raw byte
}

func isMeta(r rune) bool { return strings.ContainsRune(`\.+*?()|[]{}^$#&-~`, r) }

// isEscapable: rg lets any ASCII punctuation be escaped, except < and >,
// which are word boundaries.
func isEscapable(r rune) bool {
	if isMeta(r) {
		return true
	}
	if r >= 0x80 || r == '<' || r == '>' {
		return false
	}
	return !('0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z')
}

// parseEscape reads an escape outside a class (its '\' at start).
func (p *parser) parseEscape(start int) (*syntax.Regexp, error) {
	e, err := p.escape(start, false)
	if err != nil {
		return nil, err
	}
	switch {
	case e.node != nil:
		return e.node, nil
	case e.isCls:
		return classNode(e.cls), nil
	case e.byteHi:
		return &syntax.Regexp{Op: syntax.OpLiteral, Rune: []rune{e.r}}, nil
	}
	return p.literal(e.r), nil
}

func (p *parser) escape(start int, inClass bool) (escape, error) {
	if p.eof() {
		return escape{}, p.err(start, KindSyntax, "incomplete escape sequence, reached end of pattern prematurely")
	}
	r := p.next()
	switch r {
	case 'a':
		return escape{r: 7}, nil
	case 'f':
		return escape{r: '\f'}, nil
	case 't':
		return escape{r: '\t'}, nil
	case 'n':
		return escape{r: '\n'}, nil
	case 'r':
		return escape{r: '\r'}, nil
	case 'v':
		return escape{r: '\v'}, nil
	case 'x', 'u', 'U':
		return p.hex(start, r)
	case 'p', 'P':
		return p.unicodeClass(start, r == 'P')
	case 'd', 'D', 's', 'S', 'w', 'W':
		return p.perlClass(start, r)
	case 'A', 'z', 'b', 'B', '<', '>':
		if inClass {
			return escape{}, p.errSpan(start, p.pos, KindSyntax, "invalid escape sequence found in character class")
		}
		return p.assertion(start, r)
	}
	if '0' <= r && r <= '9' {
		return escape{}, p.errSpan(start, p.pos, KindBackreference, "backreferences are not supported")
	}
	if isEscapable(r) {
		return escape{r: r}, nil
	}
	return escape{}, p.errSpan(start, p.pos, KindSyntax, "unrecognized escape sequence")
}

func (p *parser) assertion(start int, r rune) (escape, error) {
	node := func(op syntax.Op) (escape, error) { return escape{node: &syntax.Regexp{Op: op}}, nil }
	pick := func(uni, ascii Assertion) (escape, error) {
		if p.fl.u {
			return escape{node: assertNode(uni)}, nil
		}
		return escape{node: assertNode(ascii)}, nil
	}
	switch r {
	case 'A':
		return node(syntax.OpBeginText)
	case 'z':
		return node(syntax.OpEndText)
	case '<':
		return pick(WordStart, WordStartASCII)
	case '>':
		return pick(WordEnd, WordEndASCII)
	case 'B':
		if !p.fl.u {
			return node(syntax.OpNoWordBoundary)
		}
		return escape{node: assertNode(NotWordBoundary)}, nil
	}
	// \b, maybe \b{start}: only when '{' is followed by a name character,
	// so \b{2} stays a repeated \b.
	if p.peek() == '{' {
		nameChar := func(c rune) bool { return c == '-' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
		brace := p.pos
		p.next()
		p.skipSpace() // ((?x) spaces, as between all that follows)
		if !nameChar(p.peek()) {
			p.pos = brace
		} else {
			at := p.pos
			var name []rune
			for !p.eof() && nameChar(p.peek()) {
				name = append(name, p.next())
				p.skipSpace()
			}
			if p.eof() || p.peek() != '}' {
				return escape{}, p.errSpan(brace, p.pos, KindSyntax, "special word boundary assertion is either unclosed or contains an invalid character")
			}
			end := p.pos
			p.next()
			switch string(name) {
			case "start":
				return pick(WordStart, WordStartASCII)
			case "end":
				return pick(WordEnd, WordEndASCII)
			case "start-half":
				return pick(WordStartHalf, WordStartHalfASCII)
			case "end-half":
				return pick(WordEndHalf, WordEndHalfASCII)
			}
			return escape{}, p.errSpan(at, end, KindSyntax, "unrecognized special word boundary assertion, valid choices are: start, end, start-half or end-half")
		}
	}
	if !p.fl.u {
		return node(syntax.OpWordBoundary)
	}
	return escape{node: assertNode(WordBoundary)}, nil
}

// hex reads \xHH \x{H..} \uHHHH \u{H..} \UHHHHHHHH \U{H..}, refusing as rg
// does: at the first character that is not a hex digit.
func (p *parser) hex(start int, kind rune) (escape, error) {
	isHex := func(c rune) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }
	var digits []byte // (under (?x), spaces between them are skipped)
	digit := func() error {
		at := p.pos
		r := p.next()
		if !isHex(r) {
			return p.errSpan(at, p.pos, KindSyntax, "invalid hexadecimal digit")
		}
		digits = append(digits, byte(r))
		p.skipSpace()
		return nil
	}
	var digitsAt, digitsEnd int
	braced := p.peek() == '{'
	if braced {
		brace := p.pos
		p.next()
		digitsAt = p.pos
		p.skipSpace()
		for !p.eof() && p.peek() != '}' {
			if err := digit(); err != nil {
				return escape{}, err
			}
		}
		if p.eof() {
			return escape{}, p.errSpan(brace, p.pos, KindSyntax, "incomplete escape sequence, reached end of pattern prematurely")
		}
		digitsEnd = p.pos
		p.next() // '}'
		if len(digits) == 0 {
			return escape{}, p.errSpan(brace, p.pos, KindSyntax, "hexadecimal literal empty")
		}
	} else {
		digitsAt = p.pos
		for range map[rune]int{'x': 2, 'u': 4, 'U': 8}[kind] {
			if p.eof() {
				return escape{}, p.errSpan(p.pos, p.pos, KindSyntax, "incomplete escape sequence, reached end of pattern prematurely")
			}
			if err := digit(); err != nil {
				return escape{}, err
			}
		}
		digitsEnd = p.pos
	}
	v, err := strconv.ParseUint(string(digits), 16, 32)
	if err != nil || v > utf8.MaxRune || (0xD800 <= v && v <= 0xDFFF) {
		return escape{}, p.errSpan(digitsAt, digitsEnd, KindSyntax, "hexadecimal literal is not a Unicode scalar value")
	}
	if v >= assertBase {
		return escape{}, p.err(start, KindUnsupported, "characters U+10FFF0-U+10FFFF are reserved by rgkit")
	}
	if !p.fl.u && v >= 0x80 && v <= 0xFF && kind == 'x' && !braced {
		return escape{byteHi: true, r: ByteRune(byte(v))}, nil
	}
	return escape{r: rune(v)}, nil
}

// unicodeClass reads \pL, \p{Name}, \p{name=value}, \P{...}.
func (p *parser) unicodeClass(start int, neg bool) (escape, error) {
	if p.eof() {
		return escape{}, p.err(start, KindSyntax, "incomplete escape sequence, reached end of pattern prematurely")
	}
	var name string
	if p.peek() == '{' {
		p.next()
		at := p.pos
		for !p.eof() && p.peek() != '}' {
			p.next()
		}
		if p.eof() {
			return escape{}, p.errSpan(p.pos, p.pos, KindSyntax, "incomplete escape sequence, reached end of pattern prematurely")
		}
		name = p.src[at:p.pos]
		p.next()
		if k, v, ok := strings.Cut(name, "!="); ok {
			name, neg = k+"="+v, !neg
		}
	} else {
		if p.peek() == '\\' {
			return escape{}, p.errSpan(p.pos, p.pos+1, KindSyntax, "invalid Unicode character class")
		}
		name = string(p.next())
	}
	// What follows rg refuses only after parsing the whole pattern (see
	// parser.deferred): the class stands empty meanwhile.
	kind, why := KindSyntax, ""
	var cls ranges
	if !p.fl.u {
		why = "Unicode not allowed here"
	} else {
		var perr propertyError
		switch cls, perr = property(name); perr {
		case propertyUnsupported:
			kind, why = KindUnsupported, "Unicode property not supported by rgkit (it has no table of Unicode ages)"
		case propertyNotFound:
			why = "Unicode property not found"
		case propertyValueNotFound:
			why = "Unicode property value not found"
		}
	}
	if why != "" {
		p.later(p.errSpan(start, p.pos, kind, why))
		return escape{cls: ranges{}, isCls: true}, nil
	}
	return escape{cls: p.foldNeg(cls, neg), isCls: true}, nil
}

// perlClass is \d \s \w and their negations: Unicode unless (?-u).
func (p *parser) perlClass(start int, r rune) (escape, error) {
	var cls ranges
	switch r | 0x20 {
	case 'd':
		cls = ranges{'0', '9'}
		if p.fl.u {
			cls = table(ucd.GeneralCategory, "Decimal_Number")
		}
	case 's':
		cls = ranges{'\t', '\r', ' ', ' '}
		if p.fl.u {
			cls = table(ucd.Binary, "White_Space")
		}
	case 'w':
		cls = ranges{'0', '9', 'A', 'Z', '_', '_', 'a', 'z'}
		if p.fl.u {
			cls = perlWord()
		}
	}
	neg := r < 'a'
	return escape{cls: p.foldNeg(cls, neg), isCls: true}, nil
}

// fold closes cls under case folding when (?i) is on: Unicode's simple
// folding, or ASCII's under (?-u).
func (p *parser) fold(cls ranges) ranges {
	switch {
	case !p.fl.i:
		return cls
	case p.fl.u:
		return foldUnicode(cls)
	}
	return foldASCII(cls)
}

// foldNeg applies (?i) then negation, in rg's order.
func (p *parser) foldNeg(cls ranges, neg bool) ranges {
	cls = p.fold(cls)
	switch {
	case neg && !p.fl.u:
		cls = negateBytes(cls) // (?-u): every other byte
	case neg:
		cls = negate(cls)
	}
	return cls
}
