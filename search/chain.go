package search

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Policy says in which order a Chain tries its engines.
type Policy int

const (
	// PolicyFallback tries the engines in the order of Chain.Engines
	// (DefaultChain: ripgrep, gitgrep, grep, native).
	PolicyFallback Policy = iota
	// PolicyFastest runs the last in-process engine (see InProcess) first
	// when the tree is small (spawning a process costs more than searching a few hundred
	// files), and the normal order otherwise.
	PolicyFastest
)

// DefaultMaxOutputBytes is the total output cap of a Chain whose
// MaxOutputBytes is zero: large enough for any human-read output, small
// enough that a runaway search cannot exhaust memory while results are held
// for sorting.
const DefaultMaxOutputBytes int64 = 64 << 20

// DefaultFastestMaxFiles is the file count up to which PolicyFastest puts the
// native engine first (docs/performance.md has the measurement
// behind it).
const DefaultFastestMaxFiles = 500

// Chain runs a Query through the first engine that can honour it exactly,
// then orders, pages and caps what that engine found, so the caller sees the
// same answer whichever engine ran.
type Chain struct {
	// Engines are tried in this order.
	Engines []Engine
	// Policy may reorder Engines per query (PolicyFastest).
	Policy Policy
	// MaxOutputBytes caps the path and text bytes the Chain holds (when it
	// sorts) or passes on (when it streams); 0 = DefaultMaxOutputBytes,
	// negative = no cap. Hitting it sets Result.Truncated = TruncatedBytes.
	MaxOutputBytes int64
	// FastestMaxFiles is PolicyFastest's small-tree threshold; 0 =
	// DefaultFastestMaxFiles.
	FastestMaxFiles int
	// CountFiles counts the files a query would walk, stopping once it passes
	// max; nil = a bounded walk of the query's paths (countFilesBounded).
	// Callers that already know the tree size inject it here.
	CountFiles func(ctx context.Context, q Query, max int) int
	// Cost, when set, is the cost model the Chain consults once per query:
	// for q it returns each engine's expected wall time over the in-process
	// engine's (see InProcess), by name: 1 for the same, 0 for unknown. An engine estimated above
	// 1 is tried only after the in-process engine, so it answers just the
	// queries that engine declines. backends.Default sets it from measured
	// ratios per query class (backends/cost.go).
	Cost func(q Query) func(engine string) float64
}

