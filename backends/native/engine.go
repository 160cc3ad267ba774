package native

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rgkit/rgkit/search"
)

// Engine is the pure-Go engine: Walk selects the files as rg would,
// Matcher searches each one in memory. It needs no binary, so it is
// always available and ends every Chain.
type Engine struct {
	// Workers bounds how many files are searched at once; 0 = GOMAXPROCS.
	Workers int
	// Reader reads files into pooled buffers; nil = a fresh Reader.
	Reader *Reader
	// NoStats says the caller reads neither Stats.BytesSearched nor
	// Stats.Binary (rg prints them only with --stats or --json), so a
	// file the prefilter shows to hold no match is not scanned for a NUL
	// byte (see SearchOptions.NoStats); those two counts are then
	// approximate.
	NoStats bool
	// NoSpans says the caller does not read Line.Submatches, Column or
	// MoreSubmatches of a match line (see SearchOptions.NoSpans); they are
	// then left empty.
	NoSpans bool
	// Preprocessor, when set, is rg --pre: the command whose output is
	// searched instead of each file it applies to. nil (the default) runs
	// nothing: the library never starts a program on its own.
	Preprocessor *Preprocessor
	// OnFileError, when set, is told of a file that could not be searched
	// as the query asks (a corrupt compressed file, a preprocessor that
	// failed): rg reports such a file and exits 2. nil counts it in
	// Stats.Unreadable. It is called from the search's workers, one at a
	// time per file but concurrently across files.
	OnFileError func(path string, err error)
	// BeforeRead, when set, is told each file's absolute path just before
	// the search reads it: rg --sort accessed orders files by their access
	// times from before the search, which reading them changes. It is
	// called from the search's workers, concurrently across files.
	BeforeRead func(abs string)
	// Searched, when set, is told of each file searched to its end (or to
	// where rg stops: a NUL, a -m limit) with what was found in it, also
	// when nothing matched: rg --files-without-match lists the files
	// searched without a match, and a sink hears only of files with one.
	// A file that could not be read is reported as an error instead. It
	// is called from the search's workers, concurrently across files.
	Searched func(path string, res FileResult)
	// CountLines has each file's lines counted for Searched where the
	// file is searched as its own bytes (see SearchOptions.CountLines).
	CountLines bool
	// Invert and Passthru are rg -v and --passthru in line mode (see
	// SearchOptions.Invert and Passthru): every file is searched to its
	// end, or to where rg stops, and its lines emitted as they select.
	Invert, Passthru bool
	// InvertFinds is SearchOptions.InvertFinds, for rg -v -U.
	InvertFinds bool
	// FileSink, when set, gives each file with something to report a
	// Sink of its own, told Begin, the file's lines and End on the
	// worker searching the file, with no lock held: the caller prints
	// files in parallel, and orders their output itself. A FileSink's
	// error stops the search as the Search sink's would. FileErrors
	// still go to the Search sink.
	FileSink func(path string) search.Sink
	// InOrder, when set, has the walk go through each directory in name
	// order and is told how far the search has come: every file whose
	// path sorts before upTo (search.ComparePaths) has been searched, and
	// its sink (or FileSink) told End. rg --sort path prints that output
	// as the search goes, where it held all of it until the end. It is
	// called from the search's workers, concurrently, and an upTo may come
	// after a later one.
	InOrder func(upTo string)
}

// SkipSpans sets NoSpans (search.SpansOptional).
func (n *Engine) SkipSpans() { n.NoSpans = true }

// SkipByteStats sets NoStats (search.ByteStatsOptional).
func (n *Engine) SkipByteStats() { n.NoStats = true }

var (
	_ search.Engine    = (*Engine)(nil)
	_ search.InProcess = (*Engine)(nil)
)

// New returns the native engine with its defaults.
func New() *Engine { return &Engine{} }

// Name is "native".
func (n *Engine) Name() string { return "native" }

