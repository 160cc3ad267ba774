package native

import (
	"bytes"
	"errors"
	"io"
)

// streamWindow is how much new data a stream search reads before it
// searches: rg's own buffer size. A window holds whole lines; a longer line
// grows it.
const streamWindow = 64 << 10

// SearchReader is Search over data that arrives through r: a decompressed
// file (rg -z), a preprocessor's output (rg --pre) or a file transcoded to
// UTF-8 (rg -E). The data is searched a window of whole lines at a time, so
// memory stays bounded by the window (64 KiB, more only for a longer line)
// and the lines a context needs, whatever the data's size; a multiline
// search reads it whole first, as rg does. Lines are numbered and located
// (Line.Offset, Line.Term) in the data as read from r.
//
// The data is taken as decoded already (no byte-order mark is looked for).
// Binary data follows rg's rules for a reader: by default the search stops
// at the window that brings the first NUL byte (FileResult.Binary), with
// BinaryConvert each NUL is read as a line break, with Text a NUL is a
// plain byte.
func (m *Matcher) SearchReader(r io.Reader, o SearchOptions, emit func(Line) error) (FileResult, error) {
	o.Decoded = true
	o.Release, o.probed = nil, false
	if m.multi {
		data, err := io.ReadAll(r)
		if err != nil {
			return FileResult{}, err
		}
		return m.Search(data, o, emit)
	}
	s := &streamState{m: m, o: o, emit: emit}
	return s.run(r)
}

// streamState is one SearchReader's progress.
type streamState struct {
	m    *Matcher
	o    SearchOptions
	emit func(Line) error

	res FileResult
	// Of the lines already passed on: the last one's number, the last
	// match's, and which of the lines kept for context were matches.
	lastSent, lastMatch int
	keptMatch           map[int]bool
	trailing            int // after-context lines owed past the match limit
}

func (s *streamState) run(r io.Reader) (FileResult, error) {
	keep := 0 // lines of one window the next needs in front of it
	if !s.o.CountOnly && !s.o.FilesOnly {
		keep = max(s.o.Before, s.o.After)
	}
	s.keptMatch = map[int]bool{}
	buf := make([]byte, 0, 2*streamWindow)
	first, base := 1, 0 // line number and offset of buf[0]
	prefix := 0         // bytes of buf searched already, kept for context
	eof := false
	quit := !s.o.Text && !s.o.BinaryConvert
	var readErr error
	for {
		var err error
		var nulRead int
		buf, eof, nulRead, err = fillWindow(r, buf, prefix, quit)
		if err != nil {
			// What came before a read error is searched first, as rg
			// searches what a failing decompressor printed.
			readErr, eof = err, true
		}
		end := len(buf)
		if nulRead >= 0 {
			// rg has searched every line that ended before the read that
			// brought the NUL (it searches after each read that brings a
			// line end), and stops there.
			s.res.Binary, eof = true, true
			s.res.NULOffset = int64(base + nulRead + bytes.IndexByte(buf[nulRead:], 0))
			end = prefix + bytes.LastIndexByte(buf[prefix:nulRead], '\n') + 1
		} else if !eof {
			end = prefix + bytes.LastIndexByte(buf[prefix:], '\n') + 1
		}
		fresh := buf[prefix:end]
		if s.o.Interrupt != nil {
			if err := s.o.Interrupt(); err != nil {
				return s.res, err
			}
		}
		if i := bytes.IndexByte(fresh, 0); !s.o.Text && !quit && i >= 0 {
			if !s.res.Binary {
				s.res.NULOffset = int64(base + prefix + i)
			}
			s.res.Binary = true
			for i := range fresh {
				if fresh[i] == 0 {
					fresh[i] = '\n' // rg's "convert": a NUL is a line break
				}
			}
		}
		s.res.Bytes += int64(len(fresh))
		if len(fresh) > 0 {
			done, err := s.window(buf[:end], first, base)
			if err != nil || done {
				return s.res, err
			}
		}
		if readErr != nil {
			return s.res, readErr
		}
		if eof {
			return s.finish()
		}
		cut := keepFrom(buf[:end], keep)
		first += bytes.Count(buf[:cut], []byte{'\n'})
		base += cut
		for n := range s.keptMatch {
			if n < first {
				delete(s.keptMatch, n)
			}
		}
		buf = buf[:copy(buf, buf[cut:])]
		prefix = end - cut
	}
}

