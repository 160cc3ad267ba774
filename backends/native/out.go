package native

import (
	"errors"

	"github.com/rgkit/rgkit/search"
)

// batchBytes is how much of one file's output a worker copies and keeps
// before it takes the sink for the rest of that file. Small files (nearly
// all of them) go out in one locked burst, so workers rarely wait on each
// other; a file with more output streams, so a worker never holds more
// than this whatever the file holds (a 20 MB file of matching lines used
// to be held whole: 3 GB of lines for --head-limit 10).
const batchBytes = 256 << 10

// lineCost is what one held line costs besides its text: the Line itself
// and the slice headers that point at it.
const lineCost = 96

// FileOut passes one file's lines to the search's sink in order: Begin
// before the first, End at Close, nothing from another file in between.
// Lines are copied into a small batch while the file is searched; once the
// batch passes batchBytes the sink is taken (the FileSearcher's lock) and
// held until Close, and the batch and every later line go straight to it.
// A FileOut is used by one goroutine; always Close it.
type FileOut struct {
	r      *FileSearcher
	path   string
	batch  fileLines
	size   int
	locked bool // the sink is ours until Close
	begun  bool // Begin was passed on
	err    error
	spans  []search.Span // reused by view
	// nulAt is the file's NUL byte the search reported (FileResult's
	// NULOffset), -1 none: End passes it on in FileSummary.
	nulAt int64
	// own is the file's own sink (FileSearcher.fileSink), nil until its
	// first line or without one.
	own   search.Sink
	bytes int64 // FileSummary.Bytes (a transformed file's; a read file's up to where rg stopped, or decoded)
	// counted is FileSummary.Counted: res.Bytes where less than the data.
	counted int64
}

// view is l as a search.Line pointing into l's own buffers (the sink copies
// what it keeps), with its spans in a reused buffer.
func (o *FileOut) view(l Line) search.Line {
	out := search.Line{Path: o.path, Number: l.Number, Text: l.Text, Kind: search.KindMatch, MoreSubmatches: l.More,
		Located: l.Located, Offset: int64(l.Offset), Term: l.Term, Continued: l.Continued}
	if l.Context {
		out.Kind = search.KindContext
		if len(l.Submatches) == 0 {
			return out
		}
		// (a matching line shown as -v's context keeps its matches)
	}
	o.spans = o.spans[:0]
	for _, s := range l.Submatches {
		o.spans = append(o.spans, search.Span{Start: s[0], End: s[1]})
	}
	if len(o.spans) > 0 {
		out.Submatches = o.spans
		out.Column = o.spans[0].Start + 1
	}
	return out
}

// Out opens the output of the file at path.
func (r *FileSearcher) Out(path string) *FileOut {
	return &FileOut{r: r, path: path, nulAt: -1}
}

// reuseOut is Out with the batch buffers of an earlier file, so that a
// worker's batches are allocated once, not per file.
func (r *FileSearcher) reuseOut(path string) *FileOut {
	o, _ := r.outs.Get().(*FileOut)
	if o == nil {
		return r.Out(path)
	}
	o.path, o.nulAt = path, -1
	return o
}

// recycleOut abandons o (see Abandon) and keeps its buffers for reuseOut.
func (r *FileSearcher) recycleOut(o *FileOut) {
	o.Abandon()
	if cap(o.batch.text) > batchBytes {
		return // a long line grew it: let it go
	}
	*o = FileOut{r: r, batch: fileLines{text: o.batch.text[:0], spans: o.batch.spans[:0], recs: o.batch.recs[:0]}, spans: o.spans[:0]}
	r.outs.Put(o)
}

// Add passes on one native line; its buffers may be reused once Add
// returns. It returns ErrStopWalk once the sink has stopped or failed.
func (o *FileOut) Add(l Line) error {
	if o.err != nil {
		return o.err
	}
	if o.r.q.MaxColumns > 0 && len(l.Text) > o.r.q.MaxColumns {
		return o.AddLine(o.view(l)) // cut before it is copied
	}
	if o.r.fileSink != nil {
		return o.sendOwn(o.view(l))
	}
	if o.locked {
		return o.send(o.view(l))
	}
	o.batch.add(l)
	o.size += len(l.Text) + lineCost + 16*len(l.Submatches)
	return o.spill()
}

// AddLine passes on one line already in the library's form (an engine that
// turned a tool's output into Lines); its buffers may be reused once
// AddLine returns.
func (o *FileOut) AddLine(l search.Line) error {
	if o.err != nil {
		return o.err
	}
	l.Path = o.path
	l = search.CutLine(l, o.r.q.MaxColumns)
	if o.r.fileSink != nil {
		return o.sendOwn(l)
	}
	if o.locked {
		return o.send(l)
	}
	o.batch.addLine(l)
	o.size += len(l.Text) + lineCost + 16*len(l.Submatches)
	return o.spill()
}

// spill takes the sink once the batch is too big to keep.
func (o *FileOut) spill() error {
	if o.size < batchBytes {
		return nil
	}
	o.r.sinkMu.Lock()
	o.locked = true
	return o.flush()
}

// flush passes the batch on; the sink is held.
func (o *FileOut) flush() error {
	for i := range o.batch.recs {
		if err := o.send(o.batch.line(o.path, i)); err != nil {
			return err
		}
	}
	o.batch = fileLines{text: o.batch.text[:0], spans: o.batch.spans[:0], recs: o.batch.recs[:0]}
	o.size = 0
	return nil
}