// InProcess is true: the engine spawns nothing (see search.InProcess).
func (n *Engine) InProcess() bool { return true }

// Available always succeeds: the engine is part of the program.
func (n *Engine) Available(ctx context.Context) (search.Info, error) {
	return search.Info{Name: "native"}, nil
}

// Search runs a normalised Query. Files are searched in parallel; each
// file's lines are pushed to sink together, under a lock, so the sink sees
// Begin, Lines, End per file without interleaving. When ctx ends, what was
// found so far has been pushed and ctx's error is returned.
func (n *Engine) Search(ctx context.Context, q search.Query, sink search.Sink) (search.Stats, error) {
	start := time.Now()
	typeGlobs, err := search.TypeGlobs(q.Types)
	if err != nil {
		return search.Stats{}, err
	}
	m, err := Compile(MatchOptionsFor(q))
	if err != nil {
		var pe *PatternError
		if errors.As(err, &pe) {
			return search.Stats{}, &search.InvalidPatternError{Pattern: q.Pattern, Offset: -1, Reason: pe.Reason}
		}
		return search.Stats{}, err
	}
	reader := n.Reader
	if reader == nil {
		reader = &Reader{}
	}
	src, err := reader.OpenFor(q)
	if err != nil {
		return search.Stats{}, err
	}
	defer src.Close()
	src.mapLarge = true // File recovers from a mapped file truncated under it
	run := NewFileSearcher(ctx, q, m, sink, src)
	run.opts.NoStats = n.NoStats
	run.opts.NoSpans = n.NoSpans
	run.opts.CountLines = n.CountLines
	run.opts.Invert, run.opts.Passthru = n.Invert, n.Passthru
	run.opts.InvertFinds = n.InvertFinds
	run.fileSink = n.FileSink
	if run.reading, err = newReading(q, n.Preprocessor); err != nil {
		return search.Stats{}, err
	}
	run.onFileError = n.OnFileError
	run.beforeRead = n.BeforeRead
	run.searchedFile = n.Searched
	wo := WalkOptionsFor(q, typeGlobs, n.Workers)
	// The reader sizes a file by reading it (see Source.mapLarge): a stat
	// per file would be a system call for nothing.
	wo.NoStat = true
	// run.File reads each file before it returns, so the file can be opened
	// from its listed directory. A confined query keeps openat2 beneath the
	// root for every file.
	wo.openAt = q.Confine == nil
	wo.inOrder = n.InOrder
	wo.OnError = func(e search.FileError) { _ = run.report(e) } // the walk counts it; a stopped sink ends the walk at its next file
	ws, err := Walk(ctx, wo, run.File)
	st := run.Stats()
	st.Unreadable += ws.Unreadable
	st.TooLarge = ws.TooLarge
	st.Elapsed = time.Since(start)
	if err == nil {
		err = run.SinkErr()
	}
	if err == nil && !run.Stopped() {
		// A sink that stopped the search ended it; a deadline that passed
		// afterwards cut nothing.
		err = ctx.Err()
	}
	if err == nil && len(run.fileErrs) > 0 {
		err = &FileErrors{Errs: run.fileErrs}
	}
	return st, err
}

