package bench

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/rgkit/rgkit/search"
	"github.com/rgkit/rgkit/search/printer"
)

// output is what the reading end of a run's pipe saw.
type output struct {
	first        time.Time // when the first byte arrived; zero if none
	bytes, lines int64
}

// drain reads a pipe to its end on its own goroutine, like the program a
// user pipes rgkit into, noting when the first byte arrived.
type drain struct {
	r    *os.File
	buf  []byte
	done chan output
}

func startDrain(r *os.File) *drain {
	d := &drain{r: r, buf: make([]byte, 64<<10), done: make(chan output, 1)}
	go func() {
		var o output
		for {
			n, err := d.r.Read(d.buf)
			if n > 0 {
				if o.first.IsZero() {
					o.first = time.Now()
				}
				o.bytes += int64(n)
				o.lines += int64(bytes.Count(d.buf[:n], []byte{'\n'}))
			}
			if err != nil {
				break
			}
		}
		d.done <- o
	}()
	return d
}

// printed runs task t on engine e with its output going through a pipe and
// returns what came out of it, unmeasured.
func printed(ctx context.Context, o Options, t Task, e Engine) (output, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return output{}, err
	}
	defer r.Close()
	d := startDrain(r)
	_, err = emit(ctx, o.Root, t, e, w)
	w.Close()
	return <-d.done, err
}

// measure times one run of task t on engine e printing to a pipe: wall time
// until the reader has the last byte, time until it has the first, CPU and
// peak memory.
func measure(ctx context.Context, o Options, t Task, e Engine) (Sample, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return Sample{}, err
	}
	defer r.Close()
	d := startDrain(r)
	m := o.Meter.Start()
	start := time.Now()
	usage, err := emit(ctx, o.Root, t, e, w)
	w.Close()
	out := <-d.done
	wall := time.Since(start)
	s := m.Stop(usage)
	s.Wall = wall
	if !out.first.IsZero() {
		s.FirstResult = out.first.Sub(start)
	}
	s.ChildPeakRSS = usage.ProcessPeakRSS
	if e.Baseline != nil {
		// The baseline is the child alone: this process only waits for it.
		s.CPU, s.SelfPeakRSS = usage.ProcessCPU, 0
	}
	s.PeakRSS = s.ChildPeakRSS + s.SelfPeakRSS
	return s, err
}

// emit runs task t on engine e writing its results to out as `rgkit grep`
// prints them (path:line:text, or one path a line for a listing), and
// returns the usage of the engine's child processes.
func emit(ctx context.Context, root string, t Task, e Engine, out *os.File) (search.Stats, error) {
	if e.Baseline != nil {
		return e.Baseline.Run(ctx, root, t, out)
	}
	bw := bufio.NewWriterSize(out, 64<<10)
	var usage search.Stats
	var err error
	if t.Listing {
		if e.List == nil {
			return usage, fmt.Errorf("%s cannot list files: %w", e.Info.Name, search.ErrUnsupported)
		}
		var paths []string
		paths, usage, err = e.List(ctx, root)
		for _, p := range paths {
			if err != nil {
				break
			}
			_, err = io.WriteString(bw, p+"\n")
		}
	} else {
		// One engine alone through a Chain, streaming (rg's order), every
		// result kept, as `rgkit grep --backend NAME --sort none` runs it.
		q := t.Query
		q.Sort = search.SortNone
		chain := search.Chain{Engines: []search.Engine{e.Backend}, MaxOutputBytes: -1}
		var res search.Result
		res, err = chain.Search(ctx, q, &pacedFlush{Sink: printer.NewText(bw, printer.Options{}), w: bw})
		usage = res.Stats
		var none *search.NoEngineError
		if errors.As(err, &none) && len(none.Skipped) == 1 {
			err = none.Skipped[0].Reason // the engine's own reason, not the Chain's summary
		}
	}
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	return usage, err
}

// pacedFlush writes the output as `rgkit grep` writes to a pipe: in
// 64 KiB writes, and at the end of a file once flushGap has passed since
// the last write, so the first file's lines leave as soon as it is done
// and a search printing thousands of files makes no write per file.
type pacedFlush struct {
	search.Sink
	w    *bufio.Writer
	last time.Time
}

// flushGap is rgkit grep's pace (package rg's pipeFlushGap).
const flushGap = 5 * time.Millisecond

func (s *pacedFlush) End(sum search.FileSummary) error {
	if err := s.Sink.End(sum); err != nil {
		return err
	}
	if s.w.Buffered() == 0 || time.Since(s.last) < flushGap {
		return nil
	}
	s.last = time.Now()
	return s.w.Flush()
}
