package conformance

import (
	"sort"

	"github.com/rgkit/rgkit/search"
)

// Case is one named query of the matrix.
type Case struct {
	Name string
	// Tree is the corpus tree the query searches; Corpus.Query sets Root to it.
	Tree Tree
	// Query is the request; its Root is filled in by Corpus.Query.
	Query search.Query
	// Why says what the case proves.
	Why string

	// Invalid marks a pattern that search.Normalize must refuse with an
	// *InvalidPatternError, so no engine ever runs it.
	Invalid bool

	// WantFiles, when non-nil, is the specification of which files (relative
	// to the tree root) have a match. It is checked against the real rg and
	// against every engine. Corpus.Want adjusts it for missing features.
	WantFiles []string
	// WantLines, when non-nil, are the matching line numbers of the case's
	// single file (Query.Paths[0]), as rg 15.2.0 selects them (the
	// reference); every engine must select them too.
	WantLines []int
}

// Want returns c.WantFiles adjusted to what this corpus could create, sorted
// by byte order. It reports false when the case has no file specification.
func (c Corpus) Want(cs Case) ([]string, bool) {
	if cs.WantFiles == nil {
		return nil, false
	}
	var out []string
	for _, f := range cs.WantFiles {
		switch f {
		case nonUTF8Name:
			if !c.Features.NonUTF8Names {
				continue
			}
		case newlineName:
			if !c.Features.NewlineNames {
				continue
			}
		case unreadableName:
			if c.Features.UnreadableEnforced {
				continue
			}
		}
		out = append(out, f)
	}
	sort.Strings(out)
	return out, true
}

// Names of the optional corpus files, as they appear in WantFiles.
const (
	nonUTF8Name    = "names/bad\xffname.txt"
	newlineName    = "names/new\nline.txt"
	unreadableName = "unreadable.txt"
)

// SearchCases returns the cases that run engines (not the Invalid ones).
func SearchCases(cases []Case) []Case {
	var out []Case
	for _, c := range cases {
		if !c.Invalid {
			out = append(out, c)
		}
	}
	return out
}

// plus returns base with extra appended, as a new slice.
func plus(base []string, extra ...string) []string {
	out := append([]string(nil), base...)
	return append(out, extra...)
}

// minus returns base without the given names.
func minus(base []string, drop ...string) []string {
	d := map[string]bool{}
	for _, x := range drop {
		d[x] = true
	}
	var out []string
	for _, x := range base {
		if !d[x] {
			out = append(out, x)
		}
	}
	return out
}