// FileSearcher is the native engine's per-file work for one Search: it
// reads a file, searches it with the Matcher and pushes its lines to the
// sink under a lock, counting as it goes. The git grep and system grep
// engines hand it the files their tool cannot answer exactly, so every
// engine's answer for such a file is the native one. It is safe for
// concurrent use by the walk's workers.
type FileSearcher struct {
	ctx      context.Context
	q        search.Query
	m        *Matcher
	opts     SearchOptions
	src      *Source
	explicit []string
	// mapped: every path of the query is a file and there are at most
	// maxMappedPaths of them, the case where rg maps files into memory
	// instead of reading them, which changes how it numbers lines past a
	// NUL (see SearchOptions.KeepNUL).
	mapped bool
	// recount: the page capped how many matches a file reports (see
	// search.FileMatchCap); a file that reaches the cap is counted again.
	recount bool

	outs sync.Pool // *FileOut whose batch buffers the next file reuses

	// reading, when set, turns some files into other bytes to search
	// (rg -z, -E, --pre); onFileError is Engine.OnFileError.
	reading     *reading
	onFileError func(path string, err error)
	beforeRead  func(abs string) // Engine.BeforeRead
	// searchedFile is Engine.Searched.
	searchedFile func(path string, res FileResult)

	sinkMu  sync.Mutex
	sink    search.Sink
	sinkErr error // a sink error other than ErrStop, returned by Search
	// failed is set with sinkErr, for the files printed without the lock
	// (fileSink) to see without taking it.
	failed   atomic.Bool
	fileSink func(path string) search.Sink // Engine.FileSink
	// fileErrs are per-file failures (see FileErrors), under sinkMu.
	fileErrs []error

	searched, matched, lines, bytes, binary, unreadable atomic.Int64
}

// Stats is what the searcher counted so far.
func (r *FileSearcher) Stats() search.Stats {
	return search.Stats{
		FilesSearched: r.searched.Load(),
		FilesMatched:  r.matched.Load(),
		MatchedLines:  r.lines.Load(),
		BytesSearched: r.bytes.Load(),
		Binary:        r.binary.Load(),
		Unreadable:    r.unreadable.Load(),
	}
}

// File searches one file; it runs concurrently on the walk's workers. It
// returns ErrStopWalk once the sink has stopped or failed (see SinkErr), and
// ctx's error when ctx ends, also in the middle of a large file.
func (r *FileSearcher) File(f File) (err error) {
	if err := r.ctx.Err(); err != nil {
		return err
	}
	explicit := slices.Contains(r.explicit, f.Path)
	var pre *prefilter
	if r.opts.NoStats && !explicit && !r.m.multi && !r.opts.everyLine() && r.q.Binary == search.BinaryQuit {
		// The search would skip a file without a candidate unread past
		// the prefilter (see SearchOptions.NoStats); a large one need
		// not be mapped to know. (The probe looks no further than the
		// first NUL, where rg stops by default: with --binary or -a rg
		// searches on, and a large binary file was missed whole.)
		pre = r.m.pre
	}
	follow := r.q.FollowSymlinks || explicit || r.underExplicit(f.Path)
	if r.beforeRead != nil {
		r.beforeRead(f.Abs)
	}
	if r.reading != nil && r.reading.transforms(f.Path) {
		return r.searchTransformed(f, follow)
	}
	buf, err := r.src.read(f, follow, pre)
	if err != nil {
		return r.Unreadable(search.FileError{Path: f.Path, Err: err})
	}
	defer buf.Release()
	if buf.Absent {
		return r.searchData(f, nil, nil, -2)
	}
	if buf.mapped {
		// A mapped file cut short by another process faults where its
		// pages went missing: that file is unreadable, the search goes on.
		defer catchFault(debug.SetPanicOnFault(true), func() {
			err = r.Unreadable(search.FileError{Path: f.Path, Err: &os.PathError{Op: "read", Path: f.Abs, Err: errTruncated}})
		})
	}
	return r.searchData(f, buf.Data, buf.releaser(), buf.nul)
}

// Unreadable counts a file that could not be read and reports it (see
// report): the search goes on without it.
func (r *FileSearcher) Unreadable(e search.FileError) error {
	r.unreadable.Add(1)
	return r.report(e)
}

// report passes e to the sink (see search.FileErrorSink), serialised with
// the sink's other calls. It returns ErrStopWalk once the sink has stopped
// or failed, nil otherwise.
func (r *FileSearcher) report(e search.FileError) error {
	r.sinkMu.Lock()
	defer r.sinkMu.Unlock()
	if r.sinkErr != nil {
		return ErrStopWalk
	}
	if err := search.ReportFileError(r.sink, e); err != nil {
		if errors.Is(err, search.ErrStop) {
			err = errStopped
		}
		r.sinkErr = err
		r.failed.Store(true)
		return ErrStopWalk
	}
	return nil
}