// Search validates q, runs it through the first engine that can honour it
// and pushes the ordered, paged results to sink.
//
// The sink sees one call at a time, one file at a time (Begin, its lines in
// order, End). With SortPath and SortModified it is called from Search's own
// goroutine once the engine is done; with SortNone it is called as results
// arrive, possibly from an engine's goroutine.
//
// Errors:
//   - an invalid pattern is returned at once as *InvalidPatternError; no
//     engine runs and nothing is skipped;
//   - an engine is passed over (recorded in Result.Skipped) only when its
//     Available or Search returns an error wrapping ErrUnavailable or
//     ErrUnsupported before it emitted anything; when every engine is passed
//     over, the error is a *NoEngineError (errors.Is ErrUnavailable) with
//     each reason;
//   - an engine whose process passed its memory cap (ErrMemoryCap) is
//     passed over too when nothing it found had reached sink yet (always so
//     with SortPath and SortModified, which hold results until the engine
//     is done): what it found is dropped, the next engine answers, and
//     Result.Warnings says so. When some of it had been streamed to sink
//     (SortNone), the error is returned with Partial set, as below;
//   - q.Timeout (or a deadline on ctx) running out is not an error: the
//     results found so far are delivered and Result.Partial is set;
//   - cancellation of ctx delivers the results found so far, sets Partial and
//     returns ctx's error;
//   - any other engine error, or a sink error other than ErrStop, is returned
//     with Partial set, after what was found has been delivered.
func (c *Chain) Search(ctx context.Context, q Query, sink Sink) (Result, error) {
	start := time.Now()
	var res Result
	nq, err := Normalize(q)
	if err != nil {
		return res, err
	}
	if nq.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, nq.Timeout)
		defer cancel()
	}
	var memoryCapped []error // engines stopped for memory, their results dropped
	for _, b := range c.Order(ctx, nq) {
		info, err := b.Available(ctx)
		if err == nil && nq.MaxCountSet && nq.MaxCountPerFile == 0 {
			// rg -m 0: no file may report a match, so nothing is searched.
			res.Backend, res.Info = b.Name(), info
			res.Stats.Elapsed = time.Since(start)
			return res, nil
		}
		if err == nil {
			var done bool
			done, err = c.run(ctx, b, info, nq, sink, &res)
			if done {
				for _, e := range memoryCapped {
					res.Warnings = append(res.Warnings, fmt.Sprintf("%v; searched with %s instead", e, b.Name()))
				}
				res.Stats.Elapsed = time.Since(start)
				return res, err
			}
		}
		if ctx.Err() != nil {
			res.Stats.Elapsed = time.Since(start)
			return res, interrupted(ctx, &res, nq)
		}
		if errors.Is(err, ErrMemoryCap) {
			memoryCapped = append(memoryCapped, err)
		} else if !skippable(err) {
			res.Stats.Elapsed = time.Since(start)
			return res, fmt.Errorf("%s: %w", b.Name(), err)
		}
		res.Skipped = append(res.Skipped, Skip{Backend: b.Name(), Reason: err})
	}
	res.Stats.Elapsed = time.Since(start)
	if ctx.Err() != nil {
		return res, interrupted(ctx, &res, nq)
	}
	return res, &NoEngineError{Skipped: res.Skipped}
}

// run searches with one available engine. done is false only when the
// engine refused q (err wraps ErrUnavailable or ErrUnsupported) before
// emitting anything, or was stopped for memory (ErrMemoryCap) before any
// of its results reached sink, so the Chain may try the next one.
func (c *Chain) run(ctx context.Context, b Engine, info Info, q Query, sink Sink, res *Result) (done bool, err error) {
	col := newCollector(q, sink, c.maxOutputBytes())
	stats, err := b.Search(ctx, q, col)
	if err != nil && skippable(err) && !col.outcome().received {
		return false, err
	}
	if errors.Is(err, ErrMemoryCap) && !col.outcome().passedOn && ctx.Err() == nil {
		// col, and what it held, is dropped; what the process cost is kept.
		res.Stats.ProcessCPU += stats.ProcessCPU
		res.Stats.ProcessPeakRSS = max(res.Stats.ProcessPeakRSS, stats.ProcessPeakRSS)
		return false, err
	}
	res.Backend = b.Name()
	res.Info = info
	flushErr := col.finish()
	out := col.outcome()
	stats.ProcessCPU += res.Stats.ProcessCPU // engines dropped for memory before it
	stats.ProcessPeakRSS = max(stats.ProcessPeakRSS, res.Stats.ProcessPeakRSS)
	res.Stats = col.mergeStats(stats)
	if out.stopped {
		res.Stats.MatchedLinesAtLeast = true // the engine was stopped before it had counted everything
	}
	res.Truncated = out.trunc
	res.FileErrors = out.fileErrs
	if res.Stats.Unreadable > 0 {
		res.Warnings = append(res.Warnings, unreadableWarning(res.Stats.Unreadable, res.FileErrors))
	}
	if out.sinkErr != nil {
		res.Partial = true
		return true, out.sinkErr
	}
	if flushErr != nil {
		res.Partial = true
		return true, flushErr
	}
	if ctx.Err() != nil && (!out.stopped || errors.Is(err, ctx.Err())) {
		// Also when the engine, stopped by a cap, reports the deadline
		// that passed before it noticed: that is a timeout, not a failure.
		return true, interrupted(ctx, res, q)
	}
	if errors.Is(err, ErrMemoryCap) {
		res.Partial = true
		return true, fmt.Errorf("%s: %w; what it found before was streamed, so results are partial", b.Name(), err)
	}
	if err != nil && !errors.Is(err, ErrStop) {
		res.Partial = true
		return true, fmt.Errorf("%s: %w", b.Name(), err)
	}
	return true, nil
}

