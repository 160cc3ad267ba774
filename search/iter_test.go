package search

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

func TestLinesYieldsInOrderAndBreakStopsTheEngine(t *testing.T) {
	e := &scriptedEngine{name: "one", emit: []scriptEvent{"B b", "M b:1:b1", "E b 1", "B a", "M a:1:a1", "M a:2:a2", "E a 2"}}
	var got []string
	for l, err := range chainOf(e).Lines(context.Background(), Query{Pattern: "x", Root: t.TempDir(), Sort: SortNone}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%s:%d", l.Path, l.Number))
		if len(got) == 2 {
			break
		}
	}
	if fmt.Sprint(got) != "[b:1 a:1]" {
		t.Errorf("lines = %v, want [b:1 a:1]", got)
	}
	if e.sinkErr != ErrStop {
		t.Errorf("engine got %v after the loop broke, want ErrStop", e.sinkErr)
	}
}

func TestLinesSortsByDefault(t *testing.T) {
	e := &scriptedEngine{name: "one", emit: []scriptEvent{"B b", "M b:1:b1", "E b 1", "B a", "M a:1:a1", "E a 1"}}
	var got []string
	for l, err := range chainOf(e).Lines(context.Background(), Query{Pattern: "x", Root: t.TempDir()}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, l.Path)
	}
	if fmt.Sprint(got) != "[a b]" {
		t.Errorf("paths = %v, want [a b]", got)
	}
}

func TestLinesYieldsTheErrorLast(t *testing.T) {
	boom := errors.New("boom")
	e := &scriptedEngine{name: "one", emit: []scriptEvent{"B a", "M a:1:x", "E a 1"}, searchErr: boom}
	var lines int
	var last error
	for l, err := range chainOf(e).Lines(context.Background(), Query{Pattern: "x", Root: t.TempDir()}) {
		if err != nil {
			last = err
			if l.Path != "" {
				t.Errorf("error yielded with a line %+v", l)
			}
			continue
		}
		lines++
	}
	if lines != 1 || !errors.Is(last, boom) {
		t.Errorf("lines %d, last error %v; want 1 line then the engine's error", lines, last)
	}
}

func TestLinesInFilesModeYieldsOnePathPerFile(t *testing.T) {
	e := &scriptedEngine{name: "one", emit: []scriptEvent{"B b", "E b 3", "B a", "E a 1"}}
	var got []string
	for l, err := range chainOf(e).Lines(context.Background(), Query{Pattern: "x", Root: t.TempDir(), Mode: ModeFilesWithMatches}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, l.Path)
	}
	if fmt.Sprint(got) != "[a b]" {
		t.Errorf("paths = %v, want [a b]", got)
	}
}

func TestLinesInvalidPattern(t *testing.T) {
	n := 0
	for _, err := range chainOf(&scriptedEngine{name: "one"}).Lines(context.Background(), Query{Pattern: "(", Root: t.TempDir()}) {
		var ipe *InvalidPatternError
		if !errors.As(err, &ipe) {
			t.Errorf("err = %v, want *InvalidPatternError", err)
		}
		n++
	}
	if n != 1 {
		t.Errorf("yielded %d times, want once (the error)", n)
	}
}

// Regression: engines push from their own goroutines, so a loop body that
// ran there would crash the program on panic (or break t.Fatal). Lines hands
// each line to the caller's goroutine, and the search ends after the panic.
func TestLinesLoopBodyRunsOnTheCallersGoroutine(t *testing.T) {
	e := &scriptedEngine{name: "one", async: true, returned: make(chan struct{}),
		emit: []scriptEvent{"B a", "M a:1:x", "M a:2:x", "E a 2"}}
	func() {
		defer func() {
			if r := recover(); r != "boom" {
				t.Errorf("recovered %v, want the loop body's panic", r)
			}
		}()
		for range chainOf(e).Lines(context.Background(), Query{Pattern: "x", Root: t.TempDir(), Sort: SortNone}) {
			panic("boom")
		}
	}()
	<-e.returned // the search goroutine does not leak
	if e.sinkErr != ErrStop {
		t.Errorf("engine got %v, want ErrStop", e.sinkErr)
	}
}