// SearchData searches data, the contents of f, as File does, and streams
// its lines to the sink (see FileOut).
func (r *FileSearcher) SearchData(f File, data []byte) error {
	return r.searchData(f, data, nil, -2)
}

// searchData is SearchData with SearchOptions.Release.
// nul is where the reader found data's first NUL byte (see Buffer.nul).
func (r *FileSearcher) searchData(f File, data []byte, release func(int), nul int) error {
	out := r.reuseOut(f.Path)
	defer r.recycleOut(out)
	count, err := r.searchInto(out, f, data, 0, release, nul)
	var ml *MatchLimitError
	if errors.As(err, &ml) {
		// rg reports the file and goes on with the others.
		r.sinkMu.Lock()
		r.fileErrs = append(r.fileErrs, ml)
		r.sinkMu.Unlock()
		err = nil
	}
	if err != nil {
		return err
	}
	return out.Close(count)
}

// FileErrors are the files whose search failed without ending the whole
// search (a -P match past its limits), in the order they failed.
type FileErrors struct{ Errs []error }

func (e *FileErrors) Error() string { return errors.Join(e.Errs...).Error() }

func (e *FileErrors) Unwrap() []error { return e.Errs }

// SearchInto searches data, the contents of f, and passes its lines to out,
// leaving out open; count is the file's matched lines (what out.Close
// wants). Lines numbered up to skipThrough are not passed on: an engine
// that passed them on from its tool's output, then found it cannot trust
// the rest, finishes the file this way.
func (r *FileSearcher) SearchInto(out *FileOut, f File, data []byte, skipThrough int) (count int, err error) {
	return r.searchInto(out, f, data, skipThrough, nil, -2)
}

func (r *FileSearcher) searchInto(out *FileOut, f File, data []byte, skipThrough int, release func(int), nul int) (count int, err error) {
	opts := r.opts
	opts.Release = release
	if nul >= -1 {
		opts.probed, opts.probedNUL = true, nul
	}
	r.binaryOptions(&opts, f.Path, r.mapped)
	opts.Interrupt = r.ctx.Err
	if skipThrough == 0 && out.takesRuns() {
		opts.Runs = out.AddRun
	}
	res, err := r.m.Search(data, opts, func(l Line) error {
		if l.Number <= skipThrough {
			return nil
		}
		return out.Add(l)
	})
	var ml *MatchLimitError
	if errors.As(err, &ml) && ml.Path == "" {
		ml.Path = f.Path
	}
	r.searched.Add(1)
	r.bytes.Add(res.Bytes)
	out.nulAt, out.counted = -1, 0
	if res.Bytes < int64(len(data)) {
		out.counted = res.Bytes
	}
	if res.Binary {
		r.binary.Add(1)
		out.nulAt = res.NULOffset
	}
	if res.Bytes < int64(len(data)) && !opts.BinaryConvert && !opts.Text && !opts.Mapped && !r.m.multi {
		// Read up to where rg stopped (a NUL, -v's -m) or decoded: what
		// rg counts as searched in the file (its JSON "end" says so).
		out.bytes = res.Bytes
	}
	if err == nil && r.recount && res.MatchedLines >= opts.MaxCount {
		// Matches past the page were not reported; count them, which is
		// cheap, so the total stays exact.
		co := SearchOptions{CountOnly: true, MaxCount: r.q.MaxCountPerFile, BinaryConvert: opts.BinaryConvert, KeepNUL: opts.KeepNUL, Text: opts.Text, Interrupt: opts.Interrupt}
		var all FileResult
		if all, err = r.m.Search(data, co, nil); err == nil {
			res.MatchedLines = max(res.MatchedLines, all.MatchedLines)
		}
	}
	if r.searchedFile != nil && err == nil {
		r.searchedFile(f.Path, res)
	}
	if res.MatchedLines > 0 {
		r.matched.Add(1)
		r.lines.Add(int64(res.MatchedLines))
	}
	return res.MatchedLines, err
}

