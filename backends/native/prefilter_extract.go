package native

import (
	"regexp/syntax"
	"slices"
	"unicode/utf8"

	"github.com/rgkit/rgkit/internal/rgregex"
	"github.com/rgkit/rgkit/internal/runeclass"
	"github.com/rgkit/rgkit/internal/ucd"
)

// lit is one literal a prefilter looks for. fold means ASCII letters compare
// without case; it is only set when ASCII folding is exactly Go's Unicode
// simple folding for every letter (no 'k' or 's', whose fold orbits hold
// the Kelvin sign and the long s).
type lit struct {
	s    string
	fold bool
}

// litInfo is what literal analysis knows about one pattern node.
type litInfo struct {
	// exact lists every string the node can match, when that list is short;
	// nil when unknown. A zero-width node is exactly {""}.
	exact []lit
	// req lists literals one of which every match contains; nil when none.
	req []lit
}

const (
	maxExact  = 16 // cross products beyond this are dropped
	maxChoice = 8  // most literals one prefilter scans for
	maxClass  = 4  // classes up to this many runes become literal choices
)

// analyze computes a node's literal info.
func analyze(re *syntax.Regexp) litInfo {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText,
		syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return litInfo{exact: []lit{{}}}
	case syntax.OpLiteral:
		if _, ok := rgregex.AssertionOf(re); ok {
			return litInfo{exact: []lit{{}}} // a zero-width assertion
		}
		l, ok := literalOf(re)
		if !ok {
			return analyzeFolded(re)
		}
		return litInfo{exact: []lit{l}}
	case syntax.OpCharClass:
		if runeclass.Size(re.Rune) > maxClass {
			return litInfo{}
		}
		var out []lit
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				out = append(out, lit{s: string(appendLiteral(nil, r))})
			}
		}
		return litInfo{exact: out}
	case syntax.OpCapture:
		return analyze(re.Sub[0])
	case syntax.OpPlus:
		return litInfo{req: requiredOf(analyze(re.Sub[0]))}
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return litInfo{req: requiredOf(analyze(re.Sub[0]))}
		}
		return litInfo{}
	case syntax.OpConcat:
		return analyzeConcat(re.Sub)
	case syntax.OpAlternate:
		return analyzeAlternate(re.Sub)
	}
	return litInfo{}
}

// analyzeFolded analyzes a case-folded literal the ASCII finder cannot
// fold (кЛюЧ, or k with its Kelvin sign) as the concatenation of each
// rune's case orbit: -i кЛюЧ then gets a prefilter on the spellings of
// one of its letters instead of none.
//
// Runes the ASCII finder can fold stay together as one folded literal
// (-i pm_resume is "pm_re", the orbit of s, then "ume"): spelling every
// letter's case out would multiply the spellings past maxExact and leave
// only single letters to scan for, a candidate at every 'm'.
func analyzeFolded(re *syntax.Regexp) litInfo {
	subs := make([]*syntax.Regexp, 0, len(re.Rune))
	var group []rune
	flush := func() {
		if len(group) > 0 {
			subs = append(subs, &syntax.Regexp{Op: syntax.OpLiteral, Rune: group, Flags: re.Flags})
			group = nil
		}
	}
	for _, r := range re.Rune {
		if _, ok := literalOf(&syntax.Regexp{Op: syntax.OpLiteral, Rune: []rune{r}, Flags: re.Flags}); ok {
			group = append(group, r)
			continue
		}
		flush()
		orbit := []rune{r}
		for f := ucd.SimpleFold(r); f != r; f = ucd.SimpleFold(f) {
			orbit = append(orbit, f)
		}
		if len(orbit) == 1 {
			subs = append(subs, &syntax.Regexp{Op: syntax.OpLiteral, Rune: orbit})
			continue
		}
		slices.Sort(orbit)
		cls := make([]rune, 0, 2*len(orbit))
		for _, o := range orbit {
			cls = append(cls, o, o)
		}
		subs = append(subs, &syntax.Regexp{Op: syntax.OpCharClass, Rune: cls})
	}
	flush()
	return analyzeConcat(subs)
}

// literalOf turns a literal node into a lit, or reports that case folding
// makes it unusable for an ASCII prefilter.
func literalOf(re *syntax.Regexp) (lit, bool) {
	fold := re.Flags&syntax.FoldCase != 0
	buf := make([]byte, 0, len(re.Rune))
	hasLetter := false
	for _, r := range re.Rune {
		if fold && isLetterRune(r) {
			if r >= utf8.RuneSelf || r == 'k' || r == 'K' || r == 's' || r == 'S' {
				return lit{}, false
			}
			hasLetter = true
			r = toLowerASCII(r)
		}
		buf = appendLiteral(buf, r)
	}
	return lit{s: string(buf), fold: fold && hasLetter}, true
}

