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
	m, err := native.Compile(native.MatchOptions{
		Pattern:         q.Pattern,
		Fixed:           q.Fixed,
		Word:            q.Word,
		CaseInsensitive: q.Case == CaseInsensitive,
		Multiline:       q.Multiline,
	})
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
	ws, err := native.Walk(ctx, native.WalkOptions{
		Root:           q.Root,
		Paths:          q.Paths,
		Hidden:         q.Hidden,
		NoIgnore:       q.NoIgnore,
		FollowSymlinks: q.FollowSymlinks,
		MaxFileSize:    q.MaxFileSize,
		Globs:          q.Globs,
		TypeGlobs:      typeGlobs,
		Workers:        n.Workers,
	}, run.file)
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
	buf, err := r.src.Read(f, r.q.FollowSymlinks || explicit)
	if err != nil {
		r.unreadable.Add(1)
		return nil
	}
	defer buf.Release()
	var lines []Line
	opts := r.opts
	opts.BinaryConvert = explicit // rg searches past NULs in a file it was given by name
	res, err := r.m.Search(buf.Data, opts, func(l native.Line) error {
		lines = append(lines, convertLine(f.Path, l))
		return nil
	})
	if err != nil {
		return err
	}
	r.searched.Add(1)
	r.bytes.Add(res.Bytes)
	if res.Binary {
		r.binary.Add(1)
	}
	if res.MatchedLines == 0 && len(lines) == 0 {
		return nil
	}
	r.matched.Add(1)
	r.lines.Add(int64(res.MatchedLines))
	return r.push(f.Path, lines, res.MatchedLines)
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

// convertLine copies a native line (its buffers are reused) into a Line.
func convertLine(path string, l native.Line) Line {
	out := Line{Path: path, Number: l.Number, Text: slices.Clone(l.Text), Kind: KindMatch}
	if l.Context {
		out.Kind = KindContext
		return out
	}
	if len(l.Submatches) > 0 {
		out.Submatches = make([]Span, len(l.Submatches))
		for i, s := range l.Submatches {
			out.Submatches[i] = Span{Start: s[0], End: s[1]}
		}
		out.Column = l.Submatches[0][0] + 1
	}
	return out
}