// binaryOptions sets how o searches past NUL bytes in the file at path:
// rg searches past them in a file it was given by name and in every file
// with --binary (reading each NUL as a line break, unless it mapped the
// file), reads them as plain bytes with -a, and otherwise stops at one
// where it sees it (see SearchOptions.Mapped).
func (r *FileSearcher) binaryOptions(o *SearchOptions, path string, mapped bool) {
	explicit := slices.Contains(r.explicit, path)
	switch {
	case r.q.Binary == search.BinaryText:
		o.Text = true
	case explicit, r.q.Binary == search.BinarySearch:
		o.BinaryConvert, o.KeepNUL = true, mapped
	default:
		o.Mapped = mapped
	}
}

// searchTransformed searches f as its reading says (decompressed,
// preprocessed, transcoded), streamed through SearchReader. A failure to
// read it goes to onFileError (else counts as unreadable); the search
// goes on.
func (r *FileSearcher) searchTransformed(f File, follow bool) error {
	rc, err := r.reading.open(r.ctx, r.src, f, follow)
	if err != nil {
		r.fileError(f.Path, err)
		return nil
	}
	out := r.reuseOut(f.Path)
	defer r.recycleOut(out)
	opts := r.opts
	r.binaryOptions(&opts, f.Path, false) // a stream is read, never mapped
	opts.Interrupt = r.ctx.Err
	sinkDone := false
	res, err := r.m.SearchReader(rc, opts, func(l Line) error {
		if r.reading.nullData {
			l = UnpermuteLine(l)
		}
		if err := out.Add(l); err != nil {
			sinkDone = true
			return err
		}
		return nil
	})
	if err == nil && !sinkDone && (opts.FilesOnly || opts.MaxCount > 0) {
		// rg stopped reading early and closed the decompressor's pipe; a
		// corrupt file had failed by then (the tool reads ahead), so look
		// a little further for the failure.
		_, err = io.CopyN(io.Discard, rc, drainAhead)
		if errors.Is(err, io.EOF) {
			err = nil
		}
	}
	cerr := rc.Close()
	out.nulAt = -1
	if res.Binary {
		r.binary.Add(1)
		out.nulAt = res.NULOffset
	}
	switch {
	case sinkDone:
		return err
	case err != nil && r.ctx.Err() != nil && errors.Is(err, r.ctx.Err()):
		return err
	}
	if err == nil {
		// A failing preprocessor reports its status when it is waited for.
		err = cerr
	}
	if err == nil {
		// (rg's statistics leave out a file whose reading failed.)
		r.searched.Add(1)
		r.bytes.Add(res.Bytes)
		if res.MatchedLines > 0 {
			r.matched.Add(1)
			r.lines.Add(int64(res.MatchedLines))
		}
		if r.searchedFile != nil {
			r.searchedFile(f.Path, res)
		}
	}
	if err != nil {
		r.fileError(f.Path, err)
		if opts.CountOnly {
			// rg prints no count for a file whose reading failed (a path
			// for -l, found before the failure, it prints).
			return nil
		}
	}
	// The lines found before a failure are reported, as rg prints them.
	out.bytes = res.Bytes
	return out.Close(res.MatchedLines)
}

// drainAhead is how much more of a file searchTransformed reads after
// the search stopped early, to find the failure rg would report.
const drainAhead = 256 << 10

// fileError reports a file that could not be searched as asked.
func (r *FileSearcher) fileError(path string, err error) {
	r.unreadable.Add(1)
	if r.onFileError != nil {
		r.onFileError(path, err)
	}
}