// interrupted marks res partial after ctx ended. A deadline (q.Timeout or
// the caller's own) is the expected way for a bounded search to end, so it
// is a warning, not an error; a cancellation is the caller's decision and is
// returned to it.
func interrupted(ctx context.Context, res *Result, q Query) error {
	res.Partial = true
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		msg := "search timed out; results are partial"
		if q.Timeout > 0 {
			msg = fmt.Sprintf("search timed out after %s; results are partial", q.Timeout)
		}
		res.Warnings = append(res.Warnings, msg)
		return nil
	}
	return ctx.Err()
}

// skippable reports whether err lets the Chain move on to the next engine.
func skippable(err error) bool {
	return errors.Is(err, ErrUnavailable) || errors.Is(err, ErrUnsupported)
}

// NoEngineError is returned by Chain.Search when every engine passed over
// the query. It matches ErrUnavailable with errors.Is, and each skip reason
// too (so errors.Is(err, ErrUnsupported) tells "no engine can express this"
// from "no engine is installed").
type NoEngineError struct {
	Skipped []Skip
}

func (e *NoEngineError) Error() string {
	if len(e.Skipped) == 0 {
		return "no search engine configured"
	}
	var b strings.Builder
	b.WriteString("no engine could run this query: ")
	for i, s := range e.Skipped {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s: %v", s.Backend, s.Reason)
	}
	return b.String()
}

// Unwrap returns ErrUnavailable and every skip reason.
func (e *NoEngineError) Unwrap() []error {
	errs := []error{ErrUnavailable}
	for _, s := range e.Skipped {
		errs = append(errs, s.Reason)
	}
	return errs
}

func (c *Chain) maxOutputBytes() int64 {
	switch {
	case c.MaxOutputBytes == 0:
		return DefaultMaxOutputBytes
	case c.MaxOutputBytes < 0:
		return 0
	}
	return c.MaxOutputBytes
}

// ByName returns the Chain's engine called name (as used by --backend).
func (c *Chain) ByName(name string) (Engine, error) {
	var names []string
	for _, b := range c.Engines {
		if b.Name() == name {
			return b, nil
		}
		names = append(names, b.Name())
	}
	return nil, fmt.Errorf("unknown backend %q (known: %v)", name, names)
}

// Order is the order in which Search tries the engines for q (a
// normalised Query): c.Policy's, then every engine c.Cost says is slower
// than the in-process one moved after it.
//
// A confined query (Query.Confine) goes to the in-process engines first,
// whatever the policy: an external process opens path strings and cannot be
// held beneath a directory handle, so rg refuses such a query and git grep
// and grep only pick candidate files whose lines are then re-read and
// re-matched beneath the root. The in-process engine gives the same answer
// from one pass over the bytes, without spawning anything.
func (c *Chain) Order(ctx context.Context, q Query) []Engine {
	return c.deferCostly(q, c.policyOrder(ctx, q))
}

// Deferred reports whether c.Cost puts engine after the in-process engine
// for q, with its estimated cost relative to it.
func (c *Chain) Deferred(engine Engine, q Query) (float64, bool) {
	if c.Cost == nil || isInProcess(engine) {
		return 0, false
	}
	cost := c.Cost(q)(engine.Name())
	return cost, cost > 1
}

