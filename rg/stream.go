package rg

import (
	"bytes"
	"context"
	"errors"
	"io"

	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/internal/rgcli"
	"github.com/rgkit/rgkit/search"
)

// A stream is stdin, or a FIFO, socket or character device named on the
// command line (`rg foo <(cmd)`, /dev/stdin, /dev/null). rg searches one as
// it arrives, so `tail -f log | rg ERROR` prints each line when it comes and
// `yes | rg -m1 y` ends at once. rgkit does the same with the native
// matcher: the stream is read in windows of whole lines, each searched as it
// is read, with memory bounded by the window (64 KiB, more only for a longer
// line) plus the lines a context needs; nothing is written to disk.
//
// Multiline queries, and a stream that starts with a UTF-16 byte order mark,
// are read whole first: a match may span any number of lines (rg holds the
// whole input for multiline too), and UTF-16 cannot be cut at a '\n' byte.
// -v, --passthru and --files-without-match go window by window as well
// (streamListing), but for -U, read whole too. Nothing is ever copied to
// disk.

// streamWindow is the first read's size, rg's own buffer size: a NUL byte
// in it makes the stream binary before any of its lines is printed, as in
// rg.
const streamWindow = 64 << 10

// streamSource is a target that is read as a stream.
type streamSource struct {
	r io.Reader

	// Set while the stream is searched, for the sink: where the lines of
	// the current window start, and the first NUL byte seen (-1 none).
	loc       windowLocator
	binaryOff int64
	bytes     int64 // read so far
	// located: the lines carry their stream offsets and terminators
	// (search.Line.Located), loc is not used.
	located bool
}

// windowLocator gives the lines of the window being searched their byte
// offsets and terminators (the sink prints them with -b and --json). Lines
// are asked for in increasing order.
type windowLocator struct {
	data []byte // the window; NUL and '\n' both end a line (rg turns NULs into line breaks in a stream)
	line int    // number of the line starting at data[pos]
	pos  int
	base int64 // stream offset of data[0]
}

func (l *windowLocator) reset(data []byte, firstLine int, base int64) {
	*l = windowLocator{data: data, line: firstLine, base: base}
}

// at returns line n's stream offset and terminator.
func (l *windowLocator) at(n int) (int64, []byte) {
	for l.line < n && l.pos < len(l.data) {
		l.pos += lineLen(l.data[l.pos:])
		l.line++
	}
	if l.line != n || l.pos >= len(l.data) {
		return 0, nil
	}
	_, term := splitLine(l.data[l.pos : l.pos+lineLen(l.data[l.pos:])])
	return l.base + int64(l.pos), term
}

// lineLen is the length of the first line of b with its terminator.
func lineLen(b []byte) int {
	for i, c := range b {
		if c == '\n' || c == 0 {
			return i + 1
		}
	}
	return len(b)
}

// lastLineEnd is the index just past the last line terminator in b, or 0.
func lastLineEnd(b []byte) int {
	return max(bytes.LastIndexByte(b, '\n'), bytes.LastIndexByte(b, 0)) + 1
}

// countLines counts the line terminators in b.
func countLines(b []byte) int {
	return bytes.Count(b, []byte{'\n'}) + bytes.Count(b, []byte{0})
}

// chunkReader reads r on its own goroutine, so that a search blocked on a
// quiet pipe still ends when ctx does (Ctrl-C during `tail -f | rgkit grep`).
// A goroutine left blocked in Read ends with the process.
type chunkReader struct {
	chunks chan chunk
	free   chan []byte
}

type chunk struct {
	b   []byte
	err error
}

func newChunkReader(r io.Reader) *chunkReader {
	c := &chunkReader{chunks: make(chan chunk), free: make(chan []byte, 2)}
	c.free <- make([]byte, streamWindow)
	c.free <- make([]byte, streamWindow)
	go func() {
		for b := range c.free {
			n, err := r.Read(b)
			if n == 0 && err == nil {
				c.free <- b
				continue
			}
			c.chunks <- chunk{b[:n], err}
			if err != nil {
				return
			}
		}
	}()
	return c
}