// underExplicit reports a file found below a directory named in
// Query.Paths: rg follows such a path even when it is a symbolic link
// (possibly to outside the root), so the file is opened by its path.
func (r *FileSearcher) underExplicit(path string) bool {
	for _, p := range r.explicit {
		if p != "." && len(path) > len(p) && path[len(p)] == '/' && path[:len(p)] == p {
			return true
		}
	}
	return false
}

// errStopped marks a sink's ErrStop internally; Search reports it as nil.
var errStopped = errors.New("stopped by sink")

// SinkErr is the sink's error that stopped the search, other than
// search.ErrStop (a sink asking to stop is not a failure): nil otherwise.
func (r *FileSearcher) SinkErr() error {
	r.sinkMu.Lock()
	defer r.sinkMu.Unlock()
	if r.sinkErr == errStopped {
		return nil
	}
	return r.sinkErr
}

// Stopped reports whether the sink asked to stop or failed: the search
// is over (SinkErr tells which).
func (r *FileSearcher) Stopped() bool {
	r.sinkMu.Lock()
	defer r.sinkMu.Unlock()
	return r.sinkErr != nil
}

// IsExplicit reports whether path was named in Query.Paths.
func (r *FileSearcher) IsExplicit(path string) bool {
	return slices.Contains(r.explicit, path)
}

// fileLines collects lines of one file. Line's buffers are reused, so
// texts and spans are copied, into two arenas: a batch costs a few
// allocations, not two per line.
type fileLines struct {
	text  []byte
	spans []search.Span
	recs  []lineRec
}

type lineRec struct {
	number       int
	text0, text1 int
	span0, span1 int
	context      bool
	cut, more    int // search.Line's Cut and MoreSubmatches
	column       int // search.Line's Column (a cut line keeps its first match's)
	located      bool
	offset       int64
	term         string
	continued    bool // search.Line.Continued
}

func (fl *fileLines) add(l Line) {
	rec := lineRec{number: l.Number, text0: len(fl.text), span0: len(fl.spans), context: l.Context, more: l.More,
		located: l.Located, offset: int64(l.Offset), term: l.Term, continued: l.Continued}
	if len(l.Submatches) > 0 { // (a context line has some only as -v's)
		rec.column = l.Submatches[0][0] + 1
	}
	fl.text = append(fl.text, l.Text...)
	for _, sm := range l.Submatches {
		fl.spans = append(fl.spans, search.Span{Start: sm[0], End: sm[1]})
	}
	rec.text1, rec.span1 = len(fl.text), len(fl.spans)
	fl.recs = append(fl.recs, rec)
}

func (fl *fileLines) addLine(l search.Line) {
	rec := lineRec{number: l.Number, text0: len(fl.text), span0: len(fl.spans), context: l.Kind == search.KindContext, cut: l.Cut, more: l.MoreSubmatches, column: l.Column,
		located: l.Located, offset: l.Offset, term: l.Term, continued: l.Continued}
	fl.text = append(fl.text, l.Text...)
	fl.spans = append(fl.spans, l.Submatches...)
	rec.text1, rec.span1 = len(fl.text), len(fl.spans)
	fl.recs = append(fl.recs, rec)
}

// line returns the i-th collected line as a search.Line of path.
func (fl *fileLines) line(path string, i int) search.Line {
	rec := &fl.recs[i]
	l := search.Line{Path: path, Number: rec.number, Text: fl.text[rec.text0:rec.text1:rec.text1], Kind: search.KindMatch, Cut: rec.cut, MoreSubmatches: rec.more, Column: rec.column,
		Located: rec.located, Offset: rec.offset, Term: rec.term, Continued: rec.continued}
	if rec.context {
		l.Kind = search.KindContext
	}
	if rec.span1 > rec.span0 {
		l.Submatches = fl.spans[rec.span0:rec.span1:rec.span1]
	}
	return l
}

// SearchLine copies a native line (its buffers are reused) into a
// search.Line of path.
func SearchLine(path string, l Line) search.Line {
	l.Text = slices.Clone(l.Text)
	return ViewLine(path, l)
}

