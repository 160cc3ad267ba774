package search

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"
	"unicode/utf8"
)

// heldLineCost is what the byte cap charges for each line held (for
// sorting or while another file streams) besides its path and text: the
// Line itself, so the cap bounds the memory held, not only the text.
const heldLineCost = 96

// FileMatchCap is the most matching lines of one file an engine needs to
// report for q: Query.MaxCountPerFile, or, when results are paged (Limit
// set), Offset+Limit+1 if that is fewer. Past the page's size no match of a
// file can be shown whatever comes before it (sorted or streamed), and the
// one extra tells the Chain that more exist. capped reports that the page
// set the cap: a file that reaches it may hold more matches than the engine
// counted (see Stats.MatchedLinesAtLeast). Without it, one file of 10
// million matching lines made rg build 2 GB of JSON for a page of 10 (rg
// holds a file's output until the file is done when it runs threads).
func FileMatchCap(q Query) (max int, capped bool) {
	if q.Mode != ModeContent || q.Limit <= 0 {
		return q.MaxCountPerFile, false
	}
	w := q.Offset + q.Limit + 1
	if q.MaxCountPerFile > 0 && q.MaxCountPerFile <= w {
		return q.MaxCountPerFile, false
	}
	return w, true
}

// errLimit is returned inside the collector when Query.Limit entries have
// been passed on and one more exists; the engine is then told ErrStop.
var errLimit = errors.New("limit reached")

// collector sits between an engine and the caller's Sink. Engines emit files
// in any order (and may interleave them); the collector applies MaxColumns
// and the byte cap as results arrive, then orders them by Query.Sort, pages
// them with Offset/Limit and pushes them to the caller.
//
// With SortNone it streams: a file's lines go out as they arrive, and only a
// file that interleaves with the one being streamed waits for its turn. With
// SortPath or SortModified files are held until the engine is done, which is
// what makes the order deterministic. When Limit is set, only the window
// that can still reach the page is held (the first Offset+Limit entries in
// sort order, see trim), so a search for the first 250 matches of a huge
// tree holds about 250 matches, not all of them; otherwise the byte cap
// bounds memory.
//
// Paging counts entries: matching lines in ModeContent (context lines ride
// with the match they surround and are not counted), files in the other
// modes.
//
// Engines may call the collector from several goroutines; every method takes
// the lock, so the caller's Sink sees one call at a time.
type collector struct {
	mu       sync.Mutex
	q        Query
	out      Sink
	maxBytes int64 // 0 = no cap
	stream   bool

	open    map[string]*fileBuf // files begun and not yet handed on
	last    *fileBuf            // the open file named last: an engine sends a file's lines together
	arrived []*fileBuf          // every file, in arrival order
	active  *fileBuf            // streaming: the file being passed on
	next    int                 // streaming: index in arrived of the first file not handed on
	bytes   int64
	window  int        // sorted with a Limit: Offset+Limit entries are all that can be shown; 0 = hold all
	held    []*fileBuf // window > 0: the files held, in sort order
	arena   arena      // copies of the lines held
	beyond  bool       // window > 0: an entry past the window was dropped

	skipped, emitted int // entries skipped by Offset, passed on
	trunc            Truncation
	received         bool  // the engine emitted anything
	passedOn         bool  // something reached out: the engine's answer can no longer be dropped
	outDone          bool  // the caller's Sink returned an error (ErrStop included): call it no more
	stopped          bool  // the engine was told ErrStop
	sinkErr          error // a Sink error other than ErrStop
	foundFiles       int64
	foundLines       int64
	fileErrors       []FileError // the first MaxFileErrors
}

// fileBuf is one file's results and its paging state.
type fileBuf struct {
	path    string
	lines   heldLines
	matched int  // matching lines received
	ended   bool // the engine called End
	summary FileSummary
	begun   bool // Begin was passed on
	done    bool // handed on (or dropped) completely

	mtime   time.Time // SortModified: the file's modification time, read at Begin
	bytes   int64     // bytes charged to the cap for this file
	dropped bool      // outside the window: its results are ignored
	kept    int       // matching lines held (window > 0: at most window)
	keptAt  int       // line number of the last matching line held

	lastMatch   int      // line number of the last match seen; 0 = none
	lastEmitted bool     // that match was passed on
	pending     []Line   // context lines waiting for the next match, their text copied
	pendingText [][]byte // the copies, pending[i].Text's storage, reused as lines shift out
}

