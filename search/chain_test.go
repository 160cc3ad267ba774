package search

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The fakes in this file exercise the Chain's own logic (fallback, deadlines,
// ordering, paging, caps); the real engines are tested against the Chain in
// chain_engines_test.go.

// scriptedEngine is a Engine whose behaviour a test scripts.
type scriptedEngine struct {
	name      string
	availErr  error
	searchErr error // returned after emitting
	emit      []scriptEvent
	// block makes Search wait for ctx to end after emitting, then return ctx.Err().
	block bool
	// async emits from another goroutine, as engines that parse a
	// subprocess's output do; returned is closed when Search returns.
	async    bool
	returned chan struct{}

	calls       int
	gotDeadline time.Time
	hadDeadline bool
	gotQuery    Query
	sinkErr     error // the first error the sink returned
}

// scriptEvent is one Sink call: "B path", "M path:n:text", "C path:n:text", "E path n".
type scriptEvent string

func (f *scriptedEngine) Name() string { return f.name }

func (f *scriptedEngine) Available(ctx context.Context) (Info, error) {
	return Info{Name: f.name, Version: "1.0"}, f.availErr
}

func (f *scriptedEngine) Search(ctx context.Context, q Query, sink Sink) (Stats, error) {
	if f.async {
		defer close(f.returned)
		var st Stats
		var err error
		done := make(chan struct{})
		go func() {
			defer close(done)
			f.async = false
			st, err = f.Search(ctx, q, sink)
		}()
		<-done
		return st, err
	}
	f.calls++
	f.gotQuery = q
	f.gotDeadline, f.hadDeadline = ctx.Deadline()
	for _, e := range f.emit {
		if err := sendEvent(sink, e); err != nil {
			if f.sinkErr == nil {
				f.sinkErr = err
			}
			return Stats{FilesSearched: 1}, err
		}
	}
	if f.block {
		<-ctx.Done()
		return Stats{}, fmt.Errorf("killed: %w", ctx.Err())
	}
	return Stats{FilesSearched: int64(len(f.emit))}, f.searchErr
}

func sendEvent(sink Sink, e scriptEvent) error {
	kind, rest, _ := strings.Cut(string(e), " ")
	switch kind {
	case "B":
		return sink.Begin(rest)
	case "E":
		path, n, _ := strings.Cut(rest, " ")
		var count int
		fmt.Sscan(n, &count)
		return sink.End(FileSummary{Path: path, MatchedLines: count})
	}
	parts := strings.SplitN(rest, ":", 3)
	var num int
	fmt.Sscan(parts[1], &num)
	l := Line{Path: parts[0], Number: num, Text: []byte(parts[2]), Kind: KindContext}
	if kind == "M" {
		l.Kind = KindMatch
		l.Column = 1
		l.Submatches = []Span{{0, len(parts[2])}}
	}
	return sink.Line(l)
}

// eventRecorder is a Sink that records calls in the scriptEvent notation and checks
// that files do not interleave.
type eventRecorder struct {
	events []scriptEvent
	open   string
	err    error // returned from Line after stopAfter lines
	after  int
	lines  int
	t      *testing.T
}

func (r *eventRecorder) Begin(p string) error {
	if r.open != "" {
		r.t.Errorf("Begin(%s) while %s is open", p, r.open)
	}
	r.open = p
	r.events = append(r.events, scriptEvent("B "+p))
	return nil
}

func (r *eventRecorder) Line(l Line) error {
	if r.open != l.Path {
		r.t.Errorf("Line for %s while %q is open", l.Path, r.open)
	}
	k := "M"
	if l.Kind == KindContext {
		k = "C"
	}
	r.events = append(r.events, scriptEvent(fmt.Sprintf("%s %s:%d:%s", k, l.Path, l.Number, l.Text)))
	r.lines++
	if r.err != nil && r.lines >= r.after {
		return r.err
	}
	return nil
}

func (r *eventRecorder) End(s FileSummary) error {
	if r.open != s.Path {
		r.t.Errorf("End(%s) while %q is open", s.Path, r.open)
	}
	r.open = ""
	r.events = append(r.events, scriptEvent(fmt.Sprintf("E %s %d", s.Path, s.MatchedLines)))
	return nil
}

func chainOf(engines ...*scriptedEngine) *Chain {
	c := &Chain{}
	for _, e := range engines {
		c.Engines = append(c.Engines, e)
	}
	return c
}

