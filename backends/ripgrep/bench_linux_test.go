package ripgrep

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/search"
	"github.com/rgkit/rgkit/search/printer"
)

// goTreeTasks are the queries the Go-tree benchmarks run: common literals,
// whose records are most of the work (rgkit bench's common-literal rows).
var goTreeTasks = []struct {
	name string
	q    search.Query
}{
	{"func", search.Query{Pattern: "func"}},
	{"err", search.Query{Pattern: "err"}},
	{"static", search.Query{Pattern: "static"}},
	{"i_error", search.Query{Pattern: "error", Case: search.CaseInsensitive}},
}

// goTreeRoot is the tree the benchmarks search: rgkit bench's corpus
// (~/.cache/rgkit/corpora/go-*) when it was fetched, else $GOROOT/src.
func goTreeRoot(b *testing.B) string {
	home, _ := os.UserHomeDir()
	if dirs, _ := filepath.Glob(filepath.Join(home, ".cache", "rgkit", "corpora", "go-*")); len(dirs) > 0 {
		return dirs[0]
	}
	return filepath.Join(testtool.GOROOT(b), "src")
}

// streams caches rg's --json output per task for the process: a
// benchmark run with -count N records it once.
var streams sync.Map // task name -> []byte

// goTreeStream is rg's --json output for q over the Go tree, as the engine
// asks for it (rgArgs), recorded at benchmark time (never committed).
func goTreeStream(b *testing.B, name string, q search.Query) (search.Query, []byte) {
	rg := testtool.Need(b, "rg")
	q.Root = goTreeRoot(b)
	nq, err := search.Normalize(q)
	if err != nil {
		b.Fatal(err)
	}
	if out, ok := streams.Load(name); ok {
		return nq, out.([]byte)
	}
	args, err := rgArgs(nq, 0, false)
	if err != nil {
		b.Fatal(err)
	}
	var out bytes.Buffer
	cmd := exec.Command(rg, args...)
	cmd.Dir, cmd.Stdout = nq.Root, &out
	if err := cmd.Run(); err != nil {
		b.Fatal(err)
	}
	streams.Store(name, out.Bytes())
	return nq, out.Bytes()
}

// BenchmarkDecodeGoTree decodes rg's --json output for common literals over
// the Go tree into records, nothing more: the decoder's cost per byte.
func BenchmarkDecodeGoTree(b *testing.B) {
	for _, task := range goTreeTasks {
		b.Run(task.name, func(b *testing.B) {
			q, out := goTreeStream(b, task.name, task.q)
			b.SetBytes(int64(len(out)))
			cpu := cpuTime()
			for b.Loop() {
				if err := decodeRgJSON(bytes.NewReader(out), rgCapsFor(q), func(*rgRecord) error { return nil }); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu, len(out))
		})
	}
}

// BenchmarkRecordsGoTree is the engine's whole in-process part for the
// same streams: decoding and turning records into Lines for a sink that
// keeps nothing. It reports the CPU time per line.
func BenchmarkRecordsGoTree(b *testing.B) {
	for _, task := range goTreeTasks {
		b.Run(task.name, func(b *testing.B) {
			q, out := goTreeStream(b, task.name, task.q)
			b.SetBytes(int64(len(out)))
			lines := 0
			sink := search.SinkFunc(func(search.Line) error { lines++; return nil })
			cpu := cpuTime()
			for b.Loop() {
				run := &rgRun{ctx: context.Background(), q: q, sink: sink}
				if err := run.consume(bytes.NewReader(out)); err != nil {
					b.Fatal(err)
				}
			}
			reportCPUPerLine(b, cpu, lines)
		})
	}
}

// replay is an engine that answers every query by decoding a recorded
// rg --json stream, so the Chain and a printer can be measured without rg.
type replay struct{ out []byte }

func (r replay) Name() string { return "ripgrep" }
func (r replay) Available(context.Context) (search.Info, error) {
	return search.Info{Name: "ripgrep"}, nil
}
func (r replay) Search(ctx context.Context, q search.Query, sink search.Sink) (search.Stats, error) {
	run := &rgRun{ctx: ctx, q: q, sink: sink}
	err := run.consume(bytes.NewReader(r.out))
	return run.stats, err
}

// flushEach flushes after every file, as rgkit grep and rgkit bench do
// when they stream.
type flushEach struct {
	search.Sink
	w *bufio.Writer
}

func (s flushEach) End(sum search.FileSummary) error {
	if err := s.Sink.End(sum); err != nil {
		return err
	}
	return s.w.Flush()
}