// addPending keeps context line l until the next match, at most max of
// them, with its text copied: an engine may reuse a line's bytes once
// Line returns (the ripgrep engine's decoder does), and a held line that
// still pointed into them would print the next record's text.
func (f *fileBuf) addPending(l Line, max int) {
	var buf []byte
	if len(f.pending) == max {
		buf = f.pendingText[0][:0]
		f.pending = append(f.pending[:0], f.pending[1:]...)
		f.pendingText = append(f.pendingText[:0], f.pendingText[1:]...)
	}
	buf = append(buf, l.Text...)
	l.Text = buf
	l.Submatches = slices.Clone(l.Submatches)
	f.pending = append(f.pending, l)
	f.pendingText = append(f.pendingText, buf)
}

func newCollector(q Query, out Sink, maxBytes int64) *collector {
	c := &collector{
		q:        q,
		out:      out,
		maxBytes: maxBytes,
		stream:   q.Sort == SortNone,
		open:     map[string]*fileBuf{},
	}
	if !c.stream && q.Limit > 0 {
		c.window = q.Offset + q.Limit
	}
	return c
}

// Begin implements Sink.
func (c *collector) Begin(path string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.accept() {
		return ErrStop
	}
	c.begin(path)
	return nil
}

// FileError implements FileErrorSink: the error is kept for Result and
// passed on at once, sorted or not (rg prints it when it happens).
func (c *collector) FileError(e FileError) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.received = true
	if len(c.fileErrors) < MaxFileErrors {
		c.fileErrors = append(c.fileErrors, e)
	}
	if c.outDone {
		return nil
	}
	return c.pass(ReportFileError(c.out, e))
}

// accept notes that the engine emitted and reports whether it may go on;
// the lock is held.
func (c *collector) accept() bool {
	c.received = true
	return !c.stopped
}

// begin opens path's buffer unless it is open; the lock is held.
func (c *collector) begin(path string) *fileBuf {
	if f := c.last; f != nil && f.path == path {
		return f
	}
	if f := c.open[path]; f != nil {
		c.last = f
		return f
	}
	f := &fileBuf{path: path}
	c.open[path] = f
	c.last = f
	if c.q.Sort == SortModified {
		if fi, err := os.Stat(filepath.Join(c.q.Root, filepath.FromSlash(path))); err == nil {
			f.mtime = fi.ModTime()
		}
	}
	if c.window > 0 {
		c.hold(f)
		return f
	}
	c.arrived = append(c.arrived, f)
	if c.stream && c.active == nil {
		c.active = f
	}
	return f
}

// Line implements Sink.
func (c *collector) Line(l Line) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.accept() {
		return ErrStop
	}
	if c.q.Mode != ModeContent {
		return nil // the other modes report at End; no engine should send lines
	}
	f := c.begin(l.Path) // lenient with an engine that skipped Begin
	if l.Kind == KindMatch {
		f.matched++
		c.foundLines++
		if f.matched == 1 {
			c.foundFiles++
		}
	}
	if f.dropped || !c.keep(f, l) {
		return nil
	}
	l = CutLine(l, c.q.MaxColumns)
	direct := c.stream && f == c.active
	n := int64(len(l.Path) + len(l.Text))
	if !direct {
		// A held line costs its Line and spans too: 10 million one-byte
		// lines are 30 MB of text but a gigabyte of Lines.
		n += heldLineCost + int64(16*len(l.Submatches))
	}
	if !c.charge(f, n) {
		if l.Kind == KindMatch {
			f.kept-- // not held after all
		}
		return c.stop()
	}
	if direct {
		return c.stopOn(c.feed(f, l))
	}
	f.lines.add(c.arena.own(l))
	return nil
}

// keep reports whether line l of f can still reach the page. With a window,
// a file's matches past the window's size cannot (whatever comes before it),
// nor can context lines other than the after-context of its last kept match.
func (c *collector) keep(f *fileBuf, l Line) bool {
	if l.Kind == KindMatch {
		if c.window > 0 && f.kept >= c.window {
			c.beyond = true
			return false
		}
		f.kept++
		f.keptAt = l.Number
		return true
	}
	return c.window == 0 || f.kept < c.window || l.Number-f.keptAt <= c.q.After
}

