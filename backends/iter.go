package backends

import (
	"context"
	"iter"
)

// Lines runs q through the Chain and yields its results as they are handed
// on: in ModeContent each matching and context line; in ModeFilesWithMatches
// and ModeCount one Line per file with only Path set (use Search with a Sink
// for the per-file counts). Breaking out of the loop stops the search. A
// search error is yielded last, with a zero Line; a timeout is not an error
// (see Chain.Search), so the loop just ends. With SortNone a Line's Text may
// be an engine buffer reused after the iteration: copy it to keep it.
//
//	for l, err := range chain.Lines(ctx, backends.Query{Pattern: "TODO", Root: "."}) {
//		if err != nil {
//			return err
//		}
//		fmt.Printf("%s:%d:%s\n", l.Path, l.Number, l.Text)
//	}
func (c *Chain) Lines(ctx context.Context, q Query) iter.Seq2[Line, error] {
	return func(yield func(Line, error) bool) {
		s := &yieldSink{yield: yield, files: q.Mode != ModeContent}
		_, err := c.Search(ctx, q, s)
		if err != nil && !s.stopped {
			yield(Line{}, err)
		}
	}
}

// yieldSink turns Sink calls into yields. The collector calls it one call at
// a time, so yield is never entered twice at once.
type yieldSink struct {
	yield   func(Line, error) bool
	files   bool // yield one Line per file, at End
	stopped bool // the loop broke: never yield again
}

func (s *yieldSink) Begin(string) error { return nil }

func (s *yieldSink) Line(l Line) error {
	if s.stopped {
		return ErrStop
	}
	if !s.yield(l, nil) {
		s.stopped = true
		return ErrStop
	}
	return nil
}

func (s *yieldSink) End(sum FileSummary) error {
	if !s.files {
		return nil
	}
	return s.Line(Line{Path: sum.Path, Kind: KindMatch})
}
