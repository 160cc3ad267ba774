package bench

import "github.com/rgkit/rgkit/search"

// DefaultSuite is the query classes measured when no pattern is given: the
// classes in which engines differ most (a literal prefilter helps the first
// three, little helps the last regexes), plus listing files.
func DefaultSuite() []Task {
	q := func(p string) search.Query { return search.Query{Pattern: p} }
	insensitive := q("http")
	insensitive.Case = search.CaseInsensitive
	word := q("err")
	word.Word = true
	return []Task{
		{Name: "rare literal", Query: q("ErrUnexpectedEOF")},
		{Name: "common literal", Query: q("func")},
		{Name: "case-insensitive", Query: insensitive},
		{Name: "alternation", Query: q("(Read|Write)(At|From|To)")},
		{Name: "class regex", Query: q(`func \w+Error\(`)},
		{Name: "no-literal regex", Query: q(`\w+\d\s*=\s*\d`)},
		{Name: "word", Query: word},
		{Name: "list files (glob **)", Listing: true},
	}
}
