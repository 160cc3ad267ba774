// Package bench measures search engines against each other on a real tree:
// interleaved rounds after a warm-up, each run printing every result to a
// pipe as `rgkit grep` would, beside rg itself as the baseline; wall time,
// time to the first result, CPU time and peak memory per run, and a check
// that every engine found the same matches.
package bench

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rgkit/rgkit/search"
)

// Task is one thing to measure: a search pattern, or a file listing.
type Task struct {
	Name  string       // short label for tables and charts, e.g. "rare literal"
	Query search.Query // Pattern and matching options; Root is filled in by Run
	// Listing measures listing the files a search would visit instead of
	// searching (rg --files vs the native walker).
	Listing bool
}

// Label is what a table shows for the task: the name and the pattern.
func (t Task) Label() string {
	name, expr := t.parts()
	switch {
	case expr == "":
		return name
	case name == "":
		return expr
	}
	return fmt.Sprintf("%s (%s)", name, expr)
}

// parts splits the label into the task's name and its pattern with rg's
// flags ("-i http"); the name is empty when it is the pattern itself, the
// pattern empty for a listing.
func (t Task) parts() (name, expr string) {
	if t.Listing {
		return t.Name, ""
	}
	flags := ""
	if t.Query.Case == search.CaseInsensitive {
		flags += "-i "
	}
	if t.Query.Word {
		flags += "-w "
	}
	if t.Query.Fixed {
		flags += "-F "
	}
	if t.Name == t.Query.Pattern {
		return "", flags + t.Query.Pattern
	}
	return t.Name, flags + t.Query.Pattern
}

// Engine is a named engine under test. List is nil for engines that cannot
// list files on their own. An engine with Baseline set is not one of
// rgkit's: it is the external program the others are compared with (rg
// itself), and Backend is nil.
type Engine struct {
	Backend  search.Engine
	Info     search.Info
	List     Lister
	Baseline *Baseline
}

// Lister lists the files a search of root would visit, as paths relative to root.
type Lister func(ctx context.Context, root string) (paths []string, usage search.Stats, err error)

// Options configure a benchmark run.
type Options struct {
	Root string
	// Engines are measured in this order; put the rg baseline (NewBaseline)
	// first so that its row leads every task.
	Engines []Engine
	Tasks   []Task // queries are normalised by Run (search.Normalize)
	Runs    int    // measured runs per (task, engine); default 10
	Warmup  int    // unmeasured runs per (task, engine) first; default 1
	// Progress, when set, is told after every run how many of total are done.
	Progress func(done, total int)
	// Meter measures one run's resources; default is this OS's meter.
	Meter Meter
	// Skipped are engines that could not run here at all, with the reason;
	// the report says so once instead of giving them rows.
	Skipped []search.Skip
}

// Sample is one measured run: the search with every result printed to a
// pipe that another goroutine drains, as `rgkit grep … | cat` would.
type Sample struct {
	Wall time.Duration // start of the search until the reader has its last byte
	// FirstResult is the start until the reader has its first byte; 0 when
	// nothing was printed.
	FirstResult time.Duration
	CPU         time.Duration // user+sys of this process and its children during the run; the child's alone for a baseline
	// PeakRSS is ChildPeakRSS + SelfPeakRSS, in bytes: everything the run
	// made resident, in the tool it spawned and in this process.
	PeakRSS int64
	// ChildPeakRSS is the spawned tool's own peak resident set (rg, git
	// grep, grep); 0 for the native engine.
	ChildPeakRSS int64
	// SelfPeakRSS is how far this process's resident set rose above its
	// level at the start of the run: the engine's in-process part (decoding
	// rg's output, the native re-read of grep's candidates, the native
	// search) and the printer. 0 for a baseline.
	SelfPeakRSS int64
}

// Cell is one (task, engine) pair's measurements.
type Cell struct {
	Task    string
	Engine  string
	Samples []Sample
	Matches int64 // matching lines (or files listed)
	Files   int64 // files with a match (or files listed)
	Err     error // the engine could not run this task (unsupported, failed)
}

// Disagreement says that an engine's matches differ from the reference's.
type Disagreement struct {
	Task      string `json:"task"`
	Engine    string `json:"engine"`
	Reference string `json:"reference"`
	// Missing and Extra are the first few (path, line) pairs only in the
	// reference / only in the engine.
	Missing      []Key `json:"missing"`
	Extra        []Key `json:"extra"`
	MissingCount int   `json:"missing_count"`
	ExtraCount   int   `json:"extra_count"`
}

// Key identifies a match: a path and a line number (0 for a listed file).
type Key struct {
	Path string `json:"path"`
	Line int    `json:"line"`
}

// Report is the outcome of Run.
type Report struct {
	Machine       Machine
	Root          string
	Runs, Warmup  int
	Engines       []search.Info
	Tasks         []Task
	Cells         []Cell // len(Tasks)*len(Engines), task-major
	Disagreements []Disagreement
	Skipped       []search.Skip // engines that could not run here at all
	Started       time.Time
	// LoadAverage is the 1-minute load average at the start and at the end
	// (0 where the OS does not say): how busy the machine was.
	LoadAverage [2]float64
}

// Cell returns the cell of task ti and engine ei.
func (r *Report) Cell(ti, ei int) *Cell { return &r.Cells[ti*len(r.Engines)+ei] }

// ErrDisagree is returned (wrapped) by Run's caller when engines disagree;
// Run itself reports disagreements in the Report.
var ErrDisagree = errors.New("engines disagree")

