package native

import (
	"fmt"
	"regexp"
	"unicode/utf8"
)

// glob is one compiled glob in ripgrep's dialect (the globset crate, as rg
// 15.2 uses it for --glob, ignore files and type definitions): '*' and '?'
// never cross '/' when separators are literal, "**" is recursive only as a
// whole path component, {a,b} alternates (nested groups allowed), [a-z] /
// [!a-z] classes without escapes inside, and a backslash escapes the next
// character.
//
// Matching is byte-wise over the whole candidate, exactly like the anchored
// (?-u) regex globset builds. A glob is never expanded into its alternatives
// (that is exponential in the number of groups); it is matched by the first
// of these that applies:
//   - a fast path for the common shapes (a basename, an extension, a literal
//     path, a name prefix);
//   - doublestar (github.com/bmatcuk/doublestar/v4) on a doublestar pattern
//     rendered from the parsed glob, when the glob has a form doublestar
//     matches exactly as globset does (see toDoublestar) and the candidate is
//     ASCII;
//   - a Go regexp translated from the parsed glob, as globset itself does:
//     linear in the glob's size and the candidate's.
type glob struct {
	src  string
	fast globFast
	lit  string // the literal of the fast path
	// ds is the doublestar form of the glob, "" when doublestar cannot
	// express it; dsBytewise says its '?' and classes see whole characters,
	// so a candidate with non-ASCII bytes must take the regexp instead.
	ds         string
	dsBytewise bool
	// re matches the glob over the candidate's bytes, each byte read as the
	// character of the same number (see byteRunes); nil when a fast path or
	// doublestar always answers.
	re *regexp.Regexp
	// pre and suf are literal text every match starts / ends with: a
	// candidate without them is refused before doublestar or the regexp.
	pre, suf string
	// need is the longest literal of the glob outside any alternation
	// (every match contains it): a candidate without it is refused before
	// doublestar, which is what decides most paths against an ignore
	// file's "**/*.o.*" or "*.tab.[ch]".
	need string
	// literalSep: '*' and '?' do not match '/' (true for ignore files and --glob).
	literalSep bool
}

type globTokenKind uint8