// fillWindow reads into buf past its first prefix bytes until it holds
// streamWindow new bytes with a line end among them, or r ends. With quit
// set it stops at a read that brings a NUL byte and returns where that
// read's bytes start (else -1).
func fillWindow(r io.Reader, buf []byte, prefix int, quit bool) ([]byte, bool, int, error) {
	for {
		if len(buf)-prefix >= streamWindow && bytes.IndexByte(buf[prefix:], '\n') >= 0 {
			return buf, false, -1, nil
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		start := len(buf)
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if quit && bytes.IndexByte(buf[start:], 0) >= 0 {
			return buf, true, start, nil
		}
		if errors.Is(err, io.EOF) {
			return buf, true, -1, nil
		}
		if err != nil {
			return buf, false, -1, err
		}
	}
}

// keepFrom is where the last n lines of window start (len(window) for 0).
func keepFrom(window []byte, n int) int {
	at := len(window)
	for ; n > 0 && at > 0; n-- {
		at = bytes.LastIndexByte(window[:at-1], '\n') + 1
	}
	return at
}

// window searches buf, whose first line is line first at offset base; the
// lines up to s.lastSent were passed on before. done: the search is over.
func (s *streamState) window(buf []byte, first, base int) (done bool, err error) {
	if s.trailing > 0 {
		return s.trailingContext(buf, first, base)
	}
	o := s.o
	if o.MaxCount > 0 {
		// Matches among the context lines in front count again here.
		o.MaxCount = o.MaxCount - s.res.MatchedLines + len(s.keptMatch)
	}
	r, err := s.m.Search(buf, o, func(l Line) error {
		l.Number += first - 1
		if l.Number <= s.lastSent {
			return nil
		}
		s.lastSent = l.Number
		if !l.Context {
			s.res.MatchedLines++
			s.lastMatch = l.Number
			s.keptMatch[l.Number] = true
		}
		l.Offset += base
		return s.emit(l)
	})
	if err != nil {
		return true, err
	}
	switch {
	case o.CountOnly || o.FilesOnly:
		s.res.MatchedLines += r.MatchedLines
		if o.FilesOnly && r.MatchedLines > 0 {
			return true, nil
		}
		return s.o.MaxCount > 0 && s.res.MatchedLines >= s.o.MaxCount, nil
	case s.o.MaxCount > 0 && s.res.MatchedLines >= s.o.MaxCount:
		// The last match's after-context may lie in the windows to come.
		last := first - 1 + bytes.Count(buf, []byte{'\n'})
		if len(buf) > 0 && buf[len(buf)-1] != '\n' {
			last++
		}
		s.trailing = s.lastMatch + s.o.After - last
		return s.trailing <= 0, nil
	}
	return false, nil
}

// trailingContext passes on the after-context owed past the match limit:
// the next lines, one that matches as a match (as rg 15 prints and counts
// it), the others as context.
func (s *streamState) trailingContext(buf []byte, first, base int) (bool, error) {
	n := first
	for at := 0; at < len(buf) && s.trailing > 0; n++ {
		le := lineEnd(buf, at)
		ls := at
		at = le + 1
		if n <= s.lastSent {
			continue
		}
		text := s.m.lineText(buf, ls, le)
		l := Line{Number: n, Text: text, Context: true}
		var found bool
		if _, err := s.m.Search(text, SearchOptions{MaxCount: 1, MaxColumns: s.o.MaxColumns, Decoded: true, Text: true, NoSpans: s.o.NoSpans}, func(ml Line) error {
			l, found = ml, true
			return nil
		}); err != nil {
			return true, err
		}
		l.Number, l.Context = n, !found
		if found {
			s.res.MatchedLines++
		}
		l.Located, l.Offset, l.Term = true, base+ls, ""
		if le < len(buf) {
			l.Term = string(buf[len(text)+ls : le+1])
		}
		s.lastSent = n
		s.trailing--
		if err := s.emit(l); err != nil {
			return true, err
		}
	}
	return s.trailing <= 0, nil
}

// finish reports the file: a CountOnly search of data rg stopped at a NUL
// counts nothing, as rg -c prints nothing for it.
func (s *streamState) finish() (FileResult, error) {
	if s.res.Binary && !s.o.BinaryConvert && s.o.CountOnly && (s.o.MaxCount == 0 || s.res.MatchedLines < s.o.MaxCount) {
		s.res.MatchedLines = 0
	}
	return s.res, nil
}