// BenchmarkPrintGoTree is what rgkit bench's ripgrep row runs in process
// (the Chain streaming, the text printer, a flush per file), with the
// recorded stream instead of rg: everything the engine adds to rg's own
// cost but the pipe.
func BenchmarkPrintGoTree(b *testing.B) {
	for _, task := range goTreeTasks {
		b.Run(task.name, func(b *testing.B) {
			q, out := goTreeStream(b, task.name, task.q)
			b.SetBytes(int64(len(out)))
			q.Sort = search.SortNone
			chain := search.Chain{Engines: []search.Engine{replay{out}}, MaxOutputBytes: -1}
			var lines int64
			cpu := cpuTime()
			for b.Loop() {
				bw := bufio.NewWriter(io.Discard)
				res, err := chain.Search(context.Background(), q, flushEach{printer.NewText(bw, printer.Options{}), bw})
				if err != nil {
					b.Fatal(err)
				}
				lines += res.Stats.MatchedLines
			}
			reportCPUPerLine(b, cpu, int(lines))
		})
	}
}

// cpuTime is the process's user+system CPU time: on a shared machine the
// wall clock says more about the neighbours than about the decoder.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPUPerLine reports the CPU time per line printed since start.
func reportCPUPerLine(b *testing.B, start time.Duration, lines int) {
	if d := cpuTime() - start; d > 0 && lines > 0 {
		b.ReportMetric(float64(d.Nanoseconds())/float64(lines), "cpu-ns/line")
	}
}

// reportCPU reports MB decoded per CPU second since start.
func reportCPU(b *testing.B, start time.Duration, size int) {
	if d := cpuTime() - start; d > 0 {
		b.ReportMetric(float64(size)*float64(b.N)/d.Seconds()/1e6, "MB/cpu-s")
	}
}

// BenchmarkEngineGoTree runs the engine end to end (rg --json, the
// decoder, the records turned into Lines) for "func" on the Go tree, into
// a sink that keeps nothing; compare with rg writing its own output
// (rg func DIR > /dev/null).
func BenchmarkEngineGoTree(b *testing.B) {
	testtool.Need(b, "rg")
	q, err := search.Normalize(search.Query{Pattern: "func", Root: goTreeRoot(b)})
	if err != nil {
		b.Fatal(err)
	}
	e := New(nil)
	var rgCPU time.Duration
	cpu := cpuTime()
	for b.Loop() {
		lines := 0
		st, err := e.Search(context.Background(), q, search.SinkFunc(func(search.Line) error { lines++; return nil }))
		if err != nil || lines == 0 {
			b.Fatal(err, lines)
		}
		rgCPU += st.ProcessCPU
	}
	// The engine's own CPU (decoding, building Lines) and rg's.
	b.ReportMetric((cpuTime()-cpu).Seconds()/float64(b.N), "engine-cpu-s/op")
	b.ReportMetric(rgCPU.Seconds()/float64(b.N), "rg-cpu-s/op")
}

// BenchmarkEnginePrintGoTree is rgkit bench's ripgrep row in a benchmark:
// rg --json, the engine, the Chain streaming, the text printer flushed
// per file into a pipe that another goroutine drains. It reports this
// process's CPU and rg's per search, to compare with rg printing the same
// lines itself (rgkit bench's rg row).
func BenchmarkEnginePrintGoTree(b *testing.B) {
	testtool.Need(b, "rg")
	for _, task := range goTreeTasks {
		for _, plain := range []bool{false, true} {
			name := task.name + "/json"
			if plain {
				name = task.name + "/plain" // spans skipped (search.SpansOptional)
			}
			b.Run(name, func(b *testing.B) { benchEnginePrint(b, task.q, plain) })
		}
	}
}

func benchEnginePrint(b *testing.B, q search.Query, plain bool) {
	q.Root, q.Sort = goTreeRoot(b), search.SortNone
	e := New(nil)
	e.NoSpans = plain
	chain := search.Chain{Engines: []search.Engine{e}, MaxOutputBytes: -1}
	var rgCPU time.Duration
	cpu := cpuTime()
	for b.Loop() {
		r, w, err := os.Pipe()
		if err != nil {
			b.Fatal(err)
		}
		drained := make(chan error, 1)
		go func() { _, err := io.Copy(io.Discard, r); drained <- err }()
		bw := bufio.NewWriter(w)
		res, err := chain.Search(context.Background(), q, flushEach{printer.NewText(bw, printer.Options{}), bw})
		if err == nil {
			err = bw.Flush()
		}
		w.Close()
		if derr := <-drained; err == nil {
			err = derr
		}
		r.Close()
		if err != nil {
			b.Fatal(err)
		}
		rgCPU += res.Stats.ProcessCPU
	}
	b.ReportMetric((cpuTime()-cpu).Seconds()/float64(b.N), "self-cpu-s/op")
	b.ReportMetric(rgCPU.Seconds()/float64(b.N), "rg-cpu-s/op")
}