const (
	tokLiteral    globTokenKind = iota // lit
	tokAny                             // '?': one byte
	tokStar                            // '*': zero or more bytes
	tokClass                           // [..]: one character
	tokRecPrefix                       // leading "**/": (?:/?|.*/)
	tokRecSuffix                       // trailing "/**": /.*
	tokRecMiddle                       // "/**/": (?:/|/.*/)
	tokAlternates                      // {a,b}: alts
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

// GlobErrorKind says what is wrong with a glob.
type GlobErrorKind uint8

const (
	GlobUnclosedClass      GlobErrorKind = iota + 1 // "[ab" without "]"
	GlobInvalidRange                                // "[z-a]"
	GlobUnopenedAlternates                          // a '}' without '{'
	GlobUnclosedAlternates                          // a '{' without '}'
	GlobDanglingEscape                              // a '\' at the end
	GlobTooComplex                                  // larger than the regexp engine accepts
)

// GlobError is a glob that does not parse. Reason is rg's wording.
type GlobError struct {
	Glob   string
	Kind   GlobErrorKind
	Reason string
}

func (e *GlobError) Error() string { return fmt.Sprintf("invalid glob %q: %s", e.Glob, e.Reason) }

func (p *globParser) fail(kind GlobErrorKind) error {
	reason := map[GlobErrorKind]string{
		GlobUnclosedClass:      "unclosed character class; missing ']'",
		GlobUnopenedAlternates: "unopened alternate group; missing '{' (maybe escape '}' with '[}]'?)",
		GlobUnclosedAlternates: "unclosed alternate group; missing '}' (maybe escape '{' with '[{]'?)",
		GlobDanglingEscape:     "dangling '\\'",
	}[kind]
	return &GlobError{Glob: p.src, Kind: kind, Reason: reason}
}

// compileGlob parses a glob in globset's dialect; an unclosed class is an
// error (rg's --glob and type globs).
func compileGlob(src string, literalSep bool) (*glob, error) {
	return compileGlobWith(src, literalSep, false)
}

// compileGlobWith parses a glob; allowUnclosed makes an unclosed '[' a
// literal, as rg 15 reads ignore files.
func compileGlobWith(src string, literalSep, allowUnclosed bool) (*glob, error) {
	return compileGlobFold(src, literalSep, allowUnclosed, false)
}

// compileGlobFold is compileGlobWith; fold matches ignoring ASCII case, as
// globset's case_insensitive does ("(?i)" in its (?-u) regex: non-ASCII
// bytes still compare exactly). A folded glob always takes the regexp.
func compileGlobFold(src string, literalSep, allowUnclosed, fold bool) (*glob, error) {
	toks, err := parseGlob(src, allowUnclosed)
	if err != nil {
		return nil, err
	}
	g := &glob{src: src, literalSep: literalSep}
	if fold {
		if len(toks) == 1 && toks[0].kind == tokRecPrefix {
			g.fast = fastAll
			return g, nil
		}
		re, err := regexp.Compile(globRegexpFold(toks, literalSep, true))
		if err != nil {
			return nil, &GlobError{Glob: src, Kind: GlobTooComplex, Reason: "too large or complex to compile"}
		}
		g.re = re
		return g, nil
	}
	if len(toks) == 1 && toks[0].kind == tokRecPrefix {
		// globset's special case: the glob "**" alone matches everything.
		// ("**/{}" is not it: its empty group still counts as a token.)
		g.fast = fastAll
		return g, nil
	}
	g.fast, g.lit = classifyGlob(toks, literalSep)
	if g.fast != fastNone {
		return g, nil
	}
	if toks[0].kind == tokLiteral {
		g.pre = toks[0].lit
	}
	if last := toks[len(toks)-1]; last.kind == tokLiteral {
		g.suf = last.lit
	}
	for _, t := range toks {
		if t.kind == tokLiteral && len(t.lit) > len(g.need) {
			g.need = t.lit
		}
	}
	if literalSep {
		// Only there is doublestar's '*' (never '/') globset's.
		g.ds, g.dsBytewise = toDoublestar(toks)
	}
	if g.ds == "" || g.dsBytewise {
		re, err := regexp.Compile(globRegexp(toks, literalSep))
		if err != nil {
			return nil, &GlobError{Glob: src, Kind: GlobTooComplex, Reason: "too large or complex to compile"}
		}
		g.re = re
	}
	return g, nil
}

// parseGlob parses a glob into its tokens.
func parseGlob(src string, allowUnclosed bool) ([]globToken, error) {
	p := globParser{src: src, branches: [][]globToken{nil}, allowUnclosed: allowUnclosed}
	if err := p.parse(); err != nil {
		return nil, err
	}
	if len(p.branches) > 1 {
		return nil, p.fail(GlobUnclosedAlternates)
	}
	return p.branches[0], nil
}

// globParser follows globset's parser: branches holds the top-level tokens
// and then the alternatives of every open group; altStart the index in
// branches where each open group's alternatives begin.
type globParser struct {
	src           string
	pos           int
	prev          rune // the character before the current one (0 at the start)
	cur           rune
	branches      [][]globToken
	altStart      []int
	allowUnclosed bool
	sawUnclosed   bool // an unclosed '[' was read as a literal: no class can follow
}

func (p *globParser) bump() (rune, bool) {
	p.prev = p.cur
	if p.pos >= len(p.src) {
		p.cur = 0
		return 0, false
	}
	r, n := utf8.DecodeRuneInString(p.src[p.pos:])
	p.pos += n
	p.cur = r
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
	top := len(p.branches) - 1
	toks := p.branches[top]
	if t.kind == tokLiteral && len(toks) > 0 && toks[len(toks)-1].kind == tokLiteral {
		toks[len(toks)-1].lit += t.lit
		return
	}
	p.branches[top] = append(toks, t)
}

func (p *globParser) parse() error {
	for {
		c, ok := p.bump()
		if !ok {
			return nil
		}
		switch {
		case c == '?':
			p.push(globToken{kind: tokAny})
		case c == '*':
			p.parseStar()
		case c == '[' && !p.sawUnclosed:
			if err := p.parseClass(); err != nil {
				return err
			}
		case c == '{':
			p.altStart = append(p.altStart, len(p.branches))
			p.branches = append(p.branches, nil)
		case c == '}':
			n := len(p.altStart)
			if n == 0 {
				return p.fail(GlobUnopenedAlternates)
			}
			start := p.altStart[n-1]
			p.altStart = p.altStart[:n-1]
			alts := append([][]globToken(nil), p.branches[start:]...)
			p.branches = p.branches[:start]
			p.push(globToken{kind: tokAlternates, alts: alts})
		case c == ',' && len(p.altStart) > 0:
			p.branches = append(p.branches, nil)
		case c == '\\':
			e, ok := p.bump()
			if !ok {
				return p.fail(GlobDanglingEscape)
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
func (p *globParser) parseStar() {
	prev := p.prev
	if c, ok := p.peek(); !ok || c != '*' {
		p.push(globToken{kind: tokStar})
		return
	}
	p.bump() // the second '*'
	top := len(p.branches) - 1
	inGroup := len(p.branches) > 1
	if len(p.branches[top]) == 0 {
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
	if prev != '/' && (!inGroup || (prev != ',' && prev != '{')) {
		p.push(globToken{kind: tokStar})
		p.push(globToken{kind: tokStar})
		return
	}
	isSuffix := false
	c, ok := p.peek()
	switch {
	case !ok:
		isSuffix = true
	case (c == ',' || c == '}') && inGroup:
		isSuffix = true
	case c == '/':
		p.bump()
	default:
		p.push(globToken{kind: tokStar})
		p.push(globToken{kind: tokStar})
		return
	}
	// Replace the token before "**" with a recursive one, as globset's
	// pop_token does (it is the '/' that let "**" be recursive, or a
	// recursive token that absorbs this one).
	toks := p.branches[top]
	last := toks[len(toks)-1]
	switch {
	case last.kind == tokRecPrefix || last.kind == tokRecSuffix:
		return
	case last.kind == tokLiteral && utf8.RuneCountInString(last.lit) > 1:
		_, n := utf8.DecodeLastRuneInString(last.lit)
		toks[len(toks)-1].lit = last.lit[:len(last.lit)-n]
	default:
		toks = toks[:len(toks)-1]
	}
	p.branches[top] = toks
	if isSuffix {
		p.push(globToken{kind: tokRecSuffix})
	} else {
		p.push(globToken{kind: tokRecMiddle})
	}
}

func (p *globParser) parseClass() error {
	savedPos, savedPrev, savedCur := p.pos, p.prev, p.cur
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
			if !p.allowUnclosed {
				return p.fail(GlobUnclosedClass)
			}
			// rg 15 reads the '[' as a literal and goes on after it.
			p.pos, p.prev, p.cur = savedPos, savedPrev, savedCur
			p.sawUnclosed = true
			p.push(globToken{kind: tokLiteral, lit: "["})
			return nil
		}
		switch {
		case c == ']' && !first:
			if inRange {
				ranges = append(ranges, runeRange{'-', '-'})
			}
			p.push(globToken{kind: tokClass, negated: negated, ranges: ranges})
			return nil
		case c == '-' && !first && !inRange:
			inRange = true
		case inRange:
			r := &ranges[len(ranges)-1]
			r.hi = c
			if r.hi < r.lo {
				return &GlobError{Glob: p.src, Kind: GlobInvalidRange, Reason: fmt.Sprintf("invalid range; '%c' > '%c'", r.lo, r.hi)}
			}
			inRange = false
		default:
			ranges = append(ranges, runeRange{c, c})
		}
		first = false
	}
}
