package tools

import (
	"fmt"
	"strings"

	"github.com/rgkit/rgkit/search"
)

// grepSink receives the Chain's ordered, paged results. The Chain calls it
// one call at a time.
type grepSink struct {
	mode    search.OutputMode
	files   []sinkFile
	cur     *sinkFile
	dropped int // result paths that failed the lexical re-check
}

type sinkFile struct {
	path  string
	lines []search.Line
	count int
}

func (s *grepSink) Begin(path string) error {
	s.cur = &sinkFile{path: path}
	return nil
}

func (s *grepSink) Line(l search.Line) error {
	if s.cur == nil || s.cur.path != l.Path {
		s.cur = &sinkFile{path: l.Path}
	}
	l.Text = append([]byte(nil), l.Text...) // the engine may reuse its buffer
	l.Submatches = nil
	s.cur.lines = append(s.cur.lines, l)
	return nil
}

func (s *grepSink) End(sum search.FileSummary) error {
	f := s.cur
	if f == nil || f.path != sum.Path {
		f = &sinkFile{path: sum.Path}
	}
	s.cur = nil
	f.count = sum.MatchedLines
	// Defence in depth: an engine's path is relative
	// to the root by contract; anything else is dropped and counted.
	if !LocalResult(f.path) {
		s.dropped++
		return nil
	}
	s.files = append(s.files, *f)
	return nil
}

func (s *grepSink) empty() bool { return len(s.files) == 0 }

// result builds the structured result from what the Chain passed on.
func (s *grepSink) result(in GrepInput, q search.Query, res search.Result) *GrepResult {
	r := &GrepResult{
		TotalMatches: res.Stats.MatchedLines,
		TotalFiles:   res.Stats.FilesMatched,
		Page: Page{
			Offset:   in.Offset,
			Backend:  res.Backend,
			Partial:  res.Partial,
			Warnings: res.Warnings,
		},
	}
	switch q.Mode {
	case search.ModeContent:
		r.Mode = GrepContent
		for _, f := range s.files {
			r.Matches = append(r.Matches, groupMatches(f, q.After)...)
		}
	case search.ModeCount:
		r.Mode = GrepCount
		for _, f := range s.files {
			r.Counts = append(r.Counts, GrepFileCount{File: f.path, Count: f.count})
		}
	default:
		r.Mode = GrepFiles
		for _, f := range s.files {
			r.Files = append(r.Files, f.path)
		}
	}
	switch res.Truncated {
	case search.TruncatedLimit:
		r.cut(CapHeadLimit, r.entries())
	case search.TruncatedBytes:
		r.cut(CapMemory, r.entries())
	}
	if s.dropped > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%d result path(s) outside the workspace root were dropped", s.dropped))
	}
	if r.Partial {
		r.PartialReason = partialReason(res.Warnings)
	}
	return r
}

// groupMatches attaches each context line to a match: to the match before
// it when within its after-context, else to the next match.
func groupMatches(f sinkFile, after int) []GrepMatch {
	var out []GrepMatch
	var pending []ContextLine
	for _, l := range f.lines {
		if l.Kind == search.KindMatch {
			out = append(out, GrepMatch{File: f.path, Line: l.Number, Text: string(l.Text), Cut: l.Cut, Before: pending})
			pending = nil
			continue
		}
		c := ContextLine{Line: l.Number, Text: string(l.Text), Cut: l.Cut}
		if n := len(out); n > 0 && len(pending) == 0 && l.Number > out[n-1].Line && l.Number-out[n-1].Line <= after {
			out[n-1].After = append(out[n-1].After, c)
			continue
		}
		pending = append(pending, c)
	}
	return out
}

// entries is how many paging entries the result holds.
func (r *GrepResult) entries() int {
	switch r.Mode {
	case GrepContent:
		return len(r.Matches)
	case GrepCount:
		return len(r.Counts)
	}
	return len(r.Files)
}

// keep cuts the result to its first n entries.
func (r *GrepResult) keep(n int) {
	switch r.Mode {
	case GrepContent:
		r.Matches = r.Matches[:n]
	case GrepCount:
		r.Counts = r.Counts[:n]
	default:
		r.Files = r.Files[:n]
	}
}

// partialReason picks the Chain's explanation of why a search stopped.
func partialReason(warnings []string) string {
	for _, w := range warnings {
		if strings.Contains(w, "timed out") || strings.Contains(w, "failed") {
			return w
		}
	}
	return "the search stopped before it finished"
}