// next appends the next read to dst; it returns io.EOF at the end, ctx's
// error once ctx ends, or the read's error.
func (c *chunkReader) next(ctx context.Context, dst []byte) ([]byte, error) {
	select {
	case <-ctx.Done():
		return dst, ctx.Err()
	case ch := <-c.chunks:
		dst = append(dst, ch.b...)
		if ch.err == nil {
			c.free <- ch.b[:cap(ch.b)]
		}
		return dst, ch.err
	}
}

// readAllStream reads the rest of the stream, for the queries that need all
// of it at once.
func (c *chunkReader) readAll(ctx context.Context, dst []byte) ([]byte, error) {
	for {
		var err error
		if dst, err = c.next(ctx, dst); err != nil {
			if errors.Is(err, io.EOF) {
				return dst, nil
			}
			return dst, err
		}
	}
}

// streamMatcher normalises q for a stream (it has no paths) and compiles
// the native matcher for it.
func streamMatcher(q search.Query) (search.Query, *native.Matcher, error) {
	q.Paths = nil
	nq, err := search.Normalize(q)
	if err != nil {
		return nq, nil, err
	}
	m, err := native.Compile(native.MatchOptionsFor(nq))
	return nq, m, err
}

// searchStream searches st for q (its paths are ignored) and reports the
// stream to sink as the file name.
func searchStream(ctx context.Context, q search.Query, st *streamSource, name string, sink search.Sink) (search.Result, error) {
	res := search.Result{Backend: "native"}
	nq, m, err := streamMatcher(q)
	if err != nil {
		return res, err
	}
	s := &streamSearch{ctx: ctx, q: nq, m: m, st: st, name: name, sink: sink}
	s.opts = native.SearchOptionsFor(nq)
	s.opts.BinaryConvert = true // rg reads a stream and turns its NULs into line breaks
	s.opts.Text = nq.Binary == search.BinaryText
	// rg -E applies to stdin too (-z and --pre do not), and so does its
	// byte-order mark rule: a UTF-16 stream's NULs are its text's.
	if st.r, err = native.DecodeReader(st.r, nq.Encoding); err != nil {
		return res, err
	}
	s.opts.Decoded = true
	if nq.NullData {
		return s.nullData(res)
	}
	s.opts.Interrupt = ctx.Err
	st.binaryOff = -1
	err = s.run()
	res.Stats = search.Stats{FilesSearched: 1, BytesSearched: st.bytes, MatchedLines: int64(s.matched)}
	if st.binaryOff >= 0 {
		res.Stats.Binary = 1
	}
	if s.matched > 0 {
		res.Stats.FilesMatched = 1
	}
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		res.Partial = true
		return res, nil
	}
	if errors.Is(err, search.ErrStop) {
		err = nil
	}
	return res, err
}

// nullData searches a stream with rg --null-data: native.SearchReader
// reads it window by window (NUL-ended records), and its lines carry their
// own offsets and terminators.
func (s *streamSearch) nullData(res search.Result) (search.Result, error) {
	s.st.located, s.st.binaryOff = true, -1 // -a is implied: never binary
	opts := s.opts
	opts.BinaryConvert, opts.Decoded = false, true
	r, err := s.m.SearchReader(native.NullDataReader(s.st.r), opts, func(l native.Line) error {
		return s.send(native.ViewLine(s.name, native.UnpermuteLine(l)))
	})
	s.st.bytes = r.Bytes
	if err == nil {
		s.matched = r.MatchedLines
		err = s.finish()
	}
	res.Stats = search.Stats{FilesSearched: 1, BytesSearched: r.Bytes, MatchedLines: int64(s.matched)}
	if s.matched > 0 {
		res.Stats.FilesMatched = 1
	}
	if s.ctx.Err() != nil && errors.Is(err, s.ctx.Err()) {
		res.Partial = true
		return res, nil
	}
	if errors.Is(err, search.ErrStop) {
		err = nil
	}
	return res, err
}