func TestChainSkipsOnlyUnavailableAndUnsupported(t *testing.T) {
	root := t.TempDir()
	unavailable := &scriptedEngine{name: "one", availErr: fmt.Errorf("rg not found: %w", ErrUnavailable)}
	unsupported := &scriptedEngine{name: "two", searchErr: fmt.Errorf("multiline: %w", ErrUnsupported)}
	good := &scriptedEngine{name: "three", emit: []scriptEvent{"B a", "M a:1:x", "E a 1"}}
	never := &scriptedEngine{name: "four"}
	rec := &eventRecorder{t: t}
	res, err := chainOf(unavailable, unsupported, good, never).Search(context.Background(), Query{Pattern: "x", Root: root}, rec)
	if err != nil {
		t.Fatal(err)
	}
	if res.Backend != "three" || res.Info.Name != "three" {
		t.Errorf("Engine = %q, Info = %+v; want three", res.Backend, res.Info)
	}
	if len(res.Skipped) != 2 || res.Skipped[0].Backend != "one" || !errors.Is(res.Skipped[0].Reason, ErrUnavailable) ||
		res.Skipped[1].Backend != "two" || !errors.Is(res.Skipped[1].Reason, ErrUnsupported) {
		t.Errorf("Skipped = %+v", res.Skipped)
	}
	if unavailable.calls != 0 || never.calls != 0 {
		t.Errorf("Search calls: unavailable %d, after the winner %d; want 0", unavailable.calls, never.calls)
	}
	if want := []scriptEvent{"B a", "M a:1:x", "E a 1"}; !reflect.DeepEqual(rec.events, want) {
		t.Errorf("events = %q, want %q", rec.events, want)
	}
}

func TestChainDoesNotFallBackOnRuntimeError(t *testing.T) {
	boom := errors.New("rg: exit status 2: I/O error")
	failing := &scriptedEngine{name: "one", emit: []scriptEvent{"B a", "M a:1:x", "E a 1"}, searchErr: boom}
	next := &scriptedEngine{name: "two"}
	rec := &eventRecorder{t: t}
	res, err := chainOf(failing, next).Search(context.Background(), Query{Pattern: "x", Root: t.TempDir()}, rec)
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want the engine's error", err)
	}
	if next.calls != 0 {
		t.Error("the next engine ran after a runtime error")
	}
	if !res.Partial || res.Backend != "one" {
		t.Errorf("Partial = %v, Engine = %q; want true, one", res.Partial, res.Backend)
	}
	if len(rec.events) != 3 {
		t.Errorf("what was found before the error was not delivered: %q", rec.events)
	}
}

func TestChainUnsupportedAfterEmittingIsAnError(t *testing.T) {
	late := &scriptedEngine{name: "one", emit: []scriptEvent{"B a", "M a:1:x"}, searchErr: fmt.Errorf("oops: %w", ErrUnsupported)}
	next := &scriptedEngine{name: "two"}
	_, err := chainOf(late, next).Search(context.Background(), Query{Pattern: "x", Root: t.TempDir(), Sort: SortNone}, &eventRecorder{t: t})
	if err == nil || next.calls != 0 {
		t.Errorf("err = %v, next calls = %d; an engine that emitted cannot be skipped", err, next.calls)
	}
}

func TestChainInvalidPatternRunsNoEngine(t *testing.T) {
	e := &scriptedEngine{name: "one"}
	res, err := chainOf(e).Search(context.Background(), Query{Pattern: "a(b", Root: t.TempDir()}, &eventRecorder{t: t})
	var ipe *InvalidPatternError
	if !errors.As(err, &ipe) {
		t.Fatalf("err = %v, want *InvalidPatternError", err)
	}
	if e.calls != 0 || len(res.Skipped) != 0 {
		t.Errorf("engine calls %d, skipped %v; want none", e.calls, res.Skipped)
	}
}

func TestChainAllSkippedSaysWhy(t *testing.T) {
	a := &scriptedEngine{name: "one", availErr: fmt.Errorf("no rg: %w", ErrUnavailable)}
	b := &scriptedEngine{name: "two", searchErr: fmt.Errorf("no multiline: %w", ErrUnsupported)}
	_, err := chainOf(a, b).Search(context.Background(), Query{Pattern: "x", Root: t.TempDir()}, &eventRecorder{t: t})
	if !errors.Is(err, ErrUnavailable) || !errors.Is(err, ErrUnsupported) {
		t.Fatalf("err = %v, want it to wrap ErrUnavailable and the ErrUnsupported reason", err)
	}
	var ne *NoEngineError
	if !errors.As(err, &ne) || len(ne.Skipped) != 2 {
		t.Fatalf("err = %#v, want a *NoEngineError with both skips", err)
	}
	want := "no engine could run this query: one: no rg: backend unavailable; two: no multiline: backend cannot honour this query exactly"
	if err.Error() != want {
		t.Errorf("err = %q\nwant  %q", err, want)
	}
}

