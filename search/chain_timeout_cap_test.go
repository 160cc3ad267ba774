package search

import (
	"context"
	"testing"
)

// capThenDeadlineEngine emits until the Chain stops it, then waits for the
// deadline and reports it, as an engine does that notices the deadline
// before it notices the stop.
type capThenDeadlineEngine struct{ scriptedEngine }

func (e *capThenDeadlineEngine) Search(ctx context.Context, q Query, sink Sink) (Stats, error) {
	sink.Begin("a")
	for n := 1; ; n++ {
		if err := sink.Line(Line{Path: "a", Number: n, Text: []byte("x"), Kind: KindMatch}); err != nil {
			break
		}
	}
	<-ctx.Done()
	return Stats{}, ctx.Err()
}

// TestDeadlineAfterTheByteCapIsNotAnError: issue 11, item 5. A search
// stopped by the byte cap whose engine then reported the deadline failed
// with "native: context deadline exceeded"; it is a partial result with
// the timeout warning.
func TestDeadlineAfterTheByteCapIsNotAnError(t *testing.T) {
	t.Parallel()
	e := &capThenDeadlineEngine{scriptedEngine{name: "one"}}
	c := &Chain{Engines: []Engine{e}, MaxOutputBytes: 1000}
	ctx, cancel := context.WithTimeout(context.Background(), 1)
	defer cancel()
	res, err := c.Search(ctx, Query{Pattern: "x", Root: t.TempDir()}, Discard)
	if err != nil || !res.Partial || len(res.Warnings) == 0 || res.Truncated != TruncatedBytes {
		t.Errorf("err %v, Partial %v, warnings %q, Truncated %v; want a partial result with the timeout warning and the byte cap", err, res.Partial, res.Warnings, res.Truncated)
	}
}
