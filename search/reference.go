package search

import (
	"fmt"

	"github.com/rgkit/rgkit/internal/version"
)

// ReferenceVersion is the ripgrep release whose answers every engine gives
// (lines, spans, counts, file selection, context, -m, multiline, globs,
// ignore files, type table, binary handling). rgfetch installs the same
// release by default; a test holds the two constants together. Moving to a
// new rg release is a change here and in the Behaviors table, plus tests.
const ReferenceVersion = "15.2.0"

// Behavior is one way ripgrep releases answer the same search differently.
// The ripgrep engine asks Differences which of them an installed rg gets
// wrong compared with the reference, and corrects or refuses those.
type Behavior int

const (
	// WordHalfBoundaries: -w is \b{start-half}(?:P)\b{end-half}. Before 14
	// it was (?:^|\W)(P)(?:\W|$) with a fast path that reported words a
	// character short ("ine" for \w[a-z]\w* on "line 10").
	WordHalfBoundaries Behavior = iota
	// RegexEngine: the regex engine rewritten in rg 14 (regex-automata):
	// \B^ can match, spans around \b and \B, the first span of an empty
	// loop such as ([[:upper:]]*?)*, the \b{start}/\b{end} assertions.
	RegexEngine
	// NULPatternRefused: a pattern that needs a NUL byte is an error
	// ("impossible to match" under binary detection); rg 13 silently finds
	// nothing.
	NULPatternRefused
	// MultilineMaxCount: -U -m N counts matches one by one and shows later
	// matches inside trailing context as context; before 15 adjacent
	// multiline matches were joined into one block and counted once.
	MultilineMaxCount
	// CountMaxContext: -c -m N -A K counts the matches found inside the
	// trailing context of the N-th match; before 15 it printed N.
	CountMaxContext
	// ContextSides: a later -A or -B overrides only its own side of an
	// earlier -C (-C1 -A2 is -B1 -A2); rg 13 let it replace both.
	ContextSides
	// FileSelection15: rg 15's globs and ignore files: a stray '}' is an
	// error in --glob and a skipped line in an ignore file, nested braces,
	// an unclosed '[' taken literally in an ignore file, a trailing '.'
	// in a glob, the UTF-8 BOM of an ignore file stripped, .jj
	// repositories, global excludes anchored at the working directory,
	// GIT_CONFIG_GLOBAL. (15.2.0 changed the .jj rule under --no-ignore,
	// so 15.0 and 15.1 count as different.)
	FileSelection15
	// FileSelection14: the ignore-file rules rg 14 changed: a trailing
	// "\/" is a directory-only rule, a parent name holding '\n' matched
	// by a trailing '*', quoted core.excludesFile values.
	FileSelection14
	// ParentIgnoreUnderSubpath: a parent directory's .gitignore applies
	// when a sub-path is searched (rg 14.x ignores it: a regression fixed
	// in 15.0.0).
	ParentIgnoreUnderSubpath
	// TypeTable: the --type table (224 types in 15.2.0; e.g. ts gains
	// *.cts and *.mts).
	TypeTable
)

var behaviorNames = [...]string{
	WordHalfBoundaries:       "-w as half word boundaries",
	RegexEngine:              "regex engine (\\B^, \\b spans, empty loops)",
	NULPatternRefused:        "a pattern needing a NUL byte is an error",
	MultilineMaxCount:        "-U -m counts matches one by one",
	CountMaxContext:          "-c -m -A counts matches in trailing context",
	ContextSides:             "-A/-B override one side of -C",
	FileSelection15:          "rg 15.2 globs and ignore files",
	FileSelection14:          "rg 14 ignore-file rules",
	ParentIgnoreUnderSubpath: "parent .gitignore under a searched sub-path",
	TypeTable:                "type table",
}

func (b Behavior) String() string {
	if b >= 0 && int(b) < len(behaviorNames) {
		return behaviorNames[b]
	}
	return fmt.Sprintf("Behavior(%d)", int(b))
}

// span is a half-open range of releases [from, until); a zero until means
// "and every later release".
type span struct{ from, until version.V }

func (s span) holds(v version.V) bool {
	return !v.Less(s.from) && (s.until == version.V{} || v.Less(s.until))
}

// since is the span of a behaviour adopted in release v and kept since.
func since(major, minor int) []span {
	return []span{{from: version.V{Major: major, Minor: minor}}}
}

// behaviors says, for each Behavior, which releases give the reference's
// answer. This table is the data a new rg release changes.
var behaviors = map[Behavior][]span{
	WordHalfBoundaries: since(14, 0),
	RegexEngine:        since(14, 0),
	NULPatternRefused:  since(14, 0),
	MultilineMaxCount:  since(15, 0),
	CountMaxContext:    since(15, 0),
	ContextSides:       since(14, 0),
	FileSelection15:    since(15, 2),
	FileSelection14:    since(14, 0),
	// rg 13 applied the parent's rule, 14.0.0 stopped, 15.0.0 again.
	ParentIgnoreUnderSubpath: {{until: version.V{Major: 14}}, {from: version.V{Major: 15}}},
	TypeTable:                since(15, 2),
}

// Differences returns the behaviours in which ripgrep release rgVersion
// ("13.0.0", or rg --version's number) answers differently from
// ReferenceVersion, in Behavior order; none for the reference itself or a
// later release. An unreadable version is an error: the caller cannot
// know what to correct.
func Differences(rgVersion string) ([]Behavior, error) {
	v, ok := version.Prefix(rgVersion)
	if !ok {
		return nil, fmt.Errorf("search: cannot read ripgrep version %q", rgVersion)
	}
	var out []Behavior
	for b := Behavior(0); int(b) < len(behaviorNames); b++ {
		good := false
		for _, s := range behaviors[b] {
			good = good || s.holds(v)
		}
		if !good {
			out = append(out, b)
		}
	}
	return out, nil
}