func TestChainPassesTheRemainingDeadlineOn(t *testing.T) {
	first := &scriptedEngine{name: "one", searchErr: fmt.Errorf("x: %w", ErrUnsupported)}
	second := &scriptedEngine{name: "two"}
	before := time.Now()
	_, err := chainOf(first, second).Search(context.Background(), Query{Pattern: "x", Root: t.TempDir(), Timeout: time.Hour}, &eventRecorder{t: t})
	if err != nil {
		t.Fatal(err)
	}
	if !first.hadDeadline || !second.hadDeadline {
		t.Fatal("an engine ran without the Timeout deadline")
	}
	if !second.gotDeadline.Equal(first.gotDeadline) {
		t.Errorf("second engine deadline %v, first %v: the fallback must get the same (remaining) deadline, not a fresh one",
			second.gotDeadline, first.gotDeadline)
	}
	if first.gotDeadline.Before(before) || first.gotDeadline.After(before.Add(time.Hour).Add(time.Minute)) {
		t.Errorf("deadline %v is not Timeout after the start %v", first.gotDeadline, before)
	}
}

func TestChainTimeoutIsPartialNotError(t *testing.T) {
	slow := &scriptedEngine{name: "one", emit: []scriptEvent{"B b", "M b:1:x", "E b 1", "B a", "M a:2:y"}, block: true}
	rec := &eventRecorder{t: t}
	res, err := chainOf(slow).Search(context.Background(), Query{Pattern: "x", Root: t.TempDir(), Timeout: time.Millisecond}, rec)
	if err != nil {
		t.Fatalf("err = %v; a timeout returns partial results, not an error", err)
	}
	if !res.Partial || len(res.Warnings) == 0 {
		t.Errorf("Partial = %v, Warnings = %q", res.Partial, res.Warnings)
	}
	want := []scriptEvent{"B a", "M a:2:y", "E a 1", "B b", "M b:1:x", "E b 1"}
	if !reflect.DeepEqual(rec.events, want) {
		t.Errorf("events = %q, want the results so far, sorted: %q", rec.events, want)
	}
}

func TestChainCancellationIsPartialAndReturned(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	slow := &scriptedEngine{name: "one", emit: []scriptEvent{"B a", "M a:1:x"}, block: true}
	rec := &eventRecorder{t: t}
	cancelAfterFirstLine := &cancelingSink{Sink: rec, cancel: cancel}
	res, err := chainOf(slow).Search(ctx, Query{Pattern: "x", Root: t.TempDir(), Sort: SortNone}, cancelAfterFirstLine)
	if !errors.Is(err, context.Canceled) || !res.Partial {
		t.Fatalf("err = %v, Partial = %v; want context.Canceled and Partial", err, res.Partial)
	}
	if want := []scriptEvent{"B a", "M a:1:x", "E a 1"}; !reflect.DeepEqual(rec.events, want) {
		t.Errorf("events = %q, want %q", rec.events, want)
	}
}

type cancelingSink struct {
	Sink
	cancel func()
}

func (s *cancelingSink) Line(l Line) error { s.cancel(); return s.Sink.Line(l) }

func TestChainReturnsTheSinksError(t *testing.T) {
	diskFull := errors.New("write: no space left on device")
	e := &scriptedEngine{name: "one", emit: []scriptEvent{"B a", "M a:1:x", "M a:2:x", "E a 2"}}
	rec := &eventRecorder{t: t, err: diskFull, after: 1}
	res, err := chainOf(e).Search(context.Background(), Query{Pattern: "x", Root: t.TempDir(), Sort: SortNone}, rec)
	if !errors.Is(err, diskFull) || !res.Partial {
		t.Fatalf("err = %v, Partial = %v; want the sink's error", err, res.Partial)
	}
	if !errors.Is(e.sinkErr, diskFull) {
		t.Errorf("engine saw %v; want the sink's error to stop it", e.sinkErr)
	}
}

