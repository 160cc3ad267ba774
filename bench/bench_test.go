package bench

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rgkit/rgkit/search"
)

// scripted is a Backend that reports fixed matches and records when it ran.
type scripted struct {
	name    string
	matches map[string][]int // path -> matching line numbers
	log     *[]string
	err     error
}

func (s *scripted) Name() string { return s.name }
func (s *scripted) Available(context.Context) (search.Info, error) {
	return search.Info{Name: s.name, Version: "1.0"}, nil
}

func (s *scripted) Search(_ context.Context, q search.Query, sink search.Sink) (search.Stats, error) {
	if s.log != nil {
		*s.log = append(*s.log, s.name+":"+q.Pattern)
	}
	if s.err != nil {
		return search.Stats{}, s.err
	}
	for path, lines := range s.matches {
		_ = sink.Begin(path)
		for _, n := range lines {
			_ = sink.Line(search.Line{Path: path, Number: n, Kind: search.KindMatch})
		}
		_ = sink.End(search.FileSummary{Path: path, MatchedLines: len(lines)})
	}
	return search.Stats{}, nil
}

// nullMeter keeps tests independent of the machine's counters.
type nullMeter struct{}

func (nullMeter) Start() Measurement { return nullMeter{} }

func (nullMeter) Stop(search.Stats) Sample { return Sample{} }

func engine(b *scripted) Engine {
	info, _ := b.Available(context.Background())
	return Engine{Backend: b, Info: info}
}