// End implements Sink.
func (c *collector) End(s FileSummary) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.accept() {
		return ErrStop
	}
	f := c.open[s.Path]
	if f == nil {
		return nil
	}
	f.ended = true
	f.summary = s
	if c.q.Mode != ModeContent {
		if s.MatchedLines > 0 || c.q.Mode == ModeFilesWithMatches {
			c.foundFiles++
			c.foundLines += int64(s.MatchedLines)
		}
		if !f.dropped && !c.charge(f, int64(len(s.Path))) {
			return c.stop()
		}
	}
	if c.stream && f == c.active {
		return c.stopOn(c.advance())
	}
	c.trim()
	return nil
}

// hold inserts f among the held files in sort order, then trims the window.
func (c *collector) hold(f *fileBuf) {
	i, _ := slices.BinarySearchFunc(c.held, f, c.compareFiles)
	c.held = slices.Insert(c.held, i, f)
	c.trim()
}

// trim drops the held files that sort after the first window entries: they
// cannot reach the page, since entries are only ever added. A dropped file
// that had (or may still get) entries means more results exist.
func (c *collector) trim() {
	if c.window == 0 {
		return
	}
	total := 0
	for i, f := range c.held {
		if total < c.window {
			total += c.entries(f)
			continue
		}
		for _, g := range c.held[i:] {
			if !g.ended || c.entries(g) > 0 {
				c.beyond = true
			}
			g.dropped = true
			g.lines = heldLines{}
			c.bytes -= g.bytes
		}
		c.held = c.held[:i]
		return
	}
}

// entries is how many paging entries f holds so far.
func (c *collector) entries(f *fileBuf) int {
	switch {
	case c.q.Mode == ModeContent:
		return f.kept
	case c.q.Mode == ModeCount && f.ended && f.summary.MatchedLines == 0:
		return 0
	}
	return 1 // engines begin only files with a match
}

// compareFiles is the Query.Sort order: path directory by directory, or
// newest first with ties by path.
func (c *collector) compareFiles(a, b *fileBuf) int {
	if c.q.Sort == SortModified {
		if n := b.mtime.Compare(a.mtime); n != 0 {
			return n
		}
	}
	return ComparePaths(a.path, b.path)
}

// advance finishes the active file and streams the files that waited for
// it, until one that is still open becomes active.
func (c *collector) advance() error {
	for c.active != nil {
		f := c.active
		if !f.ended {
			return nil
		}
		if err := c.hand(f); err != nil {
			return err
		}
		// Files are handed on in arrival order, so the done ones are a
		// prefix of c.arrived and the next one to stream is right after.
		c.active = nil
		for c.next < len(c.arrived) && c.arrived[c.next].done {
			c.arrived[c.next] = nil // let a streamed file's memory go
			c.next++
		}
		if c.next < len(c.arrived) {
			c.active = c.arrived[c.next]
		}
		if c.active != nil && !c.active.ended {
			if err := c.replay(c.active); err != nil {
				return err
			}
		}
	}
	return nil
}

// replay passes on the lines a file buffered while it waited.
func (c *collector) replay(f *fileBuf) error {
	lines := f.lines
	f.lines = heldLines{}
	for _, chunk := range lines.chunks {
		for _, l := range chunk {
			if err := c.feed(f, l); err != nil {
				return err
			}
		}
	}
	return nil
}

// heldLines is a file's held lines in chunks that are never copied: one
// growing slice copied every line at each growth, and a sorted search
// holding a file of 150,000 matching lines spent most of its time faulting
// in and copying the new arrays. Chunks double from 16 lines to 4096.
type heldLines struct {
	chunks [][]Line
}

const (
	heldFirstChunk = 16
	heldMaxChunk   = 4096
)

// len is how many lines are held.
func (h *heldLines) len() int {
	n := 0
	for _, c := range h.chunks {
		n += len(c)
	}
	return n
}

func (h *heldLines) add(l Line) {
	n := len(h.chunks)
	if n == 0 || len(h.chunks[n-1]) == cap(h.chunks[n-1]) {
		size := heldFirstChunk
		if n > 0 {
			size = min(2*cap(h.chunks[n-1]), heldMaxChunk)
		}
		h.chunks = append(h.chunks, make([]Line, 0, size))
		n++
	}
	h.chunks[n-1] = append(h.chunks[n-1], l)
}