// ViewLine is SearchLine without copying the text: the search.Line's Text
// is l.Text, which points into the data searched (the spans are copied).
func ViewLine(path string, l Line) search.Line {
	out := search.Line{Path: path, Number: l.Number, Text: l.Text, Kind: search.KindMatch, MoreSubmatches: l.More,
		Located: l.Located, Offset: int64(l.Offset), Term: l.Term, Continued: l.Continued}
	if l.Context {
		out.Kind = search.KindContext
		return out
	}
	for _, s := range l.Submatches {
		out.Submatches = append(out.Submatches, search.Span{Start: s[0], End: s[1]})
	}
	if len(out.Submatches) > 0 {
		out.Column = out.Submatches[0].Start + 1
	}
	return out
}

// MatchOptionsFor is the native matcher's view of q. Every engine that
// searches or re-checks files with the native matcher compiles it from here.
func MatchOptionsFor(q search.Query) MatchOptions {
	return MatchOptions{
		Pattern:         q.Pattern,
		Fixed:           q.Fixed,
		Word:            q.Word,
		CaseInsensitive: q.Case == search.CaseInsensitive,
		Multiline:       q.Multiline,
		PCRE2:           q.PCRE2,
		CRLF:            q.CRLF,
		NoUnicode:       q.NoUnicode,
		AllowNUL:        q.Binary == search.BinaryText && !q.NullData,
		NullData:        q.NullData,
	}
}

// NewFileSearcher prepares a search of q's files with m, read from src,
// whose results go to sink.
func NewFileSearcher(ctx context.Context, q search.Query, m *Matcher, sink search.Sink, src *Source) *FileSearcher {
	run := &FileSearcher{ctx: ctx, q: q, m: m, sink: sink, src: src}
	for _, p := range q.Paths {
		run.explicit = append(run.explicit, filepath.ToSlash(p))
	}
	run.opts = SearchOptionsFor(q)
	run.mapped = MapsFiles(q)
	if q.Mode == search.ModeContent {
		_, run.recount = search.FileMatchCap(q)
	}
	return run
}

// SearchOptionsFor is how a file is searched for q's output mode: every
// engine that searches with the native matcher takes its options from here.
func SearchOptionsFor(q search.Query) SearchOptions {
	switch q.Mode {
	case search.ModeFilesWithMatches:
		return SearchOptions{FilesOnly: true}
	case search.ModeCount:
		// After too: rg 15 -c -m N -A K counts the matches inside the N-th
		// match's trailing context.
		return SearchOptions{CountOnly: true, MaxCount: q.MaxCountPerFile, After: q.After}
	}
	max, _ := search.FileMatchCap(q)
	return SearchOptions{Before: q.Before, After: q.After, MaxCount: max, MaxColumns: q.MaxColumns}
}

// maxMappedPaths is the most paths rg 15 maps into memory: with up to this
// many paths on its command line, all of them files, it uses mmap; with
// more, or with a directory among them, it reads.
const maxMappedPaths = 10

// MapsFiles reports whether rg maps q's files into memory: always with
// --mmap, never with --no-mmap, else when AllFiles says so.
func MapsFiles(q search.Query) bool {
	switch q.Mmap {
	case search.MmapAlways:
		return true
	case search.MmapNever:
		return false
	}
	return AllFiles(q)
}

// AllFiles reports whether q names between 1 and 10 paths and every one is
// a file: then rg maps them into memory, and a NUL in them is searched as a
// plain byte (lines keep their numbers), where a read file has each NUL
// turned into a line break.
func AllFiles(q search.Query) bool {
	if len(q.Paths) == 0 || len(q.Paths) > maxMappedPaths {
		return false
	}
	for _, p := range q.Paths {
		fi, err := os.Stat(filepath.Join(q.Root, filepath.FromSlash(p)))
		if err != nil || fi.IsDir() {
			return false
		}
	}
	return true
}

