package native

import (
	"fmt"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// classifyGlob picks a fast path when the glob is one of the common shapes.
func classifyGlob(t []globToken, literalSep bool) (globFast, string) {
	switch {
	case len(t) == 1 && t[0].kind == tokLiteral:
		return fastExact, t[0].lit
	case len(t) == 0:
		return fastExact, ""
	case !literalSep && len(t) == 2 && t[0].kind == tokStar && t[1].kind == tokLiteral && isPureExt(t[1].lit):
		return fastExt, t[1].lit // globset's extension strategy ("*.go" as a type glob)
	case !literalSep:
		return fastNone, ""
	case len(t) == 2 && t[0].kind == tokRecPrefix && t[1].kind == tokLiteral && strings.Contains(t[1].lit, "/"):
		return fastSuffix, t[1].lit // globset's suffix strategy ("**/a/b")
	case len(t) == 2 && t[0].kind == tokRecPrefix && t[1].kind == tokLiteral:
		return fastBasename, t[1].lit
	case len(t) == 3 && t[0].kind == tokRecPrefix && t[1].kind == tokStar && t[2].kind == tokLiteral && !strings.Contains(t[2].lit, "/"):
		return fastExt, t[2].lit
	case len(t) == 3 && t[0].kind == tokRecPrefix && t[1].kind == tokLiteral && t[2].kind == tokStar && !strings.Contains(t[1].lit, "/"):
		return fastPrefix, t[1].lit
	}
	return fastNone, ""
}

// dsMaxAlternatives bounds the alternatives a glob handed to doublestar may
// stand for: doublestar tries a {a,b} group by matching the rest of the
// pattern once per alternative, which is exponential in the number of
// groups. Beyond the bound the glob takes the regexp, which is linear.
const dsMaxAlternatives = 16

// toDoublestar renders the parsed glob as a doublestar pattern when
// doublestar matches it exactly as globset's regex does (on candidates that
// are relative paths without empty components), or returns "". bytewise is
// true when the glob has a '?', a class or a non-ASCII literal: doublestar
// reads whole characters there, globset single bytes, so a candidate with
// non-ASCII bytes must take the regexp.
//
// Our own code stays where doublestar cannot express globset's rule:
//   - "**" inside a {..} group, "**/" that is not at the start, and a
//     trailing "/**/" (doublestar's "**" means something else there);
//   - two '*' that meet once a group is expanded ("{*,b}*": doublestar
//     reads the pair as "**");
//   - a class that matches '/' ("[!a]", "[.-0]"): doublestar backtracks
//     only to its last '*', which is complete only when nothing but a
//     literal '/' or "**" crosses a separator;
//   - more than dsMaxAlternatives alternatives (not linear in doublestar);
//   - the candidate's non-ASCII bytes under '?' and classes (see bytewise).
func toDoublestar(toks []globToken) (pattern string, bytewise bool) {
	r := dsRenderer{}
	if !r.seq(toks, true) || countAlternatives(toks) > dsMaxAlternatives {
		return "", false
	}
	return r.b.String(), r.bytewise
}

type dsRenderer struct {
	b        strings.Builder
	bytewise bool
}

// seq renders toks; top says they are the glob's top level.
func (r *dsRenderer) seq(toks []globToken, top bool) bool {
	lastStar := false // the text so far may end with a '*'
	for i, t := range toks {
		first, last, empty := starEdges(t)
		if empty {
			continue // an empty group matches the empty string: globset drops it
		}
		if lastStar && first && !(t.kind == tokStar && toks[i-1].kind == tokStar) {
			return false
		}
		switch t.kind {
		case tokLiteral:
			for _, c := range t.lit {
				if c >= 0x80 {
					r.bytewise = true
				}
				if strings.ContainsRune(`*?[]{}\,!^-`, c) {
					r.b.WriteByte('\\')
				}
				r.b.WriteRune(c)
			}
		case tokAny:
			r.bytewise = true
			r.b.WriteByte('?')
		case tokStar:
			if i > 0 && toks[i-1].kind == tokStar {
				continue // "**" inside a name is one '*'
			}
			r.b.WriteByte('*')
		case tokClass:
			if classMatchesSlash(t) {
				return false
			}
			r.bytewise = true
			r.b.WriteByte('[')
			if t.negated {
				r.b.WriteByte('!')
			}
			for _, rg := range t.ranges {
				r.b.WriteByte('\\')
				r.b.WriteRune(rg.lo)
				if rg.hi != rg.lo {
					r.b.WriteString(`-\`)
					r.b.WriteRune(rg.hi)
				}
			}
			r.b.WriteByte(']')
		case tokRecPrefix:
			if !top || i != 0 {
				return false
			}
			r.b.WriteString("**/")
		case tokRecMiddle:
			if !top || i == len(toks)-1 {
				return false
			}
			r.b.WriteString("/**/")
		case tokRecSuffix:
			if !top || i != len(toks)-1 {
				return false
			}
			// globset's "/.*": at least one more component, never the
			// directory itself (doublestar's "/**" would match it).
			r.b.WriteString("/**/*")
		case tokAlternates:
			r.b.WriteByte('{')
			n := 0
			for _, a := range t.alts {
				if rendersEmpty(a) {
					continue // globset drops empty alternatives
				}
				if n > 0 {
					r.b.WriteByte(',')
				}
				if !r.seq(a, false) {
					return false
				}
				n++
			}
			r.b.WriteByte('}')
		}
		lastStar = last
	}
	return true
}

// classMatchesSlash reports whether a class token matches '/' (globset's
// classes do not exclude it, so a negated class usually does).
func classMatchesSlash(t globToken) bool {
	in := false
	for _, r := range t.ranges {
		if r.lo <= '/' && '/' <= r.hi {
			in = true
		}
	}
	return in != t.negated
}

// starEdges reports whether the text t matches may start or end with what a
// '*' matches, and whether t renders to nothing (a group of empty
// alternatives).
func starEdges(t globToken) (first, last, empty bool) {
	switch t.kind {
	case tokStar:
		return true, true, false
	case tokAlternates:
		empty = true
		for _, a := range t.alts {
			if rendersEmpty(a) {
				continue
			}
			empty = false
			f, l := seqStarEdges(a)
			first, last = first || f, last || l
		}
		return first, last, empty
	}
	return false, false, false
}

func seqStarEdges(toks []globToken) (first, last bool) {
	seenFirst := false
	for _, t := range toks {
		f, l, empty := starEdges(t)
		if empty {
			continue
		}
		if !seenFirst {
			first, seenFirst = f, true
		}
		last = l
	}
	return first, last
}

// rendersEmpty reports whether toks produce no regex text in globset (an
// empty alternative, or groups of them), which globset then drops.
func rendersEmpty(toks []globToken) bool {
	for _, t := range toks {
		if t.kind != tokAlternates {
			return false
		}
		for _, a := range t.alts {
			if !rendersEmpty(a) {
				return false
			}
		}
	}
	return true
}

// countAlternatives is the number of brace-free patterns toks stand for,
// saturating above dsMaxAlternatives.
func countAlternatives(toks []globToken) int {
	n := 1
	for _, t := range toks {
		if t.kind != tokAlternates {
			continue
		}
		sum := 0
		for _, a := range t.alts {
			if !rendersEmpty(a) {
				sum += countAlternatives(a)
			}
		}
		if sum > 0 {
			n *= sum
		}
		if n > dsMaxAlternatives {
			return dsMaxAlternatives + 1
		}
	}
	return n
}

// globRegexp translates the parsed glob into a Go regexp the way globset
// translates it into a Rust one: "(?-u)^...$" over bytes, with "." matching
// newlines. Go's regexp reads UTF-8, so the regexp is written over the
// candidate's bytes seen as the characters U+0000..U+00FF (byteRunes): a
// non-ASCII literal or class member becomes its UTF-8 bytes, as globset's
// char_to_escaped_literal makes it. The translation is linear in the glob's
// size (no alternative is expanded), and so is matching.
func globRegexp(toks []globToken, literalSep bool) string {
	return globRegexpFold(toks, literalSep, false)
}

// globRegexpFold is globRegexp; fold makes each ASCII letter match either
// case (literals and class members), as (?i) does in globset's (?-u) regex.
func globRegexpFold(toks []globToken, literalSep, fold bool) string {
	if len(toks) == 1 && toks[0].kind == tokRecPrefix {
		return `(?s)\A.*\z` // globset's special case: "**" alone matches everything
	}
	var b strings.Builder
	b.WriteString(`(?s)\A(?:`)
	writeRegexp(&b, toks, literalSep, fold)
	b.WriteString(`)\z`)
	return b.String()
}

func writeRegexp(b *strings.Builder, toks []globToken, literalSep, fold bool) {
	for _, t := range toks {
		switch t.kind {
		case tokLiteral:
			for i := 0; i < len(t.lit); i++ {
				if c := t.lit[i]; fold && isASCIILetter(c) {
					b.WriteString("[" + string(c|0x20) + string(c&^0x20) + "]")
					continue
				}
				writeRegexpByte(b, t.lit[i])
			}
		case tokAny:
			if literalSep {
				b.WriteString(`[^/]`)
			} else {
				b.WriteString(`.`)
			}
		case tokStar:
			if literalSep {
				b.WriteString(`[^/]*`)
			} else {
				b.WriteString(`.*`)
			}
		case tokRecPrefix:
			b.WriteString(`(?:/?|.*/)`)
		case tokRecSuffix:
			b.WriteString(`/.*`)
		case tokRecMiddle:
			b.WriteString(`(?:/|/.*/)`)
		case tokClass:
			b.WriteByte('[')
			if t.negated {
				b.WriteByte('^')
			}
			ranges := t.ranges
			if fold {
				ranges = foldRanges(ranges)
			}
			for _, r := range ranges {
				writeClassRune(b, r.lo)
				if r.hi != r.lo {
					b.WriteByte('-')
					writeClassRune(b, r.hi)
				}
			}
			b.WriteByte(']')
		case tokAlternates:
			var parts []string
			for _, a := range t.alts {
				var ab strings.Builder
				writeRegexp(&ab, a, literalSep, fold)
				if ab.Len() > 0 {
					parts = append(parts, ab.String())
				}
			}
			if len(parts) > 0 {
				b.WriteString("(?:" + strings.Join(parts, "|") + ")")
			}
		}
	}
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// foldRanges adds to a class the other case of every ASCII letter in it.
func foldRanges(rs []runeRange) []runeRange {
	out := append([]runeRange(nil), rs...)
	for _, r := range rs {
		for _, span := range [...]struct{ lo, hi, delta rune }{{'a', 'z', 'A' - 'a'}, {'A', 'Z', 'a' - 'A'}} {
			lo, hi := max(r.lo, span.lo), min(r.hi, span.hi)
			if lo <= hi {
				out = append(out, runeRange{lo + span.delta, hi + span.delta})
			}
		}
	}
	return out
}

func writeRegexpByte(b *strings.Builder, c byte) {
	if c < 0x80 && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '/') {
		b.WriteByte(c)
		return
	}
	fmt.Fprintf(b, `\x{%02x}`, c)
}

// writeClassRune writes a class member as its UTF-8 bytes, each one a member.
func writeClassRune(b *strings.Builder, r rune) {
	for _, c := range []byte(string(r)) {
		fmt.Fprintf(b, `\x{%02x}`, c)
	}
}

// byteRunes returns s with each byte as the character of the same number,
// so a regexp from globRegexp sees bytes; an ASCII s is returned as is.
func byteRunes(s string) string {
	i := 0
	for i < len(s) && s[i] < 0x80 {
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) * 2)
	b.WriteString(s[:i])
	for ; i < len(s); i++ {
		b.WriteRune(rune(s[i]))
	}
	return b.String()
}

func isASCIIString(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// match reports whether the whole of s matches the glob.
func (g *glob) match(s string) bool {
	switch g.fast {
	case fastAll:
		return true
	case fastExact:
		return s == g.lit
	case fastBasename:
		return basename(s) == g.lit
	case fastExt:
		return strings.HasSuffix(basename(s), g.lit)
	case fastPrefix:
		return strings.HasPrefix(basename(s), g.lit)
	case fastSuffix:
		return s == g.lit || (strings.HasSuffix(s, g.lit) && s[len(s)-len(g.lit)-1] == '/')
	}
	if !strings.HasPrefix(s, g.pre) || !strings.HasSuffix(s, g.suf) || !strings.Contains(s, g.need) {
		return false
	}
	if g.ds != "" && (!g.dsBytewise || isASCIIString(s)) {
		return doublestar.MatchUnvalidated(g.ds, s)
	}
	return g.re.MatchString(byteRunes(s))
}

// basename is the last slash-separated component of p.
func basename(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}