// streamSearch is the state of one stream search.
type streamSearch struct {
	ctx  context.Context
	q    search.Query
	m    *native.Matcher
	opts native.SearchOptions
	st   *streamSource
	name string
	sink search.Sink

	begun   bool
	matched int // matched lines reported (what rg -c counts)
	// Of the lines already passed on: the last one's number, the last
	// match's, and which of the lines kept for context were matches.
	lastSent, lastMatch int
	sentMatch           map[int]bool
	// trailing is how many lines of after-context are still owed once the
	// match limit was reached in an earlier window.
	trailing int
}

// lastLineNumber is the number of the last line of buf, whose first line
// is first.
func lastLineNumber(buf []byte, first int) int {
	n := first - 1 + countLines(buf)
	if len(buf) > 0 && buf[len(buf)-1] != '\n' && buf[len(buf)-1] != 0 {
		n++ // an unterminated last line
	}
	return n
}

// trailingContext prints the after-context owed past the match limit: the
// next lines, a line that matches printed as a match (as rg 15 does, and
// counted), the others as context.
func (s *streamSearch) trailingContext(buf []byte, first int) (bool, error) {
	n := first
	for at := 0; at < len(buf) && s.trailing > 0; n++ {
		size := lineLen(buf[at:])
		line := buf[at : at+size]
		at += size
		if n <= s.lastSent {
			continue
		}
		text, _ := splitLine(line)
		var found *native.Line
		_, err := s.m.Search(text, native.SearchOptions{MaxCount: 1, MaxColumns: s.opts.MaxColumns}, func(l native.Line) error {
			found = &l
			return nil
		})
		if err != nil {
			return true, err
		}
		l := native.Line{Number: n, Text: text, Context: true}
		if found != nil {
			l = *found
			l.Number = n
			s.matched++
		}
		s.lastSent = n
		s.trailing--
		if err := s.send(native.ViewLine(s.name, l)); err != nil {
			return true, err
		}
	}
	if s.trailing > 0 {
		return false, nil
	}
	return true, s.finish()
}

// send passes one line on, opening the file first.
func (s *streamSearch) send(l search.Line) error {
	if !s.begun {
		s.begun = true
		if err := s.sink.Begin(s.name); err != nil {
			return err
		}
	}
	return s.sink.Line(l)
}

func (s *streamSearch) run() error {
	rd := newChunkReader(s.st.r)
	buf := make([]byte, 0, 2*streamWindow)
	buf, err := rd.next(s.ctx, buf)
	if err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	eof := errors.Is(err, io.EOF)
	if s.q.Multiline {
		if !eof {
			if buf, err = rd.readAll(s.ctx, buf); err != nil {
				return err
			}
		}
		return s.whole(buf)
	}

	// keep is how many lines of one window the next needs in front of it:
	// the context that can reach across the cut.
	keep := 0
	if s.q.Mode == search.ModeContent {
		keep = max(s.q.Before, s.q.After)
	}
	first, base := 1, int64(0) // line number and stream offset of buf[0]
	prefix := 0                // bytes of buf already searched, kept for context
	s.sentMatch = map[int]bool{}
	for {
		end := len(buf)
		if !eof {
			end = prefix + lastLineEnd(buf[prefix:])
		}
		if end > prefix {
			done, err := s.window(buf[:end], prefix, first, base)
			if err != nil || done {
				return err
			}
		}
		if eof {
			return s.finish()
		}
		// Keep the last lines for the next window's context, then the
		// unterminated rest, and read on.
		cut := keepFrom(buf[:end], keep)
		first += countLines(buf[:cut])
		base += int64(cut)
		for n := range s.sentMatch {
			if n < first {
				delete(s.sentMatch, n)
			}
		}
		buf = buf[:copy(buf, buf[cut:])]
		prefix = end - cut
		if buf, err = rd.next(s.ctx, buf); err != nil {
			if !errors.Is(err, io.EOF) {
				return err
			}
			eof = true
		}
	}
}