func TestMedianOfOddAndEvenCounts(t *testing.T) {
	ms := time.Millisecond
	cases := []struct {
		in   []time.Duration
		want time.Duration
	}{
		{[]time.Duration{5 * ms}, 5 * ms},
		{[]time.Duration{9 * ms, 1 * ms, 5 * ms}, 5 * ms},
		{[]time.Duration{4 * ms, 1 * ms, 3 * ms, 2 * ms}, 2500 * time.Microsecond},
		{[]time.Duration{100 * ms, 1 * ms, 2 * ms}, 2 * ms}, // one slow outlier does not move it
	}
	for _, c := range cases {
		if got := median(c.in); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestSummarizeKeepsRangeAndPeakMemory(t *testing.T) {
	s := Summarize([]Sample{
		{Wall: 30 * time.Millisecond, CPU: 3, PeakRSS: 10},
		{Wall: 10 * time.Millisecond, CPU: 1, PeakRSS: 30},
		{Wall: 20 * time.Millisecond, CPU: 2, PeakRSS: 20},
	})
	if s.Median != 20*time.Millisecond || s.Min != 10*time.Millisecond || s.Max != 30*time.Millisecond {
		t.Errorf("median/min/max = %v/%v/%v, want 20ms/10ms/30ms", s.Median, s.Min, s.Max)
	}
	if s.CPU != 2 || s.PeakRSS != 30 || s.N != 3 {
		t.Errorf("cpu %v peak %d n %d, want 2, 30, 3", s.CPU, s.PeakRSS, s.N)
	}
}

func TestRunsInterleaveEnginesAndRotateTheirOrder(t *testing.T) {
	var log []string
	mk := func(name string) Engine {
		return engine(&scripted{name: name, log: &log, matches: map[string][]int{"a.go": {1}}})
	}
	_, err := Run(context.Background(), Options{
		Root:    t.TempDir(),
		Engines: []Engine{mk("A"), mk("B"), mk("C")},
		Tasks:   []Task{{Name: "p", Query: search.Query{Pattern: "p"}}},
		Runs:    3, Warmup: 1, Meter: nullMeter{},
	})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(log, " ")
	// One warm-up each, then rounds A B C, B C A, C A B: interleaved, and no
	// engine always runs right after the same other one.
	want := "A:p B:p C:p A:p B:p C:p B:p C:p A:p C:p A:p B:p"
	if got != want {
		t.Errorf("run order\n got %s\nwant %s", got, want)
	}
}

func TestAgreementCatchesABrokenEngine(t *testing.T) {
	good := map[string][]int{"a.go": {1, 7}, "b/c.go": {3}}
	broken := map[string][]int{"a.go": {1}, "b/c.go": {3, 4}} // drops a.go:7, invents b/c.go:4
	rep, err := Run(context.Background(), Options{
		Root: t.TempDir(),
		Engines: []Engine{
			engine(&scripted{name: "ripgrep", matches: good}),
			engine(&scripted{name: "native", matches: good}),
			engine(&scripted{name: "grep", matches: broken}),
		},
		Tasks: []Task{{Name: "lit", Query: search.Query{Pattern: "x"}}},
		Runs:  2, Meter: nullMeter{},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Disagreements) != 1 {
		t.Fatalf("disagreements = %+v, want exactly the broken engine", rep.Disagreements)
	}
	d := rep.Disagreements[0]
	if d.Engine != "grep" || d.Reference != "ripgrep" {
		t.Errorf("blamed %s vs %s, want grep vs ripgrep", d.Engine, d.Reference)
	}
	if fmt.Sprint(d.Missing) != "[{a.go 7}]" || fmt.Sprint(d.Extra) != "[{b/c.go 4}]" {
		t.Errorf("missing %v extra %v, want [{a.go 7}] and [{b/c.go 4}]", d.Missing, d.Extra)
	}
	var out bytes.Buffer
	if err := rep.Write(&out, FormatTable); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"DISAGREE lit: grep vs ripgrep: 1 missing, 1 extra", "- a.go:7 (only in ripgrep)", "+ b/c.go:4 (only in grep)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
}

func TestAnEngineThatCannotRunATaskIsReportedNotCompared(t *testing.T) {
	m := map[string][]int{"a": {1}}
	rep, err := Run(context.Background(), Options{
		Root: t.TempDir(),
		Engines: []Engine{
			engine(&scripted{name: "ripgrep", matches: m}),
			engine(&scripted{name: "gitgrep", err: fmt.Errorf("multiline: %w", search.ErrUnsupported)}),
		},
		Tasks: []Task{{Name: "t", Query: search.Query{Pattern: "x"}}},
		Runs:  2, Meter: nullMeter{},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Disagreements) != 0 {
		t.Errorf("an unsupported engine was compared: %+v", rep.Disagreements)
	}
	if c := rep.Cell(0, 1); !errors.Is(c.Err, search.ErrUnsupported) || len(c.Samples) != 0 {
		t.Errorf("cell = %+v, want the unsupported error and no samples", c)
	}
	var md bytes.Buffer
	_ = rep.Write(&md, FormatMarkdown)
	if !strings.Contains(md.String(), "| gitgrep | unsupported |") {
		t.Errorf("markdown does not say unsupported:\n%s", md.String())
	}
}

func TestRatiosAreAgainstFastestAndRipgrep(t *testing.T) {
	ms := time.Millisecond
	rep := &Report{
		Engines: []search.Info{{Name: "native"}, {Name: "ripgrep"}, {Name: "grep"}},
		Tasks:   []Task{{Name: "t"}},
		Cells: []Cell{
			{Samples: []Sample{{Wall: 10 * ms}}},
			{Samples: []Sample{{Wall: 20 * ms}}},
			{Samples: []Sample{{Wall: 40 * ms}}},
		},
	}
	f, r := rep.Ratios(0)
	if fmt.Sprint(f) != "[1 2 4]" || fmt.Sprint(r) != "[0.5 1 2]" {
		t.Errorf("×fastest %v ×rg %v, want [1 2 4] and [0.5 1 2]", f, r)
	}
}

func TestMachineReadableFormatsCarryEveryCell(t *testing.T) {
	m := map[string][]int{"a": {1, 2}}
	rep, err := Run(context.Background(), Options{
		Root:    t.TempDir(),
		Engines: []Engine{engine(&scripted{name: "ripgrep", matches: m}), engine(&scripted{name: "native", matches: m})},
		Tasks:   []Task{{Name: "one", Query: search.Query{Pattern: "a"}}, {Name: "two", Query: search.Query{Pattern: "b"}}},
		Runs:    3, Meter: nullMeter{},
	})
	if err != nil {
		t.Fatal(err)
	}
	var js bytes.Buffer
	if err := rep.Write(&js, FormatJSON); err != nil {
		t.Fatal(err)
	}
	var parsed struct {
		Results []jsonCell `json:"results"`
	}
	if err := json.Unmarshal(js.Bytes(), &parsed); err != nil {
		t.Fatalf("json output does not parse: %v\n%s", err, js.String())
	}
	if len(parsed.Results) != 4 || parsed.Results[3].Engine != "native" || parsed.Results[3].Runs != 3 || parsed.Results[3].Matches != 2 {
		t.Errorf("json results = %+v", parsed.Results)
	}
	var cs bytes.Buffer
	if err := rep.Write(&cs, FormatCSV); err != nil {
		t.Fatal(err)
	}
	records, err := csv.NewReader(&cs).ReadAll()
	if err != nil || len(records) != 5 || records[0][0] != "task" {
		t.Errorf("csv = %v, %v; want a header and 4 rows", records, err)
	}
}

func TestRunRefusesAnInvalidPatternBeforeAnyEngineRuns(t *testing.T) {
	var log []string
	_, err := Run(context.Background(), Options{
		Root:    t.TempDir(),
		Engines: []Engine{engine(&scripted{name: "native", log: &log})},
		Tasks:   []Task{{Name: "bad", Query: search.Query{Pattern: "a("}}},
		Meter:   nullMeter{},
	})
	var ipe *search.InvalidPatternError
	if !errors.As(err, &ipe) || len(log) != 0 {
		t.Errorf("err %v, runs %v; want an *InvalidPatternError and no engine run", err, log)
	}
}
