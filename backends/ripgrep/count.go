package ripgrep

import (
	"regexp"
	"regexp/syntax"

	"github.com/rgkit/rgkit/internal/rgregex"
	"github.com/rgkit/rgkit/search"
)

// rgCountsMatches reports whether rg -c counts matches rather than lines
// for q (normalised), and so which of the JSON end record's stats is a
// file's MatchedLines. Only in multiline mode, and only when the pattern
// can match '\n': otherwise rg searches line by line even with -U
// (grep-searcher's multi_line_with_matcher asks the regex for the bytes it
// can never match) and counts lines, as the native engine does.
func rgCountsMatches(q search.Query) bool {
	if !q.Multiline {
		return false
	}
	pattern := q.Pattern
	if q.Fixed {
		pattern = regexp.QuoteMeta(pattern)
	}
	re, err := rgregex.Parse(pattern, rgregex.Options{CaseInsensitive: q.Case == search.CaseInsensitive, DotNL: true})
	if err != nil {
		return true // rg's own count then; Normalize has parsed it already
	}
	return matchesNewline(re)
}

// matchesNewline reports whether a tree in rg's meaning (rgregex.Parse) can
// consume '\n': whether any character instruction of its compiled program
// accepts it.
func matchesNewline(re *syntax.Regexp) bool {
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return true
	}
	for i := range prog.Inst {
		switch in := &prog.Inst[i]; in.Op {
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny:
			if in.MatchRune('\n') {
				return true
			}
		}
	}
	return false
}