// Run measures every engine on every task: one or more warm-up runs each,
// then Runs interleaved rounds (every task's engines run once per round, in
// an order rotated each round so no engine always runs on the warmest
// cache), and an agreement check on the matches of the first warm-up run,
// made before the measured rounds.
func Run(ctx context.Context, o Options) (*Report, error) {
	if len(o.Engines) == 0 {
		return nil, errors.New("bench: no engine to measure")
	}
	if len(o.Tasks) == 0 {
		return nil, errors.New("bench: no task to measure")
	}
	if o.Runs <= 0 {
		o.Runs = 10
	}
	if o.Warmup < 0 {
		o.Warmup = 0
	}
	if o.Meter == nil {
		o.Meter = defaultMeter{}
	}
	// Engines receive only normalised queries (the Backend contract); do it
	// once here, outside every measured run, as the Chain would.
	tasks := make([]Task, len(o.Tasks))
	for i, t := range o.Tasks {
		tasks[i] = t
		if t.Listing {
			continue
		}
		q := t.Query
		q.Root = o.Root
		nq, err := search.Normalize(q)
		if err != nil {
			return nil, fmt.Errorf("bench: task %q: %w", t.Name, err)
		}
		tasks[i].Query = nq
	}
	o.Tasks = tasks
	rep := &Report{
		Machine: DescribeMachine(o.Engines),
		Root:    o.Root,
		Runs:    o.Runs,
		Warmup:  o.Warmup,
		Tasks:   o.Tasks,
		Skipped: o.Skipped,
		Started: time.Now(),
	}
	rep.LoadAverage[0] = loadAverage()
	defer func() { rep.LoadAverage[1] = loadAverage() }()
	for _, e := range o.Engines {
		rep.Engines = append(rep.Engines, e.Info)
	}
	rep.Cells = make([]Cell, len(o.Tasks)*len(o.Engines))
	for ti, t := range o.Tasks {
		for ei, e := range o.Engines {
			rep.Cells[ti*len(o.Engines)+ei] = Cell{Task: t.Name, Engine: e.Info.Name}
		}
	}

	total := len(o.Tasks) * len(o.Engines) * (o.Runs + max(o.Warmup, 1))
	done := 0
	tick := func() {
		done++
		if o.Progress != nil {
			o.Progress(done, total)
		}
	}

	// Warm-up, which also records each engine's matches for the agreement check.
	found := make([][]map[Key]struct{}, len(o.Tasks))
	for ti, t := range o.Tasks {
		found[ti] = make([]map[Key]struct{}, len(o.Engines))
		for ei, e := range o.Engines {
			cell := rep.Cell(ti, ei)
			for w := 0; w < max(o.Warmup, 1); w++ {
				keys, err := runOnce(ctx, o, t, e, cell, w == 0)
				tick()
				if err != nil {
					if ctx.Err() != nil {
						return rep, ctx.Err()
					}
					cell.Err = err
					break
				}
				if w == 0 && e.Baseline == nil {
					found[ti][ei] = keys
				}
			}
		}
	}

	// Compare now, after which the match sets are unreachable: held through the measured
	// runs, they would make the garbage collector let every run's heap grow
	// by as much again (its target is a multiple of the live heap), and the
	// in-process memory measured would be the benchmark's, not the engine's.
	for ti, t := range o.Tasks {
		rep.Disagreements = append(rep.Disagreements, compare(t.Name, o.Engines, found[ti], referenceIndex(o.Engines))...)
	}

	for round := 0; round < o.Runs; round++ {
		for ti, t := range o.Tasks {
			n := len(o.Engines)
			for k := 0; k < n; k++ {
				ei := (k + round) % n
				cell := rep.Cell(ti, ei)
				if cell.Err != nil {
					tick()
					continue
				}
				s, err := measure(ctx, o, t, o.Engines[ei])
				tick()
				if err != nil {
					if ctx.Err() != nil {
						return rep, ctx.Err()
					}
					cell.Err = err
					continue
				}
				cell.Samples = append(cell.Samples, s)
			}
		}
	}
	return rep, nil
}

// runOnce runs task t on engine e, keeping the counts in cell and, when
// record is set, the set of matches for the agreement check. A baseline is
// run as measured and its printed lines counted: it takes no part in the
// agreement check.
func runOnce(ctx context.Context, o Options, t Task, e Engine, cell *Cell, record bool) (map[Key]struct{}, error) {
	if e.Baseline != nil {
		p, err := printed(ctx, o, t, e)
		if err != nil {
			return nil, err
		}
		cell.Matches = p.lines
		if t.Listing {
			cell.Files = p.lines
		}
		return nil, nil
	}
	if t.Listing {
		if e.List == nil {
			return nil, fmt.Errorf("%s cannot list files: %w", e.Info.Name, search.ErrUnsupported)
		}
		paths, _, err := e.List(ctx, o.Root)
		if err != nil {
			return nil, err
		}
		cell.Matches, cell.Files = int64(len(paths)), int64(len(paths))
		if !record {
			return nil, nil
		}
		files := make(map[Key]struct{}, len(paths))
		for _, p := range paths {
			files[Key{Path: p}] = struct{}{}
		}
		return files, nil
	}
	var sink keySink
	if record {
		sink.keys = map[Key]struct{}{}
	}
	if _, err := e.Backend.Search(ctx, t.Query, &sink); err != nil {
		return nil, err
	}
	cell.Matches, cell.Files = sink.lines, sink.files
	return sink.keys, nil
}

// keySink counts matching lines and files and records (path, line) keys.
type keySink struct {
	keys         map[Key]struct{}
	lines, files int64
}

func (s *keySink) Begin(string) error { s.files++; return nil }

func (s *keySink) Line(l search.Line) error {
	if l.Kind != search.KindMatch {
		return nil
	}
	s.lines++
	if s.keys != nil {
		s.keys[Key{l.Path, l.Number}] = struct{}{}
	}
	return nil
}

func (s *keySink) End(search.FileSummary) error { return nil }