func TestChainSinkErrStopEndsQuietly(t *testing.T) {
	e := &scriptedEngine{name: "one", emit: []scriptEvent{"B a", "M a:1:x", "M a:2:x", "E a 2"}}
	rec := &eventRecorder{t: t, err: ErrStop, after: 1}
	res, err := chainOf(e).Search(context.Background(), Query{Pattern: "x", Root: t.TempDir(), Sort: SortNone}, rec)
	if err != nil || res.Partial {
		t.Fatalf("err = %v, Partial = %v; ErrStop from the sink is a normal end", err, res.Partial)
	}
	if want := []scriptEvent{"B a", "M a:1:x"}; !reflect.DeepEqual(rec.events, want) {
		t.Errorf("events = %q, want nothing after the stop: %q", rec.events, want)
	}
}

func TestChainPolicyFastestPutsNativeFirstOnSmallTrees(t *testing.T) {
	tests := []struct {
		name  string
		files int
		want  string
	}{
		{"small tree", 10, "native"},
		{"at the threshold", 500, "native"},
		{"big tree", 501, "ripgrep"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rg := &scriptedEngine{name: "ripgrep"}
			native := &inProcessEngine{scriptedEngine{name: "native"}}
			c := &Chain{Engines: []Engine{rg, native}}
			c.Policy = PolicyFastest
			c.CountFiles = func(ctx context.Context, q Query, max int) int { return min(tt.files, max+1) }
			res, err := c.Search(context.Background(), Query{Pattern: "x", Root: t.TempDir()}, &eventRecorder{t: t})
			if err != nil {
				t.Fatal(err)
			}
			if res.Backend != tt.want {
				t.Errorf("Engine = %s, want %s", res.Backend, tt.want)
			}
		})
	}
}

// The Chain asks an engine whether it runs in-process; its name decides
// nothing.
func TestChainPolicyFastestAsksTheEngineNotItsName(t *testing.T) {
	for _, tt := range []struct {
		name string
		last Engine
		want string
	}{
		{"named native, spawns a tool", &scriptedEngine{name: "native"}, "ripgrep"},
		{"in-process, another name", &inProcessEngine{scriptedEngine{name: "embedded"}}, "embedded"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := &Chain{Engines: []Engine{&scriptedEngine{name: "ripgrep"}, tt.last}, Policy: PolicyFastest,
				CountFiles: func(context.Context, Query, int) int { return 1 }}
			res, err := c.Search(context.Background(), Query{Pattern: "x", Root: t.TempDir()}, &eventRecorder{t: t})
			if err != nil {
				t.Fatal(err)
			}
			if res.Backend != tt.want {
				t.Errorf("ran %s, want %s", res.Backend, tt.want)
			}
		})
	}
}

func TestCountFilesBoundedStopsPastMax(t *testing.T) {
	root := t.TempDir()
	for i := range 20 {
		writeChainFile(t, filepath.Join(root, "d", fmt.Sprintf("f%02d", i)), "x")
	}
	writeChainFile(t, filepath.Join(root, ".git", "objects", "o"), "x")
	writeChainFile(t, filepath.Join(root, ".hidden", "h"), "x")
	q := Query{Root: root}
	if n := countFilesBounded(context.Background(), q, 100); n != 20 {
		t.Errorf("count = %d, want 20 (.git and hidden dirs skipped)", n)
	}
	if n := countFilesBounded(context.Background(), q, 5); n != 6 {
		t.Errorf("count with max 5 = %d, want 6 (stop just past max)", n)
	}
	q.Hidden = true
	if n := countFilesBounded(context.Background(), q, 100); n != 21 {
		t.Errorf("count with Hidden = %d, want 21 (.git still skipped)", n)
	}
}

func TestChainByName(t *testing.T) {
	c := chainOf(&scriptedEngine{name: "ripgrep"}, &scriptedEngine{name: "native"})
	if b, err := c.ByName("native"); err != nil || b.Name() != "native" {
		t.Errorf("ByName(native) = %v, %v", b, err)
	}
	if _, err := c.ByName("ag"); err == nil || !strings.Contains(err.Error(), "ripgrep") {
		t.Errorf("ByName(ag) err = %v; want an error listing the known names", err)
	}
}

func writeChainFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// inProcessEngine is a scripted engine that says it runs in-process.
type inProcessEngine struct{ scriptedEngine }

func (*inProcessEngine) InProcess() bool { return true }