// WalkOptionsFor selects q's files the way rg would: every engine that walks
// with the native walker (native, grep, git grep) takes its options from here.
func WalkOptionsFor(q search.Query, typeGlobs []string, workers int) WalkOptions {
	return WalkOptions{
		Root:           q.Root,
		Paths:          q.Paths,
		Hidden:         q.Hidden,
		NoIgnore:       q.NoIgnore,
		FollowSymlinks: q.FollowSymlinks,
		MaxFileSize:    q.MaxFileSize,
		Globs:          q.Globs,
		TypeGlobs:      typeGlobs,
		Workers:        workers,
		Confine:        q.Confine,

		NoIgnoreDot:           q.NoIgnoreDot,
		NoIgnoreVCS:           q.NoIgnoreVCS,
		NoIgnoreExclude:       q.NoIgnoreExclude,
		NoIgnoreGlobal:        q.NoIgnoreGlobal,
		NoIgnoreParent:        q.NoIgnoreParent,
		NoRequireGit:          q.NoRequireGit,
		IgnoreCaseInsensitive: q.IgnoreCaseInsensitive,
		IgnoreFiles:           q.IgnoreFiles,
		IGlobs:                q.IGlobs,
		GlobCaseInsensitive:   q.GlobCaseInsensitive,
		TypeSelections:        q.TypeSelections,
		MaxDepth:              q.MaxDepth,
		MaxDepthSet:           q.MaxDepthSet,
		OneFileSystem:         q.OneFileSystem,
		GitDir:                q.GitDir,
		GlobBase:              q.GlobBase,
		GlobCwd:               q.GlobCwd,
	}
}

// CountData counts the matching lines of data, the contents of the file at
// path, as rg -c would, for an engine that stopped reading the file's
// matches at the page's cap (search.FileMatchCap) and must still report
// the file's exact count.
func (r *FileSearcher) CountData(path string, data []byte) (int, error) {
	return r.countData(path, data, nil)
}

func (r *FileSearcher) countData(path string, data []byte, release func(int)) (int, error) {
	o := SearchOptions{CountOnly: true, MaxCount: r.q.MaxCountPerFile, Interrupt: r.ctx.Err, Release: release}
	r.binaryOptions(&o, path, r.mapped)
	res, err := r.m.Search(data, o, nil)
	return res.MatchedLines, err
}

// CountFile reads the file at path (relative to the root, slash-separated)
// and counts it as CountData does. A large file is mapped, whatever the
// Source's own setting, and its pages dropped as the count moves on: the
// ripgrep engine counts a file rg stopped printing at the page's cap, and
// read into the heap a 2 GB log cost 2 GB. A file truncated meanwhile is
// an error, not a crash.
func (r *FileSearcher) CountFile(path string) (n int, err error) {
	f := File{Path: path, Abs: filepath.Join(r.q.Root, filepath.FromSlash(path)), Size: -1}
	explicit := slices.Contains(r.explicit, path)
	buf, err := r.src.readWith(f, r.q.FollowSymlinks || explicit || r.underExplicit(path), nil, true)
	if err != nil {
		return 0, err
	}
	defer buf.Release()
	if buf.mapped {
		defer catchFault(debug.SetPanicOnFault(true), func() {
			n, err = 0, &os.PathError{Op: "read", Path: path, Err: errTruncated}
		})
	}
	return r.countData(path, buf.Data, buf.releaser())
}

// catchFault, deferred after debug.SetPanicOnFault(true) returned old,
// restores old and turns a memory fault (a mapped file truncated while it
// is read) into a call of onFault; any other panic goes on.
func catchFault(old bool, onFault func()) {
	debug.SetPanicOnFault(old)
	if p := recover(); p != nil {
		if _, fault := p.(interface{ Addr() uintptr }); !fault {
			panic(p)
		}
		onFault()
	}
}

// errTruncated is a mapped file cut short while it was read.
var errTruncated = errors.New("file truncated while it was read")