// send passes one line on; the sink is held.
func (o *FileOut) send(l search.Line) error {
	if o.err != nil {
		return o.err
	}
	if o.r.sinkErr != nil {
		o.err = ErrStopWalk
		return o.err
	}
	if !o.begun {
		o.begun = true
		if err := o.r.sink.Begin(o.path); err != nil {
			return o.fail(err)
		}
	}
	if err := o.r.sink.Line(l); err != nil {
		return o.fail(err)
	}
	return nil
}

// fail records a sink error (ErrStop included) for the whole search; the
// sink is held.
func (o *FileOut) fail(err error) error {
	if errors.Is(err, search.ErrStop) {
		err = errStopped
	}
	if o.r.sinkErr == nil {
		o.r.sinkErr = err
		o.r.failed.Store(true)
	}
	o.err = ErrStopWalk
	return o.err
}

// sendOwn passes one line on to the file's own sink (FileSearcher.fileSink),
// begun at the first, without the lock.
func (o *FileOut) sendOwn(l search.Line) error {
	if err := o.beginOwn(); err != nil {
		return err
	}
	if err := o.own.Line(l); err != nil {
		return o.failOwn(err)
	}
	return nil
}

// beginOwn makes and begins the file's own sink at its first line; its
// error is the search's stop or failure, or the sink's.
func (o *FileOut) beginOwn() error {
	if o.err == nil && o.r.failed.Load() {
		o.err = ErrStopWalk
	}
	if o.err != nil {
		return o.err
	}
	if o.own == nil {
		o.own = o.r.fileSink(o.path)
		if err := o.own.Begin(o.path); err != nil {
			return o.failOwn(err)
		}
	}
	return nil
}

// takesRuns reports whether AddRun may be given runs of lines: the lines
// go to the file's own sink, uncut.
func (o *FileOut) takesRuns() bool {
	return o.r.fileSink != nil && o.r.q.MaxColumns == 0
}

// AddRun passes on a run of lines (see SearchOptions.Runs) to the file's
// own sink: whole to a search.RunSink, else a line at a time.
func (o *FileOut) AddRun(run search.LineRun) error {
	if err := o.beginOwn(); err != nil {
		return err
	}
	run.Path = o.path
	var err error
	if rs, ok := o.own.(search.RunSink); ok {
		err = rs.LineRun(run)
	} else {
		err = run.Each(o.own.Line)
	}
	if err != nil {
		return o.failOwn(err)
	}
	return nil
}

// failOwn is fail for an error of the file's own sink.
func (o *FileOut) failOwn(err error) error {
	o.r.sinkMu.Lock()
	defer o.r.sinkMu.Unlock()
	return o.fail(err)
}

// closeOwn is Close with the file's own sink.
func (o *FileOut) closeOwn(count int) error {
	if o.err != nil {
		return o.err
	}
	if o.own == nil && count == 0 {
		return nil
	}
	if o.r.failed.Load() {
		return ErrStopWalk
	}
	if o.own == nil {
		o.own = o.r.fileSink(o.path)
		if err := o.own.Begin(o.path); err != nil {
			return o.failOwn(err)
		}
	}
	sum := search.FileSummary{Path: o.path, MatchedLines: count, Bytes: o.bytes, Counted: o.counted}
	if o.nulAt >= 0 {
		sum.Binary, sum.BinaryOffset = true, o.nulAt
	}
	err := o.own.End(sum)
	o.own = nil // ended
	if err != nil {
		return o.failOwn(err)
	}
	return nil
}

// Close ends the file: the batch goes out, then End with count (the file's
// matched lines), unless nothing was found (no lines and count 0). It
// returns ErrStopWalk once the sink has stopped or failed.
func (o *FileOut) Close(count int) error {
	if o.r.fileSink != nil {
		return o.closeOwn(count)
	}
	if !o.locked {
		if o.err != nil || (count == 0 && len(o.batch.recs) == 0) {
			return o.err
		}
		o.r.sinkMu.Lock()
		o.locked = true
	}
	defer func() {
		o.locked = false
		o.r.sinkMu.Unlock()
	}()
	if err := o.flush(); err != nil {
		return err
	}
	if o.err != nil {
		return o.err
	}
	if o.r.sinkErr != nil {
		return ErrStopWalk
	}
	if !o.begun {
		o.begun = true
		if err := o.r.sink.Begin(o.path); err != nil {
			return o.fail(err)
		}
	}
	sum := search.FileSummary{Path: o.path, MatchedLines: count, Bytes: o.bytes, Counted: o.counted}
	if o.nulAt >= 0 {
		sum.Binary, sum.BinaryOffset = true, o.nulAt
	}
	if err := o.r.sink.End(sum); err != nil {
		return o.fail(err)
	}
	return nil
}

// Abandon releases the sink without ending the file, for a search that
// failed half-way (the caller's error is what counts).
func (o *FileOut) Abandon() {
	if a, ok := o.own.(interface{ Abandon() }); ok {
		a.Abandon() // a file sink that took the caller's output
	}
	o.own = nil
	if o.locked {
		o.locked = false
		o.r.sinkMu.Unlock()
	}
}
