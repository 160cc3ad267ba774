package native

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// glob is one compiled glob in ripgrep's dialect (the globset crate, as rg 13
// uses it for --glob, ignore files and type definitions): '*' and '?' never
// cross '/' when separators are literal, "**" is recursive only as a whole path
// component, {a,b} alternates (not nested), [a-z] / [!a-z] classes without
// escapes inside, and a backslash escapes the next character.
//
// Matching is byte-wise over the whole candidate, exactly like the anchored
// (?-u) regex globset builds, but without a regexp: globs are short, and the
// common shapes (a basename, an extension, a literal path) take fast paths.
type glob struct {
	src  string
	alts [][]globToken // the glob with its alternates expanded; matches when any does
	fast globFast
	lit  string // the literal of the fast path
	// literalSep: '*' and '?' do not match '/' (true for ignore files and --glob).
	literalSep bool
}

type globTokenKind uint8

const (
	tokLiteral   globTokenKind = iota // lit
	tokAny                            // '?': one byte
	tokStar                           // '*': zero or more bytes
	tokClass                          // [..]: one character
	tokRecPrefix                      // leading "**/": (?:/?|.*/)
	tokRecSuffix                      // trailing "/**": /.*
	tokRecMiddle                      // "/**/": (?:/|/.*/)
)

type globToken struct {
	kind    globTokenKind
	lit     string
	negated bool
	ranges  []runeRange
	alts    [][]globToken // tokAlternates only
}

type runeRange struct{ lo, hi rune }

// globFast names a shape matched without backtracking.
type globFast uint8

const (
	fastNone     globFast = iota
	fastExact             // the whole candidate equals lit
	fastAll               // "**": everything
	fastBasename          // "**/lit": the last component equals lit
	fastExt               // "**/*lit": the last component ends with lit
	fastPrefix            // "**/lit*": the last component starts with lit
	fastSuffix            // "**/a/b": the path is lit or ends with "/"+lit
)

// GlobError is a glob that does not parse (an unclosed class or alternation,
// nested alternates, a dangling escape, an inverted range).
type GlobError struct {
	Glob   string
	Reason string
}

func (e *GlobError) Error() string { return fmt.Sprintf("invalid glob %q: %s", e.Glob, e.Reason) }

// compileGlob parses a glob in globset's dialect.
func compileGlob(src string, literalSep bool) (*glob, error) {
	p := globParser{src: src, stack: [][]globToken{nil}}
	if err := p.parse(); err != nil {
		return nil, err
	}
	if len(p.stack) > 1 {
		return nil, &GlobError{src, "unclosed alternate group; '{' without '}'"}
	}
	g := &glob{src: src, literalSep: literalSep, alts: expandAlternates(p.stack[0])}
	g.fast, g.lit = classifyGlob(g.alts, literalSep)
	if top := p.stack[0]; len(top) == 1 && top[0].kind == tokRecPrefix {
		// globset's special case: the glob "**" alone matches everything.
		// ("**/{}" is not it: its empty group still counts as a token.)
		g.fast = fastAll
	}
	return g, nil
}

// tokAlternates holds the alternatives of a {a,b} group until expansion.
const tokAlternates globTokenKind = 100

type globParser struct {
	src   string
	pos   int
	stack [][]globToken // the top-level tokens, then the open group's alternatives
}

func (p *globParser) bump() (rune, bool) {
	if p.pos >= len(p.src) {
		return 0, false
	}
	r, n := utf8.DecodeRuneInString(p.src[p.pos:])
	p.pos += n
	return r, true
}

func (p *globParser) peek() (rune, bool) {
	if p.pos >= len(p.src) {
		return 0, false
	}
	r, _ := utf8.DecodeRuneInString(p.src[p.pos:])
	return r, true
}

func (p *globParser) push(t globToken) {
	top := len(p.stack) - 1
	toks := p.stack[top]
	if t.kind == tokLiteral && len(toks) > 0 && toks[len(toks)-1].kind == tokLiteral {
		toks[len(toks)-1].lit += t.lit
		return
	}
	p.stack[top] = append(toks, t)
}