// keepFrom is where the last n lines of window start (len(window) for 0).
func keepFrom(window []byte, n int) int {
	at := len(window)
	for ; n > 0 && at > 0; n-- {
		i := max(bytes.LastIndexByte(window[:at-1], '\n'), bytes.LastIndexByte(window[:at-1], 0))
		at = i + 1
	}
	return at
}

// window searches one window: buf[:prefix] was searched before and is there
// for context, the rest is new. done reports the search is over (a limit was
// reached or the sink stopped).
func (s *streamSearch) window(buf []byte, prefix, first int, base int64) (done bool, err error) {
	if err := s.ctx.Err(); err != nil {
		return true, err
	}
	s.st.bytes += int64(len(buf) - prefix)
	if s.st.binaryOff < 0 && !s.opts.Text { // -a: a NUL is a byte like any other
		if i := bytes.IndexByte(buf[prefix:], 0); i >= 0 {
			s.st.binaryOff = base + int64(prefix+i)
		}
	}
	s.st.loc.reset(buf, first, base)
	if s.trailing > 0 {
		return s.trailingContext(buf, first)
	}
	opts := s.opts
	sentBefore := s.matched
	if opts.MaxCount > 0 {
		// Matches among the context lines in front count again in this
		// window: let the limit see them.
		opts.MaxCount = opts.MaxCount - s.matched + len(s.sentMatch)
	}
	r, err := s.m.Search(buf, opts, func(l native.Line) error {
		l.Number += first - 1
		if l.Number <= s.lastSent {
			return nil
		}
		s.lastSent = l.Number
		if !l.Context {
			s.matched++
			s.lastMatch = l.Number
			s.sentMatch[l.Number] = true
		}
		return s.send(native.ViewLine(s.name, l))
	})
	if err != nil {
		return true, err
	}
	switch {
	case opts.CountOnly || opts.FilesOnly:
		s.matched += r.MatchedLines
		if opts.FilesOnly && r.MatchedLines > 0 {
			return true, s.finish()
		}
		if s.opts.MaxCount > 0 && s.matched >= s.opts.MaxCount {
			return true, s.finish()
		}
	case opts.MaxCount > 0 && s.matched >= s.opts.MaxCount:
		// rg prints the last match's after-context, which may lie in the
		// windows still to come.
		s.trailing = s.lastMatch + s.opts.After - lastLineNumber(buf, first)
		if s.trailing > 0 {
			return false, nil
		}
		return true, s.finish()
	case s.st.binaryOff >= 0 && s.matched > sentBefore:
		// rg stops at the first match of a stream it found binary.
		return true, s.finish()
	}
	return false, nil
}

// whole searches a stream read whole.
func (s *streamSearch) whole(buf []byte) error {
	s.st.bytes = int64(len(buf))
	if i := bytes.IndexByte(buf, 0); i >= 0 && !s.opts.Text {
		s.st.binaryOff = int64(i)
	}
	s.st.loc.reset(buf, 1, 0)
	r, err := s.m.Search(buf, s.opts, func(l native.Line) error {
		return s.send(native.ViewLine(s.name, l))
	})
	if err != nil {
		return err
	}
	s.matched = r.MatchedLines
	return s.finish()
}

// finish ends the file, if anything was found.
func (s *streamSearch) finish() error {
	if s.matched == 0 && !s.begun {
		return nil
	}
	if !s.begun {
		s.begun = true
		if err := s.sink.Begin(s.name); err != nil {
			return err
		}
	}
	return s.sink.End(search.FileSummary{Path: s.name, MatchedLines: s.matched})
}

