package native

import (
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode"
)

// goSource writes re back as Go regexp source, for regexp.Compile (which
// takes only a string). (*syntax.Regexp).String would do, but it looks for
// classes it can print as (?i) by case-folding every rune of every class:
// for rg's Unicode \w that took 11-18 ms of a search's start, more than
// parsing and compiling the pattern. Classes are written here as their
// ranges, which parse back to the same class. ok is false for an operator
// this printer does not know (the caller then uses String).
func goSource(re *syntax.Regexp) (src string, ok bool) {
	var b strings.Builder
	if !writeSource(&b, re) {
		return "", false
	}
	return b.String(), true
}

// compileGo is regexp.Compile of the tree re, with prefix (such as `\A`)
// in front of it.
func compileGo(prefix string, re *syntax.Regexp) (*regexp.Regexp, error) {
	src, ok := goSource(re)
	if !ok {
		src = re.String()
	}
	return regexp.Compile(prefix + `(?:` + src + `)`)
}

func writeSource(b *strings.Builder, re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpNoMatch:
		b.WriteString(`[^\x00-\x{10FFFF}]`)
	case syntax.OpEmptyMatch:
		b.WriteString(`(?:)`)
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			b.WriteString(`(?i:`)
		}
		for _, r := range re.Rune {
			writeRune(b, r)
		}
		if re.Flags&syntax.FoldCase != 0 {
			b.WriteString(`)`)
		}
	case syntax.OpCharClass:
		if len(re.Rune) == 0 {
			b.WriteString(`[^\x00-\x{10FFFF}]`)
			return true
		}
		b.WriteString(`[`)
		for i := 0; i+1 < len(re.Rune); i += 2 {
			writeRune(b, re.Rune[i])
			if re.Rune[i+1] != re.Rune[i] {
				b.WriteString(`-`)
				writeRune(b, re.Rune[i+1])
			}
		}
		b.WriteString(`]`)
	case syntax.OpAnyCharNotNL:
		b.WriteString(`(?-s:.)`)
	case syntax.OpAnyChar:
		b.WriteString(`(?s:.)`)
	case syntax.OpBeginLine:
		b.WriteString(`(?m:^)`)
	case syntax.OpEndLine:
		b.WriteString(`(?m:$)`)
	case syntax.OpBeginText:
		b.WriteString(`\A`)
	case syntax.OpEndText:
		b.WriteString(`\z`)
	case syntax.OpWordBoundary:
		b.WriteString(`\b`)
	case syntax.OpNoWordBoundary:
		b.WriteString(`\B`)
	case syntax.OpCapture:
		b.WriteString(`(`)
		if re.Name != "" {
			b.WriteString(`?P<` + re.Name + `>`)
		}
		if !writeSource(b, re.Sub[0]) {
			return false
		}
		b.WriteString(`)`)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		b.WriteString(`(?:`)
		if !writeSource(b, re.Sub[0]) {
			return false
		}
		b.WriteString(`)`)
		switch re.Op {
		case syntax.OpStar:
			b.WriteString(`*`)
		case syntax.OpPlus:
			b.WriteString(`+`)
		case syntax.OpQuest:
			b.WriteString(`?`)
		default:
			b.WriteString(`{` + strconv.Itoa(re.Min))
			if re.Max != re.Min {
				b.WriteString(`,`)
				if re.Max >= 0 {
					b.WriteString(strconv.Itoa(re.Max))
				}
			}
			b.WriteString(`}`)
		}
		if re.Flags&syntax.NonGreedy != 0 {
			b.WriteString(`?`)
		}
	case syntax.OpConcat, syntax.OpAlternate:
		b.WriteString(`(?:`)
		for i, sub := range re.Sub {
			if i > 0 && re.Op == syntax.OpAlternate {
				b.WriteString(`|`)
			}
			if !writeSource(b, sub) {
				return false
			}
		}
		b.WriteString(`)`)
	default:
		return false
	}
	return true
}

// writeRune writes r so that it stands for itself, in or out of a class.
func writeRune(b *strings.Builder, r rune) {
	if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == ' ') {
		b.WriteRune(r)
		return
	}
	b.WriteString(`\x{` + strconv.FormatInt(int64(r), 16) + `}`)
}
