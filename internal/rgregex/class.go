package rgregex

import "strings"

// posixClasses are the ASCII classes rg accepts inside brackets ([[:alpha:]]).
var posixClasses = map[string]ranges{
	"alnum": {'0', '9', 'A', 'Z', 'a', 'z'}, "alpha": {'A', 'Z', 'a', 'z'}, "ascii": {0, 0x7F},
	"blank": {'\t', '\t', ' ', ' '}, "cntrl": {0, 0x1F, 0x7F, 0x7F}, "digit": {'0', '9'},
	"graph": {'!', '~'}, "lower": {'a', 'z'}, "print": {' ', '~'},
	"punct": {'!', '/', ':', '@', '[', '`', '{', '~'}, "space": {'\t', '\r', ' ', ' '},
	"upper": {'A', 'Z'}, "word": {'0', '9', 'A', 'Z', '_', '_', 'a', 'z'}, "xdigit": {'0', '9', 'A', 'F', 'a', 'f'},
}

// parseClass reads a bracketed class at p.pos ('['), with nested classes
// and the set operators && (intersection), -- (difference) and ~~
// (symmetric difference), which bind looser than the union of items.
func (p *parser) parseClass() (ranges, error) {
	start := p.pos
	if p.depth++; p.depth > maxDepth {
		return nil, p.err(start, KindSyntax, "exceeds the nest limit of 250")
	}
	defer func() { p.depth-- }()
	p.next()
	neg := false
	if p.peek() == '^' {
		p.next()
		neg = true
	}
	// rg marks an unclosed class by its opening: '[', '^', the '-' that
	// lead, or else a leading ']' (all literals there).
	open := p.pos
	for open < len(p.src) && p.src[open] == '-' {
		open++
	}
	if open == p.pos && open < len(p.src) && p.src[open] == ']' {
		open++
	}
	unclosed := func() error { return p.errSpan(start, open, KindSyntax, "unclosed character class") }
	var acc, cur ranges
	op := ""
	first := true
	for {
		p.skipSpace()
		if p.eof() {
			return nil, unclosed()
		}
		at := p.pos
		r := p.peek()
		if r == ']' && !first {
			p.next()
			break
		}
		if two := p.src[p.pos:min(p.pos+2, len(p.src))]; !first && (two == "&&" || two == "--" || two == "~~") {
			p.pos += 2
			if op != "" {
				cur = p.setOp(acc, op, cur)
			}
			acc, cur, op = cur, nil, two
			continue
		}
		first = false
		if r == '[' {
			if cls, ok := p.posix(); ok {
				cur = union(cur, cls)
				continue
			}
			cls, err := p.parseClass()
			if err != nil {
				return nil, err
			}
			cur = union(cur, cls)
			continue
		}
		lo, cls, isCls, err := p.classAtom()
		if err != nil {
			return nil, err
		}
		loEnd := p.pos
		if p.eof() {
			return nil, unclosed()
		}
		if p.peek() != '-' || p.peekAt(1) == ']' || p.peekAt(1) == '-' {
			if isCls {
				cur = union(cur, cls)
			} else {
				cur = union(cur, single(lo))
			}
			continue
		}
		p.next() // '-'
		p.skipSpace()
		endAt := p.pos
		if p.eof() {
			return nil, unclosed()
		}
		// (rg reads both ends before it checks either)
		hi, _, hiCls, err := p.classAtom()
		if err != nil {
			return nil, err
		}
		if isCls {
			return nil, p.errSpan(at, loEnd, KindSyntax, "invalid range boundary, must be a literal")
		}
		if hiCls {
			return nil, p.errSpan(endAt, p.pos, KindSyntax, "invalid range boundary, must be a literal")
		}
		if lo > hi {
			return nil, p.errSpan(at, p.pos, KindSyntax, "invalid character class range, the start must be <= the end")
		}
		cur = union(cur, ranges{lo, hi})
	}
	if op != "" {
		cur = p.setOp(acc, op, cur)
	}
	return p.foldNeg(cur, neg), nil
}

// setOp applies a class set operator. Under (?i) each operand is closed
// under case folding first, as rg does: (?i)[a~~A] is empty, and
// (?i)[a-c--B] holds neither b nor B.
func (p *parser) setOp(a ranges, op string, b ranges) ranges {
	a, b = p.fold(a), p.fold(b)
	switch op {
	case "&&":
		return intersect(a, b)
	case "--":
		return difference(a, b)
	}
	return symdiff(a, b)
}

// classAtom reads one literal or escape inside a class.
func (p *parser) classAtom() (rune, ranges, bool, error) {
	at := p.pos
	r := p.next()
	if r != '\\' {
		if !p.fl.u && r >= 0x80 {
			// (?-u): a class holds bytes, and this is a character
			p.later(p.errSpan(at, p.pos, KindSyntax, "Unicode not allowed here"))
		}
		if p.onLit != nil {
			p.onLit(r)
		}
		return r, nil, false, nil
	}
	e, err := p.escape(at, true)
	if err != nil {
		return 0, nil, false, err
	}
	if !p.fl.u && !e.isCls && e.r >= 0x80 && !IsByteRune(e.r) {
		p.later(p.errSpan(at, p.pos, KindSyntax, "Unicode not allowed here"))
	}
	if !e.isCls && p.onLit != nil {
		p.onLit(e.r)
	}
	return e.r, e.cls, e.isCls, nil
}

// posix reads [:name:] or [:^name:] at p.pos; ok is false (and nothing is
// consumed) when the text there is not one, so it is a nested class.
func (p *parser) posix() (ranges, bool) {
	rest := p.src[p.pos:]
	if !strings.HasPrefix(rest, "[:") {
		return nil, false
	}
	end := strings.Index(rest, ":]")
	if end < 0 {
		return nil, false
	}
	name := rest[2:end]
	neg := strings.HasPrefix(name, "^")
	cls, ok := posixClasses[strings.TrimPrefix(name, "^")]
	if !ok {
		return nil, false
	}
	p.pos += end + 2
	if neg {
		// folded before it is negated, as rg does: under (?i) [[:^alpha:]]
		// holds no K, not even the Kelvin sign, so the bracket's own fold
		// adds no 'k'
		return p.foldNeg(cls, true), true
	}
	return cls, true
}