// appendLiteral appends the bytes r stands for in the text: its UTF-8, or
// for a byte rune (rgregex.ByteRune, a pattern that matches single bytes)
// the byte itself.
func appendLiteral(buf []byte, r rune) []byte {
	if rgregex.IsByteRune(r) {
		return append(buf, byte(r-rgregex.ByteRune(0x80)+0x80))
	}
	return utf8.AppendRune(buf, r)
}

func isLetterRune(r rune) bool {
	return ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || r >= utf8.RuneSelf
}

func toLowerASCII(r rune) rune {
	if 'A' <= r && r <= 'Z' {
		return r + 'a' - 'A'
	}
	return r
}

// requiredOf is a node's required-literal set: its exact strings when none
// is empty, else what it already requires.
func requiredOf(in litInfo) []lit {
	if in.exact != nil && !hasEmpty(in.exact) {
		return in.exact
	}
	return in.req
}

func hasEmpty(ls []lit) bool {
	for _, l := range ls {
		if l.s == "" {
			return true
		}
	}
	return false
}

func analyzeConcat(subs []*syntax.Regexp) litInfo {
	var cands [][]lit
	run := []lit{{}}
	allExact := true
	flush := func() {
		if run != nil && !hasEmpty(run) {
			cands = append(cands, run)
		}
	}
	for _, sub := range subs {
		in := analyze(sub)
		if in.exact == nil {
			flush()
			run, allExact = nil, false
			if in.req != nil {
				cands = append(cands, in.req)
			}
			continue
		}
		if r := requiredOf(in); r != nil {
			cands = append(cands, r)
		}
		if run == nil {
			run = in.exact
			continue
		}
		if next, ok := cross(run, in.exact); ok {
			run = next
			continue
		}
		flush()
		run, allExact = in.exact, false
	}
	flush()
	out := litInfo{req: bestSet(cands)}
	if allExact {
		out.exact = run
	}
	return out
}

// cross is the concatenation of every pair, or false when it is too large or
// mixes folded and exact literals.
func cross(a, b []lit) ([]lit, bool) {
	if len(a)*len(b) > maxExact {
		return nil, false
	}
	out := make([]lit, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			if x.fold != y.fold && x.s != "" && y.s != "" {
				return nil, false
			}
			out = append(out, lit{s: x.s + y.s, fold: x.fold || y.fold})
		}
	}
	return out, true
}

func analyzeAlternate(subs []*syntax.Regexp) litInfo {
	var exact, req []lit
	exactOK, reqOK := true, true
	for _, sub := range subs {
		in := analyze(sub)
		if in.exact == nil || len(exact)+len(in.exact) > maxExact {
			exactOK = false
		} else {
			exact = append(exact, in.exact...)
		}
		r := requiredOf(in)
		if r == nil || len(req)+len(r) > maxExact {
			reqOK = false
		} else {
			req = append(req, r...)
		}
	}
	var out litInfo
	if exactOK {
		out.exact = exact
	}
	if reqOK {
		out.req = req
	}
	return out
}

// bestSet picks the candidate set cheapest to scan for: each literal costs a
// pass over the data plus the verification of every hit of its rarest byte.
func bestSet(cands [][]lit) []lit {
	var best []lit
	bestCost := 0.0
	for _, c := range cands {
		if len(c) == 0 || len(c) > maxChoice || hasEmpty(c) {
			continue
		}
		cost := setCost(c)
		if best == nil || cost < bestCost {
			best, bestCost = c, cost
		}
	}
	return best
}

func setCost(ls []lit) float64 {
	const passCost = 300 // one SIMD pass, in byteFreq units
	cost := 0.0
	for _, l := range ls {
		_, f := rareByte(l)
		cost += passCost + float64(f)
	}
	return cost
}

// rareByte returns the offset in l.s of its rarest byte and that byte's
// frequency (both cases counted when folded).
func rareByte(l lit) (int, int) {
	best, bestF := 0, 1<<30
	for i := 0; i < len(l.s); i++ {
		if f := litByteFreq(l, i); f < bestF {
			best, bestF = i, f
		}
	}
	return best, bestF
}

// isPureLiteral reports whether every match of re is exactly one of its
// exact literals, with no assertion: then a prefilter hit is a match.
func isPureLiteral(re *syntax.Regexp) bool {
	if _, ok := rgregex.AssertionOf(re); ok {
		return false
	}
	switch re.Op {
	case syntax.OpLiteral, syntax.OpCharClass:
		return true
	case syntax.OpCapture, syntax.OpConcat, syntax.OpAlternate:
		for _, sub := range re.Sub {
			if !isPureLiteral(sub) {
				return false
			}
		}
		return true
	}
	return false
}
