package backends

import (
	"os"
	"path/filepath"
	"regexp/syntax"
	"unicode"

	"github.com/rgkit/rgkit/search"
)

// queryClass is the kind of work a query asks for, as the cost table tells
// them apart: what the pattern lets a tool skip (a literal it can look for
// with memchr, or none), and how much of each file the answer needs.
type queryClass int

const (
	classLiteral     queryClass = iota // a case-sensitive literal: ErrUnexpectedEOF, func
	classLiteralFold                   // a literal matched without case: -i http
	classAlternation                   // literals joined by |: ErrShortWrite|ErrUnexpectedEOF
	classRegex                         // classes and repetitions around a literal: \w+\d\s*=\s*\d
	classNoLiteral                     // nothing to look for first: \w{5}\s+\w{5}\s+\w{5}
	classCount                         // -c: every matching line of each file counted
	classFiles                         // -l: the first match of each file
	classOneFile                       // one file named: a file searched alone
	numClasses
)

var classNames = [numClasses]string{
	"literal", "literal -i", "alternation", "regex", "no literal", "-c", "-l", "one file",
}

func (c queryClass) String() string { return classNames[c] }

// measuredCost is each external engine's wall time over the native engine's,
// per query class: the medians of three interleaved runs of `rgkit grep`
// printing to a pipe, with no rg on PATH, on a copy of the Go tree's src/
// (GNU grep 3.8 on the plain tree, git 2.39 grep on the same tree committed
// to git), 2 shared cores; the command and every number are in
// docs/performance.md ("The chain without rg"). Where a class had two
// queries (a rare and a common literal) the smaller ratio is kept. The
// external engines pick candidate files and the native matcher then reads
// them for rg's exact lines, offsets and statistics, so they cost the walk
// plus their own run plus the re-read: slower than native in every class.
// A class where a tool measured faster would get a ratio below 1 here, and
// the Chain would try that tool first again.
var measuredCost = map[string][numClasses]float64{
	//         literal, -i, alternation, regex, no literal, -c, -l, one file
	"gitgrep": {2.77, 2.23, 1.50, 5.38, 4.33, 2.30, 2.44, 58.2},
	"grep":    {2.74, 2.12, 4.33, 8.06, 14.8, 1.62, 1.02, 14.3},
}

// cost is the Chain's cost model (search.Chain.Cost): q classified once,
// then each engine's measured wall time on it over the native engine's; 0
// (unknown) for an engine the table does not hold, such as ripgrep, which
// stays first.
func cost(q search.Query) func(engine string) float64 {
	c := classify(q)
	return func(engine string) float64 {
		row, ok := measuredCost[engine]
		if !ok {
			return 0
		}
		return row[c]
	}
}

// classify puts q in its cost class.
func classify(q search.Query) queryClass {
	switch {
	case namesOneFile(q):
		return classOneFile
	case q.Mode == search.ModeCount:
		return classCount
	case q.Mode == search.ModeFilesWithMatches:
		return classFiles
	}
	fold := q.Case == search.CaseInsensitive || (q.Case == search.CaseSmart && !hasUpper(q.Pattern))
	if q.Fixed {
		if fold {
			return classLiteralFold
		}
		return classLiteral
	}
	re, err := syntax.Parse(q.Pattern, syntax.Perl)
	if err != nil {
		return classRegex // rg's dialect beyond Go's: no cheaper class is sure
	}
	re = re.Simplify()
	switch {
	case isLiteral(re):
		if fold || re.Flags&syntax.FoldCase != 0 {
			return classLiteralFold
		}
		return classLiteral
	case finiteLiterals(re):
		return classAlternation
	case hasLiteral(re):
		return classRegex
	}
	return classNoLiteral
}

// namesOneFile reports a query whose one path is a file: the listing modes
// search that way, one query per file, where starting a process costs more
// than the search.
func namesOneFile(q search.Query) bool {
	if len(q.Paths) != 1 {
		return false
	}
	fi, err := os.Stat(filepath.Join(q.Root, filepath.FromSlash(q.Paths[0])))
	return err == nil && fi.Mode().IsRegular()
}

func hasUpper(s string) bool {
	for _, r := range s {
		if unicode.IsUpper(r) {
			return true
		}
	}
	return false
}

func isLiteral(re *syntax.Regexp) bool {
	return re.Op == syntax.OpLiteral
}

// finiteLiterals reports a pattern that is a set of literals, such as
// a|b, however the parser factored it (Err(?:ShortWrite|UnexpectedEOF),
// [ab]).
func finiteLiterals(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral, syntax.OpEmptyMatch:
		return true
	case syntax.OpCharClass:
		n := 0
		for i := 0; i < len(re.Rune); i += 2 {
			n += int(re.Rune[i+1]-re.Rune[i]) + 1
		}
		return n <= 8
	case syntax.OpConcat, syntax.OpAlternate, syntax.OpCapture:
		for _, s := range re.Sub {
			if !finiteLiterals(s) {
				return false
			}
		}
		return true
	}
	return false
}

// hasLiteral reports a literal that every match contains (in a concatenation, at its top level or in a capture).
func hasLiteral(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral:
		return len(re.Rune) > 0
	case syntax.OpConcat:
		for _, s := range re.Sub {
			if hasLiteral(s) {
				return true
			}
		}
	case syntax.OpCapture, syntax.OpPlus:
		return hasLiteral(re.Sub[0])
	}
	return false
}

// ClassExamples returns one query of each measured class, searching root,
// in the order of the cost table: what a report (rgkit doctor) runs the
// Chain's Order on to say which engine would answer which kind of query.
func ClassExamples(root string) []search.Query {
	return []search.Query{
		{Pattern: "ErrUnexpectedEOF", Root: root},
		{Pattern: "http", Root: root, Case: search.CaseInsensitive},
		{Pattern: "ErrShortWrite|ErrUnexpectedEOF", Root: root},
		{Pattern: `\w+\d\s*=\s*\d`, Root: root},
		{Pattern: `\w{5}\s+\w{5}\s+\w{5}`, Root: root},
		{Pattern: "func", Root: root, Mode: search.ModeCount},
		{Pattern: "func", Root: root, Mode: search.ModeFilesWithMatches},
	}
}

// ClassName is the name of q's class in the cost table ("literal", "-c").
func ClassName(q search.Query) string { return classify(q).String() }