// finish hands on everything still held, once the engine has returned.
func (c *collector) finish() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sinkErr != nil {
		return nil
	}
	var err error
	if c.stream {
		for _, f := range c.arrived[c.next:] { // what a stop or a timeout left open
			f.ended = true
		}
		err = c.advance()
	} else {
		err = c.flushSorted()
	}
	if err == nil || errors.Is(err, errLimit) || errors.Is(err, ErrStop) {
		return nil
	}
	if c.sinkErr != nil {
		return nil
	}
	return err
}

// flushSorted orders the held files by Query.Sort and passes them on.
func (c *collector) flushSorted() error {
	files := c.held
	if c.window == 0 {
		files = c.arrived
		slices.SortStableFunc(files, c.compareFiles)
	}
	for _, f := range files {
		if err := c.hand(f); err != nil {
			return err
		}
	}
	if c.beyond {
		c.markLimit() // past the page, something was dropped before it was held
	}
	return nil
}

// hand passes on the lines file f holds and closes it. A file cut by the
// limit is still closed, so the caller's Sink sees its End.
func (c *collector) hand(f *fileBuf) error {
	err := c.replay(f)
	if err != nil && !errors.Is(err, errLimit) {
		return err
	}
	if cerr := c.close(f); cerr != nil {
		return cerr
	}
	return err
}

// feed pages one line of file f and passes it on when it is in the window.
func (c *collector) feed(f *fileBuf, l Line) error {
	if l.Kind == KindMatch {
		f.lastMatch = l.Number
		if c.full() {
			c.markLimit()
			return errLimit
		}
		if c.skipped < c.q.Offset {
			c.skipped++
			f.lastEmitted = false
			f.pending, f.pendingText = f.pending[:0], f.pendingText[:0]
			return nil
		}
		for _, p := range f.pending {
			if l.Number-p.Number <= c.q.Before {
				if err := c.emit(f, p); err != nil {
					return err
				}
			}
		}
		f.pending, f.pendingText = f.pending[:0], f.pendingText[:0]
		c.emitted++
		f.lastEmitted = true
		return c.emit(f, l)
	}
	if f.lastEmitted && l.Number-f.lastMatch <= c.q.After {
		return c.emit(f, l)
	}
	if c.full() || c.q.Before == 0 {
		return nil
	}
	f.addPending(l, c.q.Before)
	return nil
}

// close ends file f downstream; in the files and count modes the file is
// the entry being paged.
func (c *collector) close(f *fileBuf) error {
	if f.done {
		return nil
	}
	f.done = true
	delete(c.open, f.path)
	if c.last == f {
		c.last = nil
	}
	sum := f.summary
	if !f.ended || sum.Path == "" {
		sum = FileSummary{Path: f.path, MatchedLines: f.kept}
	}
	if c.q.Mode != ModeContent {
		// Engines send only files with a match; in files mode one that
		// stops at the first match may leave the count at 0, while in
		// count mode a 0 would print a line rg -c never prints.
		if !f.ended || (sum.MatchedLines == 0 && c.q.Mode == ModeCount) {
			return nil
		}
		if c.full() {
			c.markLimit()
			return errLimit
		}
		if c.skipped < c.q.Offset {
			c.skipped++
			return nil
		}
		c.emitted++
		if c.outDone {
			return ErrStop
		}
		if err := c.pass(c.out.Begin(f.path)); err != nil {
			return err
		}
		f.begun = true
	}
	if !f.begun || c.outDone {
		return nil
	}
	return c.pass(c.out.End(sum))
}

// emit passes one line on, opening its file downstream first.
func (c *collector) emit(f *fileBuf, l Line) error {
	if c.outDone {
		return ErrStop
	}
	if !f.begun {
		f.begun = true
		if err := c.pass(c.out.Begin(f.path)); err != nil {
			return err
		}
	}
	return c.pass(c.out.Line(l))
}

// pass takes the result of a call to the caller's Sink: it records that
// something was passed on and a Sink error, so the Chain can return it as
// the caller's own.
func (c *collector) pass(err error) error {
	c.passedOn = true // every call to c.out comes through here
	if err == nil {
		return nil
	}
	c.outDone = true
	if !errors.Is(err, ErrStop) && c.sinkErr == nil {
		c.sinkErr = err
	}
	return err
}

