package backends

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rgkit/rgkit/backends/native"
)

// Native is the pure-Go engine: native.Walk selects the files as rg would,
// native.Matcher searches each one in memory. It needs no binary, so it is
// always available and ends every Chain.
type Native struct {
	// Workers bounds how many files are searched at once; 0 = GOMAXPROCS.
	Workers int
	// Reader reads files into pooled buffers; nil = a fresh native.Reader.
	Reader *native.Reader
}

var _ Backend = (*Native)(nil)

// NewNative returns the native engine with its defaults.
func NewNative() *Native { return &Native{} }

// Name is "native".
func (n *Native) Name() string { return "native" }

// Available always succeeds: the engine is part of the program.
func (n *Native) Available(ctx context.Context) (Info, error) {
	return Info{Name: "native"}, nil
}

// Search runs a normalised Query. Files are searched in parallel; each
// file's lines are pushed to sink together, under a lock, so the sink sees
// Begin, Lines, End per file without interleaving. When ctx ends, what was
// found so far has been pushed and ctx's error is returned.
func (n *Native) Search(ctx context.Context, q Query, sink Sink) (Stats, error) {
	start := time.Now()
	typeGlobs, err := TypeGlobs(q.Types)
	if err != nil {
		return Stats{}, err
	}
	m, err := native.Compile(matchOptions(q))
	if err != nil {
		var pe *native.PatternError
		if errors.As(err, &pe) {
			return Stats{}, &InvalidPatternError{Pattern: q.Pattern, Offset: -1, Reason: pe.Reason}
		}
		return Stats{}, err
	}
	reader := n.Reader
	if reader == nil {
		reader = &native.Reader{}
	}
	src, err := reader.Open(q.Root)
	if err != nil {
		return Stats{}, err
	}
	defer src.Close()
	run := newNativeRun(ctx, q, m, sink, src)
	ws, err := native.Walk(ctx, walkOptions(q, typeGlobs, n.Workers), run.file)
	st := run.stats()
	st.Unreadable += ws.Unreadable
	st.TooLarge = ws.TooLarge
	st.Elapsed = time.Since(start)
	if err == nil && run.sinkErr != errStopped {
		err = run.sinkErr
	}
	if err == nil {
		err = ctx.Err()
	}
	return st, err
}

// nativeRun is one Search: shared, read-only inputs plus counters.
type nativeRun struct {
	ctx      context.Context
	q        Query
	m        *native.Matcher
	opts     native.SearchOptions
	src      *native.Source
	explicit []string

	sinkMu  sync.Mutex
	sink    Sink
	sinkErr error // a sink error other than ErrStop, returned by Search

	searched, matched, lines, bytes, binary, unreadable atomic.Int64
}

func (r *nativeRun) stats() Stats {
	return Stats{
		FilesSearched: r.searched.Load(),
		FilesMatched:  r.matched.Load(),
		MatchedLines:  r.lines.Load(),
		BytesSearched: r.bytes.Load(),
		Binary:        r.binary.Load(),
		Unreadable:    r.unreadable.Load(),
	}
}

// file searches one file; it runs concurrently on the walk's workers.
func (r *nativeRun) file(f native.File) error {
	if err := r.ctx.Err(); err != nil {
		return err
	}
	explicit := slices.Contains(r.explicit, f.Path)
	buf, err := r.src.Read(f, r.q.FollowSymlinks || explicit || r.underExplicit(f.Path))
	if err != nil {
		r.unreadable.Add(1)
		return nil
	}
	defer buf.Release()
	var fl fileLines
	opts := r.opts
	opts.BinaryConvert = explicit // rg searches past NULs in a file it was given by name
	res, err := r.m.Search(buf.Data, opts, fl.add)
	if err != nil {
		return err
	}
	r.searched.Add(1)
	r.bytes.Add(res.Bytes)
	if res.Binary {
		r.binary.Add(1)
	}
	if res.MatchedLines == 0 && len(fl.recs) == 0 {
		return nil
	}
	r.matched.Add(1)
	r.lines.Add(int64(res.MatchedLines))
	return r.push(f.Path, fl.lines(f.Path), res.MatchedLines)
}

// underExplicit reports a file found below a directory named in
// Query.Paths: rg follows such a path even when it is a symbolic link
// (possibly to outside the root), so the file is opened by its path.
func (r *nativeRun) underExplicit(path string) bool {
	for _, p := range r.explicit {
		if p != "." && len(path) > len(p) && path[len(p)] == '/' && path[:len(p)] == p {
			return true
		}
	}
	return false
}