// The Chain consults its cost model per query: an engine estimated slower
// than the in-process one is tried after it (and so answers only what it
// declines); one estimated as fast or faster, or not estimated, keeps its
// place.
func TestChainCostDefersEnginesSlowerThanInProcess(t *testing.T) {
	for _, tt := range []struct {
		name      string
		cost      map[string]float64
		declining bool // the in-process engine refuses the query
		wantOrder []string
		want      string
	}{
		{"no estimate keeps the order", nil, false, []string{"rg", "tool", "native"}, "rg"},
		{"a slower tool goes after native", map[string]float64{"tool": 2.5}, false, []string{"rg", "native", "tool"}, "rg"},
		{"every slower tool goes after native, in order", map[string]float64{"rg": 1.1, "tool": 3}, false, []string{"native", "rg", "tool"}, "native"},
		{"a faster tool stays first", map[string]float64{"rg": 0.4, "tool": 1}, false, []string{"rg", "tool", "native"}, "rg"},
		{"a deferred tool answers what native declines", map[string]float64{"rg": 2, "tool": 2}, true, []string{"native", "rg", "tool"}, "rg"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			native := &inProcessEngine{scriptedEngine{name: "native"}}
			if tt.declining {
				native.searchErr = fmt.Errorf("not this one: %w", ErrUnsupported)
			}
			c := &Chain{Engines: []Engine{&scriptedEngine{name: "rg"}, &scriptedEngine{name: "tool"}, native}}
			if tt.cost != nil {
				c.Cost = func(Query) func(string) float64 { return func(engine string) float64 { return tt.cost[engine] } }
			}
			q := Query{Pattern: "x", Root: t.TempDir()}
			var got []string
			for _, e := range c.Order(context.Background(), q) {
				got = append(got, e.Name())
			}
			if !reflect.DeepEqual(got, tt.wantOrder) {
				t.Errorf("Order = %v, want %v", got, tt.wantOrder)
			}
			res, err := c.Search(context.Background(), q, &eventRecorder{t: t})
			if err != nil {
				t.Fatal(err)
			}
			if res.Backend != tt.want {
				t.Errorf("ran %s, want %s", res.Backend, tt.want)
			}
		})
	}
}

// reusingEngine sends every line from one buffer it overwrites, as an
// engine decoding a tool's output into a reused record does.
type reusingEngine struct{ lines []string }

func (*reusingEngine) Name() string { return "reusing" }
func (*reusingEngine) Available(context.Context) (Info, error) {
	return Info{Name: "reusing"}, nil
}
func (e *reusingEngine) Search(ctx context.Context, q Query, sink Sink) (Stats, error) {
	buf := make([]byte, 0, 64)
	_ = sink.Begin("a")
	for i, text := range e.lines {
		kind := KindContext
		if strings.Contains(text, "hit") {
			kind = KindMatch
		}
		buf = append(buf[:0], text...)
		l := Line{Path: "a", Number: i + 1, Text: buf, Kind: kind}
		if kind == KindMatch {
			l.Submatches = []Span{{Start: strings.Index(text, "hit"), End: strings.Index(text, "hit") + 3}}
		}
		if err := sink.Line(l); err != nil {
			return Stats{}, err
		}
	}
	return Stats{}, sink.End(FileSummary{Path: "a", MatchedLines: 2})
}

// The Chain copies the before-context lines it holds while streaming: an
// engine may reuse a line's bytes once Line returns. It held them as sent,
// so the ripgrep engine's context lines printed the next record's text
// ("one hit\nine" for "filler line").
func TestChainStreamingKeepsHeldContextLinesIntact(t *testing.T) {
	t.Parallel()
	lines := []string{"filler line", "filler line two", "one hit", "after", "more", "more again", "two hit"}
	for _, before := range []int{1, 2} {
		c := &Chain{Engines: []Engine{&reusingEngine{lines: lines}}}
		var got []string
		_, err := c.Search(context.Background(), Query{Pattern: "hit", Root: t.TempDir(), Before: before, Sort: SortNone},
			SinkFunc(func(l Line) error { got = append(got, fmt.Sprintf("%d:%s", l.Number, l.Text)); return nil }))
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for i, text := range lines {
			for _, m := range []int{3, 7} {
				if i+1 <= m && i+1 > m-1-before {
					want = append(want, fmt.Sprintf("%d:%s", i+1, text))
				}
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("-B%d: got %q, want %q", before, got, want)
		}
	}
}