// full reports whether Query.Limit entries have been passed on.
func (c *collector) full() bool { return c.q.Limit > 0 && c.emitted >= c.q.Limit }

func (c *collector) markLimit() {
	if c.trunc == NotTruncated {
		c.trunc = TruncatedLimit
	}
}

// charge adds n bytes held for f to the total and reports whether they fit
// the cap.
func (c *collector) charge(f *fileBuf, n int64) bool {
	if c.maxBytes > 0 && c.bytes+n > c.maxBytes {
		if c.trunc == NotTruncated {
			c.trunc = TruncatedBytes
		}
		return false
	}
	c.bytes += n
	f.bytes += n
	return true
}

// stop tells the engine to stop.
func (c *collector) stop() error {
	c.stopped = true
	return ErrStop
}

// stopOn turns an internal stop (limit, downstream ErrStop) into ErrStop for
// the engine, and passes a real Sink error through.
func (c *collector) stopOn(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, errLimit), errors.Is(err, ErrStop):
		return c.stop()
	}
	c.stopped = true
	return err
}

// outcome is what the collector saw of a search.
type outcome struct {
	received bool       // the engine emitted anything
	passedOn bool       // something reached the caller's Sink
	stopped  bool       // the engine was told to stop (limit, byte cap, Sink)
	sinkErr  error      // the caller's Sink failed with this (not ErrStop)
	trunc    Truncation // which cap cut the results
	fileErrs []FileError
}

func (c *collector) outcome() outcome {
	c.mu.Lock()
	defer c.mu.Unlock()
	return outcome{received: c.received, passedOn: c.passedOn, stopped: c.stopped, sinkErr: c.sinkErr, trunc: c.trunc, fileErrs: c.fileErrors}
}

// mergeStats completes an engine's Stats with what the collector counted,
// for engines that leave the match counters at zero.
func (c *collector) mergeStats(s Stats) Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s.FilesMatched == 0 {
		s.FilesMatched = c.foundFiles
	}
	if s.MatchedLines == 0 {
		s.MatchedLines = c.foundLines
	}
	return s
}

// CutLine applies a column cap (Query.MaxColumns): the text is cut on a
// UTF-8 boundary at or before max bytes, Cut records how many bytes went,
// submatches are clipped to what is left and those that start past it are
// counted in MoreSubmatches. max <= 0 means no cap. Engines call it before
// they copy a long line, the Chain again (it is idempotent).
func CutLine(l Line, max int) Line {
	if max <= 0 || len(l.Text) <= max {
		return l
	}
	n := max
	for n > 0 && !utf8.RuneStart(l.Text[n]) {
		n--
	}
	l.Cut += len(l.Text) - n
	l.Text = l.Text[:n]
	var subs []Span
	for _, s := range l.Submatches {
		if s.Start >= n {
			l.MoreSubmatches++
			continue
		}
		s.End = min(s.End, n)
		subs = append(subs, s)
	}
	l.Submatches = subs
	return l
}

// arena copies held lines into shared chunks: an engine may reuse its
// buffers once Line returns, and two small allocations per held line made
// sorting cost as much as the search itself (BenchmarkChainOverhead).
type arena struct {
	text  []byte
	spans []Span
}

const arenaChunk = 64 << 10

// own returns l with Text and Submatches copied into the arena.
func (a *arena) own(l Line) Line {
	if len(l.Text) > arenaChunk/8 {
		l.Text = slices.Clone(l.Text)
	} else {
		if cap(a.text)-len(a.text) < len(l.Text) {
			a.text = make([]byte, 0, arenaChunk)
		}
		at := len(a.text)
		a.text = append(a.text, l.Text...)
		l.Text = a.text[at:len(a.text):len(a.text)]
	}
	if l.Submatches != nil {
		if cap(a.spans)-len(a.spans) < len(l.Submatches) {
			a.spans = make([]Span, 0, max(len(l.Submatches), arenaChunk/16))
		}
		at := len(a.spans)
		a.spans = append(a.spans, l.Submatches...)
		l.Submatches = a.spans[at:len(a.spans):len(a.spans)]
	}
	return l
}
