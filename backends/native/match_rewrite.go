package native

import (
	"errors"
	"regexp/syntax"
	"slices"
	"unicode/utf8"

	"github.com/rgkit/rgkit/internal/rgregex"
	"github.com/rgkit/rgkit/internal/runeclass"
)

// errLiteralNewline mirrors rg 13's refusal of a literal line terminator
// outside multiline mode ("the literal '\n' is not allowed in a regex").
var errLiteralNewline = errors.New(`the literal "\n" is not allowed in a regex outside multiline mode`)

// rewriteForRg edits a parsed pattern in place so that Go's regexp matches
// what rg's matcher matches:
//
//   - line mode: '\n' is removed from every class (rg strips the line
//     terminator from the pattern), and a literal '\n' is an error;
//   - every class that spans U+FFFD together with other runes ('.', [^a],
//     \W, \D, ...) loses U+FFFD. Go decodes each invalid UTF-8 byte as
//     U+FFFD, so this is what keeps '.' from matching invalid bytes, as in
//     rg. Such classes no longer match a genuine U+FFFD character (EF BF
//     BD) either: data that holds one is searched by the Matcher's
//     sentinel (see sentinelRunes). A class that names U+FFFD alone keeps it.
func rewriteForRg(re *syntax.Regexp, multiline bool) error {
	switch re.Op {
	case syntax.OpLiteral:
		if !multiline {
			for _, r := range re.Rune {
				if r == '\n' {
					return errLiteralNewline
				}
			}
		}
	case syntax.OpAnyCharNotNL:
		setClass(re, runeclass.Without(runeclass.Without(fullRange(), '\n'), utf8.RuneError))
	case syntax.OpAnyChar:
		cls := runeclass.Without(fullRange(), utf8.RuneError)
		if !multiline {
			cls = runeclass.Without(cls, '\n')
		}
		setClass(re, cls)
	case syntax.OpCharClass:
		cls := re.Rune
		if !multiline {
			cls = runeclass.Without(cls, '\n')
		}
		if runeclass.Has(cls, utf8.RuneError) && runeclass.Size(cls) > 1 {
			cls = runeclass.Without(cls, utf8.RuneError)
		}
		setClass(re, cls)
	}
	for _, sub := range re.Sub {
		if err := rewriteForRg(sub, multiline); err != nil {
			return err
		}
	}
	return nil
}

// setClass turns re into a class of the given ranges, or into a no-match
// when they are empty.
func setClass(re *syntax.Regexp, ranges []rune) {
	if len(ranges) == 0 {
		*re = syntax.Regexp{Op: syntax.OpNoMatch}
		return
	}
	re.Op = syntax.OpCharClass
	re.Rune = ranges
	re.Flags &^= syntax.FoldCase // the ranges are already folded by the parser
	re.Sub = nil
}

func fullRange() []rune { return []rune{0, utf8.MaxRune} }

// canMatchNewline reports whether some literal or class of re holds '\n'.
func canMatchNewline(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if r == '\n' {
				return true
			}
		}
	case syntax.OpCharClass:
		if runeclass.Has(re.Rune, '\n') {
			return true
		}
	case syntax.OpAnyChar:
		return true
	}
	for _, sub := range re.Sub {
		if canMatchNewline(sub) {
			return true
		}
	}
	return false
}

// errLiteralCR is rg --crlf's refusal of a literal '\r' outside multiline
// mode: with --crlf, "\r\n" is the line terminator.
var errLiteralCR = errors.New(`the literal "\r" is not allowed in a regex outside multiline mode (--crlf)`)

// stripCR applies rg --crlf to a line-mode pattern as rg does: '\r' is
// part of the line terminator, so it leaves every class (\s, [^a] no
// longer match it) and a literal '\r' is an error.
func stripCR(re *syntax.Regexp) error {
	switch re.Op {
	case syntax.OpLiteral:
		if slices.Contains(re.Rune, '\r') {
			return errLiteralCR
		}
	case syntax.OpCharClass:
		if runeclass.Has(re.Rune, '\r') {
			if runeclass.Size(re.Rune) == 1 {
				return errLiteralCR // [\r] is a literal to rg
			}
			setClass(re, runeclass.Without(re.Rune, '\r'))
		}
	}
	for _, sub := range re.Sub {
		if err := stripCR(sub); err != nil {
			return err
		}
	}
	return nil
}

// rg --null-data ends lines with NUL; the searcher ends them with '\n'.
// The data is searched with three bytes permuted (nullDataByte): NUL
// becomes '\n' (so records are lines), '\n' becomes '\r' and '\r' becomes
// NUL. rg keeps '\n' special inside a record ('.' does not match it, '^'
// and '$' match around it), which is what (?R) makes of '\r': so the
// pattern's literals and classes are permuted the same way, and its line
// anchors become (?R)'s. (Cost: those anchors run on the VM.)
var nullDataByte = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
	}
	t[0], t['\n'], t['\r'] = '\n', '\r', 0
	return t
}()

// nullDataUnbyte undoes nullDataByte.
var nullDataUnbyte = func() (t [256]byte) {
	for i, b := range nullDataByte {
		t[b] = byte(i)
	}
	return t
}()

// permuteNullData maps b's bytes through t (a copy when it changes any).
func permuteNullData(b []byte, t *[256]byte) []byte {
	out := b
	for i, c := range b {
		if t[c] != c {
			if &out[0] == &b[0] {
				out = append([]byte(nil), b...)
			}
			out[i] = t[c]
		}
	}
	return out
}

func permuteForNullData(re *syntax.Regexp) *syntax.Regexp {
	switch re.Op {
	case syntax.OpBeginLine:
		return rgregex.AssertionNode(rgregex.LineStartCRLF)
	case syntax.OpEndLine:
		return rgregex.AssertionNode(rgregex.LineEndCRLF)
	case syntax.OpLiteral:
		for i, r := range re.Rune {
			if r < 256 {
				re.Rune[i] = rune(nullDataByte[r])
			}
		}
	case syntax.OpCharClass:
		cls := re.Rune
		var add []rune
		for _, r := range []rune{0, '\n', '\r'} {
			if runeclass.Has(re.Rune, r) {
				add = append(add, rune(nullDataByte[r]))
			}
			cls = runeclass.Without(cls, r)
		}
		for _, r := range add {
			cls = runeclass.With(cls, r)
		}
		re.Rune = cls
	case syntax.OpAnyCharNotNL:
		re.Op, re.Rune = syntax.OpCharClass, []rune{0, '\n' - 1, '\n' + 1, utf8.MaxRune}
		return permuteForNullData(re)
	}
	for i, sub := range re.Sub {
		re.Sub[i] = permuteForNullData(sub)
	}
	return re
}