// deferCostly moves the engines before the in-process one that c.Cost
// estimates slower than it to just after it, each group in its order.
func (c *Chain) deferCostly(q Query, engines []Engine) []Engine {
	at := slices.IndexFunc(engines, isInProcess)
	if c.Cost == nil || at <= 0 {
		return engines
	}
	costOf := c.Cost(q)
	var keep, later []Engine
	for _, b := range engines[:at] {
		if costOf(b.Name()) > 1 {
			later = append(later, b)
		} else {
			keep = append(keep, b)
		}
	}
	if len(later) == 0 {
		return engines
	}
	out := make([]Engine, 0, len(engines))
	out = append(append(append(out, keep...), engines[at]), later...)
	return append(out, engines[at+1:]...)
}

func isInProcess(b Engine) bool {
	ip, ok := b.(InProcess)
	return ok && ip.InProcess()
}

// policyOrder is the engine order for q under c.Policy.
func (c *Chain) policyOrder(ctx context.Context, q Query) []Engine {
	if q.Confine != nil {
		return inProcessFirst(c.Engines)
	}
	if c.Policy != PolicyFastest {
		return c.Engines
	}
	nativeAt := -1
	for i, b := range c.Engines {
		if isInProcess(b) {
			nativeAt = i
		}
	}
	if nativeAt <= 0 {
		return c.Engines
	}
	max := c.FastestMaxFiles
	if max <= 0 {
		max = DefaultFastestMaxFiles
	}
	count := c.CountFiles
	if count == nil {
		count = countFilesBounded
	}
	if count(ctx, q, max) > max {
		return c.Engines
	}
	out := make([]Engine, 0, len(c.Engines))
	out = append(out, c.Engines[nativeAt])
	out = append(out, c.Engines[:nativeAt]...)
	return append(out, c.Engines[nativeAt+1:]...)
}

// inProcessFirst returns engines with the in-process ones (see InProcess)
// moved to the front, each group in its own order.
func inProcessFirst(engines []Engine) []Engine {
	out := make([]Engine, 0, len(engines))
	for _, b := range engines {
		if isInProcess(b) {
			out = append(out, b)
		}
	}
	for _, b := range engines {
		if !isInProcess(b) {
			out = append(out, b)
		}
	}
	return out
}

// countFilesBounded counts regular files under q's paths, stopping as soon
// as it passes max, so that deciding costs at most max+1 directory entries.
// It skips .git and, unless q.Hidden, hidden entries; it does not read ignore
// files, so it over-counts an ignored tree, which errs towards the subprocess
// engines that are faster on big trees anyway.
func countFilesBounded(ctx context.Context, q Query, max int) int {
	roots := []string{q.Root}
	if len(q.Paths) > 0 {
		roots = roots[:0]
		for _, p := range q.Paths {
			roots = append(roots, filepath.Join(q.Root, filepath.FromSlash(p)))
		}
	}
	n := 0
	for _, root := range roots {
		_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || ctx.Err() != nil {
				return nil
			}
			name := d.Name()
			if path != root && (name == ".git" || (!q.Hidden && strings.HasPrefix(name, "."))) {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.Type().IsRegular() {
				n++
			}
			if n > max {
				return filepath.SkipAll
			}
			return nil
		})
		if n > max {
			break
		}
	}
	return n
}

// unreadableWarning says how many files could not be read, naming the
// first few and why, so a reader of the results knows what they miss.
func unreadableWarning(n int64, errs []FileError) string {
	noun := "files"
	if n == 1 {
		noun = "file"
	}
	msg := fmt.Sprintf("%d %s could not be read", n, noun)
	const named = 5
	for i, e := range errs {
		if i == named {
			msg += ", ..."
			break
		}
		sep := ", "
		if i == 0 {
			sep = ": "
		}
		msg += sep + describeFileError(e)
	}
	return msg
}

// describeFileError is one FileError in a few words: its path and the
// cause without the path repeated.
func describeFileError(e FileError) string {
	path := e.Path
	if path == "" {
		path = "."
	}
	cause := e.Err
	var pe *fs.PathError
	if errors.As(cause, &pe) {
		cause = pe.Err
	}
	return path + " (" + cause.Error() + ")"
}