func (p *globParser) parse() error {
	for {
		start := p.pos
		c, ok := p.bump()
		if !ok {
			return nil
		}
		switch c {
		case '?':
			p.push(globToken{kind: tokAny})
		case '*':
			p.parseStar(start)
		case '[':
			if err := p.parseClass(); err != nil {
				return err
			}
		case '{':
			if len(p.stack) > 1 {
				return &GlobError{p.src, "nested alternate groups are not allowed"}
			}
			p.stack = append(p.stack, nil)
		case '}':
			// globset pops every open alternative; a stray '}' yields an
			// empty group, which matches the empty string (it is dropped).
			var alts [][]globToken
			for len(p.stack) >= 2 {
				alts = append(alts, p.stack[len(p.stack)-1])
				p.stack = p.stack[:len(p.stack)-1]
			}
			p.stack[len(p.stack)-1] = append(p.stack[len(p.stack)-1], globToken{kind: tokAlternates, alts: alts})
		case ',':
			if len(p.stack) <= 1 {
				p.push(globToken{kind: tokLiteral, lit: ","})
			} else {
				p.stack = append(p.stack, nil)
			}
		case '\\':
			e, ok := p.bump()
			if !ok {
				return &GlobError{p.src, "dangling '\\'"}
			}
			p.push(globToken{kind: tokLiteral, lit: string(e)})
		default:
			p.push(globToken{kind: tokLiteral, lit: string(c)})
		}
	}
}

// parseStar follows globset's parse_star: "**" is recursive only when it is
// a whole component (at the start, after '/', or after '{' or ','), and is
// otherwise two '*'.
func (p *globParser) parseStar(start int) {
	if c, ok := p.peek(); !ok || c != '*' {
		p.push(globToken{kind: tokStar})
		return
	}
	p.bump() // the second '*'
	top := len(p.stack) - 1
	if len(p.stack[top]) == 0 {
		// "**" at the start of the glob or of an alternative.
		if c, ok := p.peek(); ok && c != '/' {
			p.push(globToken{kind: tokStar})
			p.push(globToken{kind: tokStar})
			return
		}
		p.push(globToken{kind: tokRecPrefix})
		p.bump() // the '/' (or nothing at the end)
		return
	}
	var prev byte
	if start > 0 {
		prev = p.src[start-1]
	}
	if prev != '/' {
		if len(p.stack) <= 1 || (prev != ',' && prev != '{') {
			p.push(globToken{kind: tokStar})
			p.push(globToken{kind: tokStar})
			return
		}
	}
	isSuffix := false
	c, ok := p.peek()
	switch {
	case !ok:
		isSuffix = true
	case (c == ',' || c == '}') && len(p.stack) >= 2:
		isSuffix = true
	case c == '/':
		p.bump()
	default:
		p.push(globToken{kind: tokStar})
		p.push(globToken{kind: tokStar})
		return
	}
	// Replace the '/' literal before "**" (if any) with a recursive token,
	// as globset's pop_token does.
	toks := p.stack[top]
	if n := len(toks); n > 0 {
		last := &toks[n-1]
		switch {
		case last.kind == tokRecPrefix || last.kind == tokRecSuffix:
			return
		case last.kind == tokLiteral && strings.HasSuffix(last.lit, "/"):
			last.lit = last.lit[:len(last.lit)-1]
			if last.lit == "" {
				toks = toks[:n-1]
			}
		default:
			toks = toks[:n-1]
		}
		p.stack[top] = toks
	}
	if isSuffix {
		p.push(globToken{kind: tokRecSuffix})
	} else {
		p.push(globToken{kind: tokRecMiddle})
	}
}

func (p *globParser) parseClass() error {
	var ranges []runeRange
	negated := false
	if c, ok := p.peek(); ok && (c == '!' || c == '^') {
		p.bump()
		negated = true
	}
	first, inRange := true, false
	for {
		c, ok := p.bump()
		if !ok {
			return &GlobError{p.src, "unclosed character class; '[' without ']'"}
		}
		switch {
		case c == ']' && !first:
			if inRange {
				ranges = append(ranges, runeRange{'-', '-'})
			}
			p.stack[len(p.stack)-1] = append(p.stack[len(p.stack)-1], globToken{kind: tokClass, negated: negated, ranges: ranges})
			return nil
		case c == '-' && !first && !inRange:
			inRange = true
		case inRange:
			r := &ranges[len(ranges)-1]
			r.hi = c
			if r.hi < r.lo {
				return &GlobError{p.src, fmt.Sprintf("invalid range %c-%c", r.lo, r.hi)}
			}
			inRange = false
		default:
			ranges = append(ranges, runeRange{c, c})
		}
		first = false
	}
}