// push sends one file's results to the sink; an ErrStop from the sink
// stops the walk without an error.
func (r *nativeRun) push(path string, lines []Line, count int) error {
	r.sinkMu.Lock()
	defer r.sinkMu.Unlock()
	if r.sinkErr != nil {
		return native.ErrStopWalk
	}
	err := r.sink.Begin(path)
	for i := 0; err == nil && i < len(lines); i++ {
		err = r.sink.Line(lines[i])
	}
	if err == nil {
		err = r.sink.End(FileSummary{Path: path, MatchedLines: count})
	}
	if errors.Is(err, ErrStop) {
		r.sinkErr = errStopped
		return native.ErrStopWalk
	}
	if err != nil {
		r.sinkErr = err
		return native.ErrStopWalk
	}
	return nil
}

// errStopped marks a sink's ErrStop internally; Search reports it as nil.
var errStopped = errors.New("stopped by sink")

// fileLines collects one file's lines. native.Line's buffers are reused,
// so texts and spans are copied, into two arenas: a file costs a few
// allocations, not two per line.
type fileLines struct {
	text  []byte
	spans []Span
	recs  []lineRec
}

type lineRec struct {
	number       int
	text0, text1 int
	span0, span1 int
	context      bool
}

func (fl *fileLines) add(l native.Line) error {
	rec := lineRec{number: l.Number, text0: len(fl.text), span0: len(fl.spans), context: l.Context}
	fl.text = append(fl.text, l.Text...)
	if !l.Context {
		for _, sm := range l.Submatches {
			fl.spans = append(fl.spans, Span{Start: sm[0], End: sm[1]})
		}
	}
	rec.text1, rec.span1 = len(fl.text), len(fl.spans)
	fl.recs = append(fl.recs, rec)
	return nil
}

// lines returns the collected lines as backends.Lines of path.
func (fl *fileLines) lines(path string) []Line {
	out := make([]Line, len(fl.recs))
	for i, rec := range fl.recs {
		l := Line{Path: path, Number: rec.number, Text: fl.text[rec.text0:rec.text1:rec.text1], Kind: KindMatch}
		if rec.context {
			l.Kind = KindContext
		} else if rec.span1 > rec.span0 {
			l.Submatches = fl.spans[rec.span0:rec.span1:rec.span1]
			l.Column = l.Submatches[0].Start + 1
		}
		out[i] = l
	}
	return out
}

// convertLine copies one native line (its buffers are reused) into a Line.
func convertLine(path string, l native.Line) Line {
	var fl fileLines
	fl.add(l)
	return fl.lines(path)[0]
}

// matchOptions is the native matcher's view of q. Every engine that
// searches or re-checks files with the native matcher compiles it from here.
func matchOptions(q Query) native.MatchOptions {
	return native.MatchOptions{
		Pattern:         q.Pattern,
		Fixed:           q.Fixed,
		Word:            q.Word,
		CaseInsensitive: q.Case == CaseInsensitive,
		Multiline:       q.Multiline,
	}
}

// newNativeRun prepares a search of q's files with m: the native engine's
// per-file work, which git grep's candidates get too.
func newNativeRun(ctx context.Context, q Query, m *native.Matcher, sink Sink, src *native.Source) *nativeRun {
	run := &nativeRun{ctx: ctx, q: q, m: m, sink: sink, src: src}
	for _, p := range q.Paths {
		run.explicit = append(run.explicit, filepath.ToSlash(p))
	}
	switch q.Mode {
	case ModeFilesWithMatches:
		run.opts.FilesOnly = true
	case ModeCount:
		run.opts.CountOnly = true
		run.opts.MaxCount = q.MaxCountPerFile
	default:
		run.opts = native.SearchOptions{Before: q.Before, After: q.After, MaxCount: q.MaxCountPerFile}
	}
	return run
}

// walkOptions selects q's files the way rg would: every engine that walks
// with the native walker (native, grep, git grep) takes its options from here.
func walkOptions(q Query, typeGlobs []string, workers int) native.WalkOptions {
	return native.WalkOptions{
		Root:           q.Root,
		Paths:          q.Paths,
		Hidden:         q.Hidden,
		NoIgnore:       q.NoIgnore,
		FollowSymlinks: q.FollowSymlinks,
		MaxFileSize:    q.MaxFileSize,
		Globs:          q.Globs,
		TypeGlobs:      typeGlobs,
		Workers:        workers,
	}
}
