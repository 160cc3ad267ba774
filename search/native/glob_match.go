package native

import (
	"strings"
	"unicode/utf8"
)

// expandAlternates turns a token list with {a,b} groups into the list of
// plain token sequences it stands for. Empty alternatives are dropped, as
// globset drops them from its regex ("{a,}" matches only "a"); a group whose
// alternatives are all empty matches the empty string.
func expandAlternates(toks []globToken) [][]globToken {
	out := [][]globToken{nil}
	for _, t := range toks {
		if t.kind != tokAlternates {
			for i := range out {
				out[i] = appendToken(out[i], t)
			}
			continue
		}
		var alts [][]globToken
		for _, a := range t.alts {
			if len(a) > 0 {
				alts = append(alts, a)
			}
		}
		if len(alts) == 0 {
			continue
		}
		next := make([][]globToken, 0, len(out)*len(alts))
		for _, prefix := range out {
			for _, a := range alts {
				seq := append([]globToken(nil), prefix...)
				for _, at := range a {
					seq = appendToken(seq, at)
				}
				next = append(next, seq)
			}
		}
		out = next
	}
	return out
}

func appendToken(seq []globToken, t globToken) []globToken {
	if t.kind == tokLiteral && len(seq) > 0 && seq[len(seq)-1].kind == tokLiteral {
		last := seq[len(seq)-1]
		last.lit += t.lit
		seq[len(seq)-1] = last
		return seq
	}
	return append(seq, t)
}

// classifyGlob picks a fast path when the glob is a single sequence of a
// common shape.
func classifyGlob(alts [][]globToken, literalSep bool) (globFast, string) {
	if len(alts) != 1 {
		return fastNone, ""
	}
	t := alts[0]
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
	case len(t) == 2 && t[0].kind == tokRecPrefix && t[1].kind == tokLiteral && !strings.Contains(t[1].lit, "/"):
		return fastBasename, t[1].lit
	case len(t) == 3 && t[0].kind == tokRecPrefix && t[1].kind == tokStar && t[2].kind == tokLiteral && !strings.Contains(t[2].lit, "/"):
		return fastExt, t[2].lit
	case len(t) == 3 && t[0].kind == tokRecPrefix && t[1].kind == tokLiteral && t[2].kind == tokStar && !strings.Contains(t[1].lit, "/"):
		return fastPrefix, t[1].lit
	}
	return fastNone, ""
}

// match reports whether the whole of s matches the glob.
func (g *glob) match(s string) bool {
	fast := g.fast
	if fast == fastPrefix && strings.IndexByte(s, '\n') >= 0 {
		// globset has no strategy for this shape and runs its regex, where
		// "**/" is (?:/?|.*/) and '.' stops at '\n': a path with a newline
		// takes the exact slow path. (Its basename, extension and suffix
		// strategies look at the name only, as the fast paths here do.)
		fast = fastNone
	}
	switch fast {
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
	for _, seq := range g.alts {
		if matchTokens(seq, s, g.literalSep) {
			return true
		}
	}
	return false
}

// basename is the last slash-separated component of p.
func basename(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// matchTokens matches s against toks by backtracking. Globs are short and
// their stars few, so this stays cheap in practice.
func matchTokens(toks []globToken, s string, literalSep bool) bool {
	for len(toks) > 0 {
		t := toks[0]
		switch t.kind {
		case tokLiteral:
			if !strings.HasPrefix(s, t.lit) {
				return false
			}
			s = s[len(t.lit):]
		case tokAny:
			if s == "" || (literalSep && s[0] == '/') || (!literalSep && s[0] == '\n') {
				return false
			}
			s = s[1:]
		case tokClass:
			r, n := utf8.DecodeRuneInString(s)
			if s == "" || !t.classMatches(r) {
				return false
			}
			if r == utf8.RuneError {
				n = 1
			}
			s = s[n:]
		case tokStar:
			rest := toks[1:]
			for i := 0; ; i++ {
				if matchTokens(rest, s[i:], literalSep) {
					return true
				}
				if i == len(s) || (literalSep && s[i] == '/') || (!literalSep && s[i] == '\n') {
					return false
				}
			}
		case tokRecPrefix: // (?:/?|.*/)
			rest := toks[1:]
			if matchTokens(rest, s, literalSep) {
				return true
			}
			for i := 0; i < len(s) && s[i] != '\n'; i++ {
				if s[i] == '/' && matchTokens(rest, s[i+1:], literalSep) {
					return true
				}
			}
			return false
		case tokRecSuffix: // /.*
			if s == "" || s[0] != '/' {
				return false
			}
			rest := toks[1:]
			s = s[1:]
			for i := 0; ; i++ {
				if matchTokens(rest, s[i:], literalSep) {
					return true
				}
				if i == len(s) || s[i] == '\n' {
					return false
				}
			}
		case tokRecMiddle: // (?:/|/.*/)
			if s == "" || s[0] != '/' {
				return false
			}
			rest := toks[1:]
			if matchTokens(rest, s[1:], literalSep) {
				return true
			}
			for i := 1; i < len(s) && s[i] != '\n'; i++ {
				if s[i] == '/' && matchTokens(rest, s[i+1:], literalSep) {
					return true
				}
			}
			return false
		}
		toks = toks[1:]
	}
	return s == ""
}

func (t *globToken) classMatches(r rune) bool {
	in := false
	for _, rg := range t.ranges {
		if rg.lo <= r && r <= rg.hi {
			in = true
			break
		}
	}
	return in != t.negated
}