// streamListing prints a stream in a listing mode (-v, --passthru,
// --files-without-match) window by window (one window for -U, where a
// match may span any number of them): the window's matching lines are
// found with the native matcher, then every line is printed as
// printAllLines prints a file's.
func (r *rgRun) streamListing(ctx context.Context, q search.Query, st *streamSource, s *rgSink) (search.Result, error) {
	res := search.Result{Backend: "native"}
	nq, m, err := streamMatcher(q)
	if err != nil {
		return res, err
	}
	// Lines are cut at '\n', each NUL read as one (below) unless -a. With --null-data the stream is read with its
	// bytes permuted (native.NullDataReader), so that a record ends in
	// '\n' here too, as the matcher expects; allLines gives each record
	// its own bytes back.
	opts := native.SearchOptions{BinaryConvert: true, KeepNUL: true, Interrupt: ctx.Err}
	if r.multiLine && r.o.Invert {
		opts.InvertFinds, opts.MaxCount = true, q.MaxCountPerFile // (rg -v -U's -m counts finds)
	}
	st.binaryOff = -1
	if err := s.Begin("stdin"); err != nil {
		return res, err
	}
	all := allLines{r: r, s: s, n: 1, permuted: nq.NullData}
	src, err := native.DecodeReader(st.r, nq.Encoding) // (as searchStream reads it)
	if err != nil {
		return res, err
	}
	if nq.NullData {
		src = native.NullDataReader(src)
	}
	rd := newChunkReader(src)
	convert := !nq.NullData && nq.Binary != search.BinaryText
	var buf []byte
	anyMatch, eof := false, false
	for !eof {
		if r.multiLine { // a match may span any number of windows
			if buf, err = rd.readAll(ctx, buf); err != nil {
				return res, err
			}
			eof = true
		} else if buf, err = rd.next(ctx, buf); err != nil {
			if !errors.Is(err, io.EOF) {
				return res, err
			}
			eof = true
		}
		if i := bytes.IndexByte(buf, 0); i >= 0 && convert {
			if st.binaryOff < 0 {
				st.binaryOff = st.bytes + int64(i)
				if r.std != nil {
					s.binaryOff = st.binaryOff // the lines are not printed, the note is
				}
			}
			// rg reads a stream's NULs as line breaks (its JSON prints
			// them as such, and -v selects the pieces).
			for ; i >= 0; i = bytes.IndexByte(buf, 0) {
				buf[i] = '\n'
			}
		}
		end := bytes.LastIndexByte(buf, '\n') + 1
		if eof {
			end = len(buf)
		}
		window := buf[:end]
		st.bytes += int64(len(window))
		res.Stats.BytesSearched = st.bytes
		matched := map[int]search.Line{}
		first := all.n
		if _, err := m.Search(window, opts, func(l native.Line) error {
			l.Number += first - 1
			if nq.NullData {
				l = native.UnpermuteLine(l)
			}
			matched[l.Number] = native.SearchLine("stdin", l)
			return nil
		}); err != nil {
			return res, err
		}
		if r.o.Invert {
			// -v: a line the pattern does not match is one
			lines := bytes.Count(window, termLF)
			if len(window) > 0 && window[len(window)-1] != '\n' {
				lines++
			}
			anyMatch = anyMatch || lines > len(matched)
		} else {
			anyMatch = anyMatch || len(matched) > 0
		}
		if r.o.Mode == rgcli.ModeFilesWithoutMatch {
			if anyMatch {
				break
			}
		} else {
			for at := 0; at < len(window); {
				size := bytes.IndexByte(window[at:], '\n') + 1
				if size == 0 {
					size = len(window) - at
				}
				done, err := all.line(window[at:at+size], matched)
				if err != nil {
					return res, err
				}
				if done {
					eof = true
					break
				}
				at += size
			}
		}
		buf = buf[:copy(buf, buf[end:])]
	}
	res.Stats.FilesSearched = 1
	if r.o.Mode == rgcli.ModeFilesWithoutMatch {
		if !anyMatch {
			if err := s.listPath(true); err != nil {
				return res, err
			}
		}
		return res, s.finishFile()
	}
	if err := all.finish(); err != nil {
		return res, err
	}
	return res, s.finishFile()
}
