package rg

import (
	"sync"

	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/search"
)

// The library stores at most native.MaxSubmatches spans of a line and
// counts the rest (Line.MoreSubmatches), so that a line of millions of
// matches costs no more memory than what can be printed. rg has no such
// cap: -o prints every match. A line with more matches than were stored
// has them found again here, from its text, with the same matcher.

// spanFinder compiles the query's matcher once, when a line first needs it.
type spanFinder struct {
	once sync.Once
	q    search.Query
	m    *native.Matcher
}

func (f *spanFinder) matcher() *native.Matcher {
	f.once.Do(func() {
		if _, m, err := streamMatcher(f.q); err == nil {
			f.m = m
		}
	})
	return f.m
}

// needsMoreSpans reports whether l is a match line whose matches were not
// all stored and whose printing shows them (a line cut by --max-columns
// counted the rest on purpose).
func (r *rgRun) needsMoreSpans(l *search.Line) bool {
	return l.MoreSubmatches > 0 && l.Cut == 0 && l.Kind == search.KindMatch && r.spans != nil && r.spans.matcher() != nil
}

// eachSpanChunk calls fn with l's matches, all of them, in chunks of at
// most native.MaxSubmatches: -o and --vimgrep print one output line per
// match, so a chunk at a time prints the same bytes in bounded memory.
func (r *rgRun) eachSpanChunk(l *search.Line, fn func([]search.Span) error) error {
	chunk := make([]search.Span, 0, min(native.MaxSubmatches, len(l.Submatches)+l.MoreSubmatches))
	var err error
	r.spans.matcher().EachSpan(l.Text, func(s, e int) bool {
		chunk = append(chunk, search.Span{Start: s, End: e})
		if len(chunk) == native.MaxSubmatches {
			err = fn(chunk)
			chunk = chunk[:0]
		}
		return err == nil
	})
	if err == nil && len(chunk) > 0 {
		err = fn(chunk)
	}
	return err
}

// allSpans is every match of l, for output that shows them in one
// record (colour, JSON, -r).
func (r *rgRun) allSpans(l *search.Line) []search.Span {
	all := make([]search.Span, 0, len(l.Submatches)+l.MoreSubmatches)
	r.spans.matcher().EachSpan(l.Text, func(s, e int) bool {
		all = append(all, search.Span{Start: s, End: e})
		return true
	})
	return all
}
