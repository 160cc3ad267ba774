package sysgrep

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/internal/dialect"
	"github.com/rgkit/rgkit/internal/proc"
	"github.com/rgkit/rgkit/search"
)

// grepBatchBytes bounds one grep run's argument bytes, well under ARG_MAX.
const grepBatchBytes = 256 << 10

// Search runs q (normalised) through grep; see Engine.
func (g *Engine) Search(ctx context.Context, q search.Query, sink search.Sink) (search.Stats, error) {
	start := time.Now()
	info, err := g.Available(ctx)
	if err != nil {
		return search.Stats{}, err
	}
	if q.PCRE2 {
		return search.Stats{}, fmt.Errorf("%w: grep's regex dialects are not PCRE2's", search.ErrUnsupported)
	}
	if q.Multiline {
		return search.Stats{}, fmt.Errorf("%w: grep searches line by line (multiline)", search.ErrUnsupported)
	}
	if c := q.CustomReading(); c != "" {
		return search.Stats{}, fmt.Errorf("%w: grep reads files as they are (%s)", search.ErrUnsupported, c)
	}
	if search.Within(q.Root, info.Path) {
		// A grep planted in the tree being searched is never run.
		return search.Stats{}, fmt.Errorf("%w: refusing to run %s from inside the search root", search.ErrUnavailable, info.Path)
	}
	t, err := dialect.Translate(q, dialect.ERE)
	if err != nil {
		return search.Stats{}, err
	}
	if err := dialect.CheckDFAWeight(q); err != nil && !t.Fixed {
		return search.Stats{}, err
	}
	typeGlobs, err := search.TypeGlobs(q.Types)
	if err != nil {
		return search.Stats{}, err
	}
	m, err := native.Compile(native.MatchOptionsFor(q)) // q is not multiline here
	if err != nil {
		return search.Stats{}, fmt.Errorf("%w: %w", search.ErrUnsupported, err)
	}
	args := grepArgs(q, t)
	reader := &native.Reader{}
	src, err := reader.OpenFor(q)
	if err != nil {
		return search.Stats{}, err
	}
	defer src.Close()

	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	run := &grepRun{ctx: ctx, cancel: cancel, q: q, m: m, src: src, path: info.Path, args: args, noStats: g.NoStats, maxMemory: g.maxMemory()}
	run.fs = native.NewFileSearcher(ctx, q, m, sink, src)
	batches := make(chan []native.File)
	parallel := g.Parallel
	if parallel <= 0 {
		parallel = runtime.GOMAXPROCS(0)
	}
	var wg sync.WaitGroup
	for range parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range batches {
				if err := run.batch(b); err != nil {
					run.fail(err)
				}
			}
		}()
	}
	batchSize := g.BatchSize
	if batchSize <= 0 {
		batchSize = 1024
	}
	var mu sync.Mutex
	var cur []native.File
	curBytes := 0
	flush := func() error {
		b := cur
		cur, curBytes = nil, 0
		select {
		case batches <- b:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	ws, walkErr := native.Walk(ctx, native.WalkOptionsFor(q, typeGlobs, 0), func(f native.File) error {
		mu.Lock()
		defer mu.Unlock()
		cur = append(cur, f)
		curBytes += len(f.Path) + 3
		if len(cur) >= batchSize || curBytes >= grepBatchBytes {
			return flush()
		}
		return nil
	})
	if len(cur) > 0 && walkErr == nil {
		walkErr = flush()
	}
	close(batches)
	wg.Wait()

	st := run.stats()
	st.Unreadable += ws.Unreadable
	st.TooLarge = ws.TooLarge
	st.Elapsed = time.Since(start)
	if err := run.fs.SinkErr(); err != nil {
		return st, err
	}
	if run.fs.Stopped() {
		return st, nil
	}
	if err := run.err(); err != nil {
		return st, err
	}
	if err := parent.Err(); err != nil {
		return st, err
	}
	return st, walkErr
}

// maxMemory is the cap handed to proc.Spec (<= 0 there = none).
func (g *Engine) maxMemory() int64 {
	if g.MaxMemory == 0 {
		return DefaultMaxMemory
	}
	return g.MaxMemory
}

// grepRun is one Search: shared inputs, the sink (one file at a time) and
// counters.
type grepRun struct {
	ctx    context.Context
	cancel context.CancelFunc
	q      search.Query
	m      *native.Matcher
	src    *native.Source
	path   string
	args   []string
	// noStats: a file grep does not report counts its size as searched
	// bytes, unread (see Engine.NoStats).
	noStats   bool
	maxMemory int64 // proc.Spec.MaxMemory of each grep

	// fs passes every file's lines to the sink (one file at a time), and
	// searches the files grep cannot answer exactly.
	fs *native.FileSearcher

	errMu    sync.Mutex
	firstErr error
	atLeast  atomic.Bool // a file reached the page's match cap (Stats.MatchedLinesAtLeast)
	printed  atomic.Bool // some grep run wrote to stdout (see refusedPattern)

	searched, matched, lines, bytes, binary, unreadable atomic.Int64
	cpu, peakRSS                                        atomic.Int64 // grep's, over every batch
}

// stats adds what grep reported and what the native matcher searched.
func (r *grepRun) stats() search.Stats {
	ns := r.fs.Stats()
	return search.Stats{
		FilesSearched:       r.searched.Load(),
		FilesMatched:        r.matched.Load() + ns.FilesMatched,
		MatchedLines:        r.lines.Load() + ns.MatchedLines,
		MatchedLinesAtLeast: r.atLeast.Load(),
		BytesSearched:       r.bytes.Load() + ns.BytesSearched,
		Binary:              r.binary.Load() + ns.Binary,
		Unreadable:          r.unreadable.Load() + ns.Unreadable,

		ProcessCPU:     time.Duration(r.cpu.Load()),
		ProcessPeakRSS: r.peakRSS.Load(),
	}
}

// fail records the first error and stops the search.
func (r *grepRun) fail(err error) {
	if errors.Is(err, native.ErrStopWalk) {
		r.cancel() // the sink stopped or failed: not this batch's failure
		return
	}
	if r.ctx.Err() != nil {
		return // stopped by the sink or the caller: not this batch's failure
	}
	r.errMu.Lock()
	if r.firstErr == nil {
		r.firstErr = err
	}
	r.errMu.Unlock()
	r.cancel()
}

func (r *grepRun) err() error {
	r.errMu.Lock()
	defer r.errMu.Unlock()
	return r.firstErr
}

// batch runs grep over one batch of files and finishes each file it reports.
func (r *grepRun) batch(files []native.File) error {
	if r.ctx.Err() != nil {
		return nil
	}
	byArg := make(map[string]native.File, len(files))
	args := append(append([]string(nil), r.args...), "--")
	for _, f := range files {
		// "./" keeps a name starting with '-' from reading as a flag, and a
		// name starting with "--\n" from reading as a group separator.
		a := "./" + f.Path
		byArg[a] = f
		args = append(args, a)
	}
	r.searched.Add(int64(len(files)))
	reported := make(map[string]bool) // by argument: the files grep printed
	var read func(io.Reader) error
	if r.q.Mode == search.ModeContent {
		read = func(rd io.Reader) error { return r.content(rd, byArg, reported) }
	} else {
		read = func(rd io.Reader) error {
			return proc.ReadNulList(rd, func(p string) error {
				f, ok := byArg[p]
				if !ok {
					return fmt.Errorf("grep listed an unknown file %q", p)
				}
				reported[p] = true
				return r.nativeFile(f)
			})
		}
	}
	out := func(rd io.Reader) error { return read(&firstByte{r: rd, seen: &r.printed}) }
	res, err := proc.Run(r.ctx, proc.Spec{Unavailable: search.ErrUnavailable, Path: r.path, Args: args, Dir: r.q.Root, Env: grepEnv,
		MaxStdout: proc.DefaultMaxStdout, MaxMemory: r.maxMemory}, out)
	r.cpu.Add(int64(res.CPU))
	for old := r.peakRSS.Load(); res.PeakRSS > old && !r.peakRSS.CompareAndSwap(old, res.PeakRSS); old = r.peakRSS.Load() {
	}
	if res.MemoryCapped {
		return fmt.Errorf("%w: grep needed more than %s of memory and was stopped", search.ErrMemoryCap, proc.FormatBytes(r.maxMemory))
	}
	if err != nil {
		return err
	}
	if res.StdoutCapped {
		return fmt.Errorf("grep printed more than %d bytes; narrow the search", proc.DefaultMaxStdout)
	}
	if err := refusedPattern(res, r.printed.Load()); err != nil {
		return err
	}
	if res.ExitCode > 1 && len(strings.TrimSpace(string(res.Stderr))) > 0 {
		// With -s grep is silent about unreadable files (exit 2, counted
		// nowhere); anything it does say is a real failure.
		return fmt.Errorf("grep: exit status %d: %s", res.ExitCode, strings.TrimSpace(string(res.Stderr)))
	}
	return r.unreported(files, reported)
}

// unreported accounts for the files of a batch grep printed nothing for:
// their size, or, when the statistics are read, what the Go side counts
// searching them (rg counts a binary file only up to where it stops).
func (r *grepRun) unreported(files []native.File, reported map[string]bool) error {
	for _, f := range files {
		if reported["./"+f.Path] {
			continue
		}
		if r.noStats {
			r.bytes.Add(f.Size)
			continue
		}
		if err := r.ctx.Err(); err != nil {
			return nil // stopped: the search is over
		}
		if err := r.nativeFile(f); err != nil {
			return err
		}
	}
	return nil
}

// content reads grep's content output and passes each file on in turn
// (grep reports files in argument order, each file's lines together), a
// chunk of records at a time.
func (r *grepRun) content(rd io.Reader, byArg map[string]native.File, reported map[string]bool) error {
	var cur *grepFile
	curArg := ""
	err := grepRecords(rd, func(path string, number int, context bool) error {
		if path != curArg {
			err := r.close(cur)
			cur, curArg = nil, path
			if err != nil {
				return err
			}
			f, ok := byArg[path]
			if !ok {
				return fmt.Errorf("grep reported an unknown file %q", path)
			}
			reported[path] = true
			if cur, err = r.open(path, f); err != nil {
				return err
			}
		}
		if cur == nil {
			return nil // unreadable
		}
		return r.add(cur, number, context)
	})
	if err != nil {
		if cur != nil {
			cur.out.Abandon()
			cur.buf.Release()
		}
		return err
	}
	return r.close(cur)
}

// firstByte sets seen once a byte is read through it.
type firstByte struct {
	r    io.Reader
	seen *atomic.Bool
}

func (f *firstByte) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if n > 0 && !f.seen.Load() {
		f.seen.Store(true)
	}
	return n, err
}
