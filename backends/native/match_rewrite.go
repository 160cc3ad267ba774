package native

import (
	"errors"
	"regexp/syntax"
	"unicode/utf8"

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
//     rg. The price: such classes no longer match a genuine U+FFFD character
//     (EF BF BD) either. A class that names U+FFFD alone keeps it.
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
