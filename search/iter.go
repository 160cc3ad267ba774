package search

import (
	"context"
	"iter"
)

// Lines runs q through the Chain and yields its results as they are handed
// on: in ModeContent each matching and context line; in ModeFilesWithMatches
// and ModeCount one Line per file with only Path set (use Search with a Sink
// for the per-file counts). Breaking out of the loop stops the search. A
// search error is yielded last, with a zero Line; a timeout is not an error
// (see Chain.Search), so the loop just ends.
//
// The loop body always runs on the caller's goroutine (engines push results
// from their own goroutines; Lines hands each one over and waits), so it may
// call t.Fatal, hold locks or panic as in any loop. A Line's Text is valid
// until the next iteration: copy it to keep it.
//
//	for l, err := range chain.Lines(ctx, search.Query{Pattern: "TODO", Root: "."}) {
//		if err != nil {
//			return err
//		}
//		fmt.Printf("%s:%d:%s\n", l.Path, l.Number, l.Text)
//	}
func (c *Chain) Lines(ctx context.Context, q Query) iter.Seq2[Line, error] {
	return func(yield func(Line, error) bool) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel() // also when the loop body panics: the search goroutine then ends
		s := &handOver{ctx: ctx, lines: make(chan Line), acks: make(chan bool), files: q.Mode != ModeContent}
		done := make(chan error, 1)
		go func() {
			_, err := c.Search(ctx, q, s)
			done <- err
		}()
		for {
			select {
			case l := <-s.lines:
				ok := yield(l, nil)
				s.acks <- ok
				if !ok {
					cancel()
					<-done
					return
				}
			case err := <-done:
				if err != nil {
					yield(Line{}, err)
				}
				return
			}
		}
	}
}

// handOver is the Sink behind Lines: it passes each line to the caller's
// goroutine and waits until the loop body is done with it.
type handOver struct {
	ctx   context.Context
	lines chan Line
	acks  chan bool
	files bool // yield one Line per file, at End
}

func (s *handOver) Begin(string) error { return nil }

func (s *handOver) Line(l Line) error {
	select {
	case s.lines <- l:
	case <-s.ctx.Done():
		return ErrStop
	}
	select {
	case ok := <-s.acks:
		if !ok {
			return ErrStop
		}
		return nil
	case <-s.ctx.Done():
		return ErrStop
	}
}

func (s *handOver) End(sum FileSummary) error {
	if !s.files {
		return nil
	}
	return s.Line(Line{Path: sum.Path, Kind: KindMatch})
}
