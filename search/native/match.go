package native

import (
	"fmt"
	"regexp"
	"regexp/syntax"
)

// MatchOptions says what a Matcher looks for. The zero value of every field
// is rg's default.
type MatchOptions struct {
	Pattern         string // Go RE2 syntax, or a literal when Fixed is set
	Fixed           bool   // the pattern is a literal string (rg -F)
	Word            bool   // match only whole words (rg -w)
	CaseInsensitive bool   // ignore letter case (rg -i)
	Multiline       bool   // a match may span lines and '.' matches '\n' (rg -U --multiline-dotall)
}

// PatternError is a pattern the searcher cannot run as rg would: invalid Go
// RE2 syntax, or a literal line terminator outside multiline mode (rg refuses
// "a\nb" without -U the same way).
type PatternError struct {
	Pattern string
	Reason  string
	Err     error // the regexp/syntax error, when there is one
}

func (e *PatternError) Error() string {
	return fmt.Sprintf("native: pattern %q: %s", e.Pattern, e.Reason)
}

func (e *PatternError) Unwrap() error { return e.Err }

// Matcher is a compiled pattern. It is safe for concurrent use: one Matcher
// serves every worker of a search.
type Matcher struct {
	opts MatchOptions
	// re finds matches. In line mode no class or literal of it can match
	// '\n', so a match never crosses a line and it may run on a whole buffer
	// or on one line with the same result; ^ and $ are line anchors.
	re *regexp.Regexp
	// wordFirst and wordMid implement rg -w (see word.go): the pattern
	// wrapped in non-word guards, with and without the start-of-line branch.
	wordFirst, wordMid *regexp.Regexp
	wordWhole          *regexp.Regexp // the pattern anchored at both ends: rg 13's fast-path check
	// pre finds candidate positions cheaply; nil when the pattern has no
	// usable required literal.
	pre *prefilter
	// split confirms candidate lines around the literal; nil when the
	// pattern has no such shape.
	split *splitCheck
	// dfa decides line selection in line mode; nil in multiline mode.
	dfa *lineDFA
	// exact means a prefilter hit is a match by itself, so the regexp only
	// runs to report submatches.
	exact bool
	// multi: rg -U with a pattern that can match '\n'. rg searches line by
	// line when the pattern cannot, even with -U, and so do we.
	multi bool
	// emptyOK means the pattern can match the empty string, so every line
	// is a candidate and the prefilter cannot be trusted to skip lines.
	emptyOK bool
}

// Compile builds a Matcher. Its semantics are rg 13's, with Go's ASCII \d \w
// \s \b (the rg engine is given the same ASCII classes): in line mode no part
// of the pattern matches '\n'; '.' and broad classes never match a byte of
// invalid UTF-8 (Go would decode it as U+FFFD and match it).
func Compile(o MatchOptions) (*Matcher, error) {
	pat := o.Pattern
	if o.Fixed {
		pat = regexp.QuoteMeta(pat)
	}
	flags := syntax.Perl &^ syntax.OneLine // ^ and $ are line anchors, as in rg
	if o.CaseInsensitive {
		flags |= syntax.FoldCase
	}
	if o.Multiline {
		flags |= syntax.DotNL
	}
	tree, err := syntax.Parse(pat, flags)
	if err != nil {
		return nil, &PatternError{Pattern: o.Pattern, Reason: err.Error(), Err: err}
	}
	tree = tree.Simplify()
	if err := rewriteForRg(tree, o.Multiline); err != nil {
		return nil, &PatternError{Pattern: o.Pattern, Reason: err.Error()}
	}
	m := &Matcher{opts: o, multi: o.Multiline && canMatchNewline(tree)}
	if !m.multi {
		endTextAsLineEnd(tree)
	}
	inner := tree.String()
	if m.re, err = regexp.Compile(inner); err != nil {
		return nil, &PatternError{Pattern: o.Pattern, Reason: err.Error(), Err: err}
	}
	m.emptyOK = m.re.Match(nil)
	if o.Word {
		if err := m.compileWord(inner); err != nil {
			return nil, &PatternError{Pattern: o.Pattern, Reason: err.Error(), Err: err}
		}
	}
	if !m.multi {
		lineRe := m.re
		if o.Word {
			lineRe = m.wordFirst
		}
		m.dfa = newLineDFA(lineRe.String())
	}
	if !m.emptyOK {
		m.pre, m.exact = buildPrefilter(tree)
		if o.Word || m.multi {
			m.exact = false
		} else if !m.exact {
			m.split = buildSplit(tree, m.pre)
		}
	}
	return m, nil
}
