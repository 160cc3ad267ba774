package native

import (
	"bytes"
	"errors"

	"github.com/rgkit/rgkit/search"
)

// SearchOptions says what one file search reports.
type SearchOptions struct {
	// Before and After are context lines (rg -B / -A). With CountOnly,
	// After still counts: see FileResult.MatchedLines.
	Before, After int
	MaxCount      int  // stop after this many matches; 0 = no limit (rg -m)
	CountOnly     bool // count matches, emit nothing (rg -c)
	FilesOnly     bool // stop at the first match, emit nothing (rg -l)
	// BinaryConvert searches past NUL bytes, as rg does for a file named
	// explicitly on its command line: rg (reading, not mapping, the file)
	// turns each NUL into a line terminator, so the lines after a NUL are
	// numbered one higher per NUL, and the text around it splits there.
	BinaryConvert bool
	// KeepNUL, with BinaryConvert, searches a NUL as any other byte: what rg
	// does with a file it maps into memory (at most 10 paths, all files, on
	// its command line), where it cannot rewrite the bytes. Lines keep the
	// numbers their '\n's give them.
	KeepNUL bool
	// Mapped is rg's rule for a file it maps into memory and stops at a
	// NUL in (without BinaryConvert): a NUL in the first 64 KiB means the
	// file is not searched; a later one is seen only in a line about to be
	// reported (a match or context line), and the search stops there
	// without it.
	Mapped bool
	// Interrupt, when set, is polled every few MB of the file; its error
	// ends the search (a deadline or a cancellation inside a large file).
	Interrupt func() error
	// Release, when set, is told as a line-mode search moves on that it no
	// longer needs the first n bytes of the data (never more than once per
	// window of bytes): a mapped file's pages behind it can be dropped, so
	// memory stays bounded whatever the file's size. Reading them again
	// must still work (they are read back from the file).
	Release func(n int)
	// MaxColumns, when positive, is the column cap: submatches starting at or
	// past it are counted in Line.More, not stored (no one can print them).
	MaxColumns int
	// NoStats says the caller reports neither FileResult.Binary nor Bytes
	// for a file without a match (no --stats, no JSON summary): a file in
	// which the prefilter finds no literal a match needs is then not
	// scanned for a NUL byte, which saves a pass over most files of a
	// search for a rare literal. Binary is then false and Bytes the
	// file's length for such a file, NUL or not.
	NoStats bool
	// NoSpans says the caller shows neither where the matches of a line
	// are nor how many it holds (no colour, column, -o, -r, JSON, stats,
	// --max-columns): a match line's Submatches are then not looked for,
	// which on a broad query is a regexp run per printed line.
	NoSpans bool
	// Text is rg -a: a NUL is a byte like any other and no file is binary
	// (BinaryConvert and KeepNUL are implied).
	Text bool
	// Decoded says data is the text to search as it is (decoded already,
	// or rg -E none): no byte-order mark is looked for.
	Decoded bool
	// CountLines asks for FileResult.Lines: how many lines the search
	// went through. rg -v -c prints a file's lines less its matching ones,
	// and counting them here, where the file is in memory, saves reading
	// it again.
	CountLines bool
	// Invert is rg -v in line mode: the lines selected are those that
	// do not match. Each is emitted as a match line without submatches;
	// a matching line is emitted only as Before/After context of a
	// selected one, as a context line that keeps its Submatches (rg
	// colours them and lists them in JSON). MaxCount and
	// FileResult.MatchedLines count the selected lines; past MaxCount
	// only the trailing After context is emitted, a selected line in it
	// still as a match (and counted, as rg 15 counts it). No file is
	// skipped because no literal of the pattern occurs in it (NoStats
	// has no effect): a file without a match is all selected lines.
	Invert bool
	// Runs, when set, takes runs of consecutive lines that print alike
	// (see search.LineRun) from an Invert or Passthru search without
	// context or MaxCount, in place of a call to emit per line: rg -v and
	// --passthru print nearly every line of the tree. Their Path is unset.
	Runs func(search.LineRun) error
	// Passthru is rg --passthru in line mode: every line is emitted, the
	// selected ones (the matching lines, or with Invert the others) as
	// matches and the rest as context. Without Invert, the lines past
	// MaxCount are all emitted as context, a matching one without its
	// submatches, as rg prints them. As with Invert, no file is skipped.
	Passthru bool
	// InvertFinds has a multiline search (a pattern that can match '\n')
	// find its matches as rg -v -U's searcher does, for a caller that
	// selects the lines no match touches: each search starts afresh at
	// the end of the line the match before ended on (a match starting
	// later on that line is not looked for), and MaxCount stops the
	// search after that many finds, not after a block. rg then selects
	// every line past the last find: `rg -v -U -m1 'a\nb'` prints all the
	// lines but the first find's.
	InvertFinds bool
	// probed: the reader looked at the file before it was mapped and found
	// a literal a match needs, and its first NUL at probedNUL (-1: none),
	// so neither is looked for again here.
	probed    bool
	probedNUL int
}

// everyLine says every line of the file is looked at, matching or not
// (Invert, Passthru): no file or region is skipped for want of a
// literal the pattern needs.
func (o *SearchOptions) everyLine() bool { return o.Invert || o.Passthru }

// MaxSubmatches is the most submatches a Line stores; the rest are counted
// in Line.More. A line of 50 MB of 'A' searched for "A" has 50 million
// matches: storing them cost gigabytes.
const MaxSubmatches = 1 << 14

// Line is one reported line. Text and Submatches point into buffers the
// searcher reuses: copy them before emit returns if they must live longer.
type Line struct {
	Number     int      // 1-based
	Text       []byte   // without its terminator ("\n" or "\r\n")
	Submatches [][2]int // byte ranges of the matches within Text; nil for context lines
	Context    bool     // a context line rather than a match
	More       int      // submatches found but not stored (see MaxSubmatches)
	// Continued: multiline, the first submatch is the rest of a match
	// that began on an earlier line.
	Continued bool
	// Located says Offset and Term describe the line in the text rg
	// counts offsets in: the file as read, or the text decoded from its
	// byte-order mark. Offset is the line's first byte and Term the
	// terminator after it ("\n", "\r\n" or "" at the end). Not set when
	// NULs were turned into line ends, or in multiline mode.
	Located bool
	Offset  int
	Term    string
}

// FileResult summarises one file search.
type FileResult struct {
	// MatchedLines is what rg -c prints: matching lines, or in multiline mode
	// (a pattern that can match '\n') matches. In content mode it also counts
	// the matching lines rg prints inside the after-context of the last
	// counted match when MaxCount is hit, and so does a CountOnly search
	// given After, as rg 15's -c does. A CountOnly search of a file rg
	// stops at a NUL reports 0, as rg -c prints nothing for it.
	MatchedLines int
	// Binary reports a NUL byte. In a recursive search (the default) the
	// search stopped where rg stops, reporting only what was found earlier;
	// with BinaryConvert it went on to the end.
	Binary bool
	// NULOffset is where the NUL byte Binary reports is, in the data
	// searched: the first one (rg's "found \0 byte around offset N"); in
	// multiline mode the one in the range where the search stopped. -1
	// without one.
	NULOffset int64
	// Bytes is how many bytes were searched (after transcoding).
	Bytes int64
	// Lines, when LinesCounted, is the number of lines of the text
	// searched (see SearchOptions.CountLines): one per '\n', and one for a
	// last line without it, in the text as rg reads it (a byte-order mark
	// decoded, NULs turned into line ends) up to where rg stops at a NUL
	// (Binary), whatever else (a match, -m) ended the search earlier.
	Lines        int64
	LinesCounted bool
	// MatchedBeforeStop is MatchedLines before a CountOnly search of a
	// file rg stops at a NUL sets it to 0: what rg found before the NUL,
	// which its --stats count though its -c prints nothing.
	MatchedBeforeStop int
}

// Search finds the matches in one file's contents, with rg 15's semantics,
// and passes the lines to emit in order. An error from emit ends the search
// and is returned.
//
// The whole buffer is searched at once: the prefilter or the regexp finds
// the next match anywhere in the data, and only then is the line around it
// located and numbered (line numbers are counted lazily with bytes.Count).
// A -P match that runs past its limits ends the search with a
// *MatchLimitError.
func (m *Matcher) Search(data []byte, o SearchOptions, emit func(Line) error) (res FileResult, err error) {
	if s, b := m.withSentinel(data); s != m {
		// The lines go out with the data's own bytes again.
		if runs := o.Runs; runs != nil {
			o.Runs = func(r search.LineRun) error {
				r.Text = s.fromSentinel(r.Text)
				return runs(r)
			}
		}
		if emit == nil {
			return s.Search(b, o, nil)
		}
		return s.Search(b, o, func(l Line) error {
			l.Text = s.fromSentinel(l.Text)
			return emit(l)
		})
	}
	if m.vm != nil && m.vm.px != nil {
		defer catchMatchLimit(&err)
	}
	return m.search(data, o, emit)
}

func (m *Matcher) search(data []byte, o SearchOptions, emit func(Line) error) (FileResult, error) {
	raw := data
	peek := 3 // rg's BOM sniffer's first read (see decodeBOM)
	if !o.Decoded {
		data, peek = decodeBOM(data)
	}
	if peek == 0 {
		// A byte-order mark was decoded: rg reads such a file through its
		// decoder, never mapped, so a named one's NULs are line breaks.
		o.KeepNUL = false
	}
	if o.Text {
		o.BinaryConvert, o.KeepNUL = true, true
	}
	located := peek > 0 // no BOM: data is the file's own bytes
	// A byte-order mark was decoded: the lines are located in the decoded
	// text, whose offsets rg prints (-b, JSON), not the file's.
	var decoded []byte
	if !located {
		decoded = data
	}
	whole := len(data)
	var end int
	var binary bool
	nulAt := -1
	first := 0 // no literal a match needs occurs before it
	if !located {
		o.Release = nil // data is not the file's bytes: nothing to release
	}
	if o.BinaryConvert && o.KeepNUL {
		// A mapped file named on the command line: its pages are dropped as
		// the NUL scan and then the search move past them.
		nulAt = indexNUL(data, o.Release)
		binary = nulAt >= 0
		end = len(data)
	} else if o.BinaryConvert {
		nulAt = bytes.IndexByte(data, 0)
		data, binary = convertNUL(data)
		end = len(data)
		located = located && !binary
		if binary && decoded != nil {
			// A decoded file's NULs turned into line ends: rg numbers its
			// offsets, and ends its lines, in the converted text.
			decoded = data
		}
	} else if m.multi || o.Mapped {
		end, binary = multilineBinaryCut(data)
		if binary {
			nulAt = bytes.IndexByte(data, 0)
		}
		data = data[:end]
	} else {
		if o.NoStats && !o.probed && !o.everyLine() {
			if first = m.firstCandidate(data, o.Release, o.Interrupt); first < 0 {
				// No match anywhere, so none before a NUL either: where
				// the NUL is (if any) only changes what the caller does
				// not read.
				return FileResult{Bytes: int64(len(data))}, nil
			}
		}
		nul := o.probedNUL
		if !o.probed {
			nul = indexNUL(data, o.Release)
		}
		end, binary = binaryCut(data, peek, nul)
		nulAt = nul
		data = data[:end]
		// The first candidate may lie past the cut (after a binary file's
		// NUL): none is left in the data searched.
		first = min(first, end)
	}
	s := fileSearch{m: m, data: data, o: o, emit: emit, numLine: 1, first: first, peek: peek}
	if located {
		s.raw = raw
	} else if decoded != nil {
		s.raw = decoded
	}
	if m.multi || (o.BinaryConvert && !o.KeepNUL) {
		s.o.Release = nil
	}
	defer s.release()
	var err error
	if m.multi {
		if o.InvertFinds && o.Invert && !o.Passthru {
			err = s.runEveryFinds()
		} else {
			err = s.runMultiline()
		}
		if errors.Is(err, errBinaryStop) {
			err = nil
		}
	} else {
		if o.everyLine() {
			err = s.runEvery()
		} else {
			err = s.runLines()
		}
		if errors.Is(err, errBinaryStop) {
			err = nil
		}
	}
	if s.binary && !binary {
		nulAt = s.nulAt
	}
	if binary && !s.binary && !o.BinaryConvert && s.limitReached() && s.afterLeft == 0 && !o.CountOnly && !(o.Passthru && !o.Invert) {
		// -m stopped rg, and its trailing context, before the fill
		// that brought in the NUL: rg never saw it. (--passthru reads
		// on past -m.)
		binary, end = false, whole
	}
	binary = (binary || s.binary) && !o.Text
	if !binary {
		nulAt = -1
	}
	found := s.count
	if binary && !o.BinaryConvert && o.CountOnly && !s.limitReached() {
		// rg's summary printer squashes the count of a file it stopped
		// reading at a NUL (rg -c prints nothing for it).
		s.count = 0
	}
	res := FileResult{MatchedLines: s.count, MatchedBeforeStop: found, Binary: binary, NULOffset: int64(nulAt), Bytes: int64(end)}
	if s.stopBytes > 0 {
		res.Bytes = int64(s.stopBytes)
	}
	if o.CountLines && err == nil {
		res.Lines, res.LinesCounted = countLines(data, s.o.Release), true
	}
	return res, err
}

// countLines is how many lines data holds: one per '\n', and one for a
// last line without it. With release set (data is the file's own bytes)
// it counts a window at a time and releases each it has counted, as the
// search before it did.
func countLines(data []byte, release func(int)) int64 {
	var n int64
	if release == nil || len(data) <= 2*releaseWindow {
		n = int64(bytes.Count(data, newline))
	} else {
		for at := 0; at < len(data); at += releaseWindow {
			end := min(at+releaseWindow, len(data))
			n += int64(bytes.Count(data[at:end], newline))
			release(end)
		}
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}

var newline = []byte{'\n'}

// fileSearch is the state of one Search call.
type fileSearch struct {
	m    *Matcher
	data []byte
	o    SearchOptions
	emit func(Line) error
	// raw is the whole file when data is its own bytes (perhaps cut at a
	// NUL): lines are then located in it (see Line.Located); nil otherwise.
	raw []byte

	// nextFind, when set, is where the next line a match touches starts,
	// from a line start on (see runEveryFinds), for runEvery.
	nextFind func(from int) (int, bool)

	binary bool // multiline: a reported range held a NUL, so the search stopped there
	nulAt  int  // and where
	count  int  // what rg -c counts: matching lines, or matches in multiline mode
	cont   bool // multiline: the next emitted line's first span continues a match (Line.Continued)

	// numPos/numLine: the line starting at numPos is line numLine; moved
	// forward only, so counting newlines costs one pass over the data.
	numPos, numLine int
	// doneEnd is the offset just past the last emitted line; doneLine its number.
	doneEnd, doneLine int
	afterLeft         int // after-context lines still owed to the last match

	spans [][2]int             // reused submatch buffer
	keep  func(start int) bool // s.keepSpan, taken once (see lineSpans)
	// uncounted is the -U searcher's matches that count for -m only (see
	// mlIter.abutting).
	uncounted int
	more      int   // submatches of the current line not stored in spans
	kept      int   // submatches of the current line stored
	checked   int   // offset where Interrupt was last polled
	released  int   // offset up to which SearchOptions.Release was told
	stopErr   error // Interrupt's error: the search ends with it
	split     splitScratch
	first     int       // the prefilter's first hit, when the search found it before (else 0)
	dc        *dfaCache // this search's DFA states, from the Matcher's pool
	win       *scanWin  // scanLines' window, kept in dc (it is large)
	ml        [][2]int  // multiline: the held matches (see mlBlocks)
	// spannedContext: emitLineMatch emits a context line with its
	// submatches (Invert's matching lines, see runEvery).
	spannedContext bool
	peek           int // rg's first read (see decodeBOM), for rgFills
	// stopBytes, when not 0, is where rg stopped reading the data
	// (Invert past MaxCount): FileResult.Bytes.
	stopBytes int
}

// nulIn reports, in multiline mode or a mapped file, a NUL in [from, to)
// plus its line terminator: rg checks each range it is about to report
// there (the rest of the file was only checked in its first 64 KiB), and
// stops at one.
func (s *fileSearch) nulIn(from, to int) bool {
	if (!s.m.multi && !s.o.Mapped) || s.o.BinaryConvert {
		return false
	}
	if to < len(s.data) {
		to++
	}
	if i := bytes.IndexByte(s.data[from:to], 0); i >= 0 {
		s.binary, s.nulAt = true, from+i
		return true
	}
	return false
}

func (s *fileSearch) release() {
	if s.dc != nil {
		s.m.dfa.put(s.dc)
		s.dc = nil
	}
	if s.m.split != nil {
		s.m.split.release(&s.split)
	}
}

// limitReached applies MaxCount to what rg -c counts: matching lines, or in
// multiline mode matches (added a whole block at a time, see runMultiline).
func (s *fileSearch) limitReached() bool {
	return s.o.MaxCount > 0 && s.count+s.uncounted >= s.o.MaxCount
}

// runLines searches in line mode: no match crosses a line.
func (s *fileSearch) runLines() error {
	var sc scanner
	if s.m.pre != nil {
		sc = s.m.pre.scanner(s.data)
		sc.floor = s.first
		if len(s.data) > 2*releaseWindow {
			// A window at a time: a mapped file's pages are dropped behind
			// it, and a cancellation is seen within a window, not after a
			// scan of the whole file.
			sc.window(releaseWindow, func(pos int) bool { return !s.interrupted(pos) })
		}
	}
	pos := 0
	for pos < len(s.data) && !s.limitReached() {
		ls, le, ok := s.nextMatchLine(&sc, pos)
		if s.stopErr != nil {
			return s.stopErr
		}
		if !ok {
			break
		}
		if !s.o.CountOnly && !s.o.FilesOnly {
			if err := s.contextBefore(ls, s.lineNumber(ls)); err != nil {
				return err
			}
		}
		if s.nulIn(ls, le) {
			return errBinaryStop
		}
		s.count++
		if s.o.FilesOnly {
			return nil
		}
		if !s.o.CountOnly {
			if err := s.emitMatchLine(ls, le); err != nil {
				return err
			}
		}
		pos = le + 1
	}
	if s.o.CountOnly {
		if s.limitReached() && !s.m.opts.PCRE2 {
			s.countTrailing(pos)
		}
		return nil
	}
	return s.trailingContext(s.limitReached())
}

// countTrailing counts, for rg -c with -m and -A, the matching lines among
// the After lines from pos (under -U their matches): since rg 15 a match
// inside the trailing context of the last counted match is counted (rg -c
// -m 2 -A 2 can print 3), as the content printers show it as a match (not
// with -P: see trailingContext). A line matches when its text alone does,
// under -U too: a match across lines there is not seen.
func (s *fileSearch) countTrailing(pos int) {
	for k := 0; k < s.o.After && pos < len(s.data); k++ {
		le := lineEnd(s.data, pos)
		line := s.data[pos:s.matchEnd(pos, le)]
		switch {
		case !s.lineMatches(line):
		case s.m.multi:
			// -U's count is of matches: those of the line alone.
			s.m.EachSpan(line, func(int, int) bool { s.count++; return true })
		default:
			s.count++
		}
		pos = le + 1
	}
}

// nextMatchLine returns the bounds of the first matching line at or after
// pos (a line start): [ls, le) with le at its '\n' or the end of the data.
func (s *fileSearch) nextMatchLine(sc *scanner, pos int) (int, int, bool) {
	data := s.data
	if s.m.pre != nil {
		start := pos // a line start at or before pos
		for pos < len(data) {
			c := sc.find(pos)
			if c < 0 {
				return 0, 0, false
			}
			if s.m.split != nil {
				// Around the literal, before the line is located: most
				// occurrences are rejected in a byte or two.
				if s.interrupted(c) {
					return 0, 0, false
				}
				if ok, decided := s.m.split.quickMatch(data, c, &s.split); decided {
					if ok {
						return start + bytes.LastIndexByte(data[start:c], '\n') + 1, lineEnd(data, c), true
					}
					pos = c + 1
					continue
				}
			}
			ls := start + bytes.LastIndexByte(data[start:c], '\n') + 1
			le := lineEnd(data, c)
			if s.interrupted(ls) {
				return 0, 0, false
			}
			if w := s.m.wholeLine; w != "" {
				if string(data[ls:s.matchEnd(ls, le)]) == w {
					return ls, le, true
				}
			} else if s.m.exact || s.candidateMatches(ls, le, c) {
				return ls, le, true
			}
			pos, start = le+1, le+1
		}
		return 0, 0, false
	}
	if s.m.dfa != nil && !s.m.opts.CRLF {
		return s.scanLines(pos)
	}
	// No literal to look for: decide line by line (the DFA, else the
	// regexp on the line, where Go uses its backtracker, fast on short
	// inputs, rather than the NFA simulation it needs for a whole buffer).
	for pos < len(data) {
		if s.interrupted(pos) {
			return 0, 0, false
		}
		le := lineEnd(data, pos)
		if s.lineMatches(data[pos:s.matchEnd(pos, le)]) {
			return pos, le, true
		}
		pos = le + 1
	}
	return 0, 0, false
}

// scanLines is nextMatchLine without a literal to look for: the DFA reads
// the data a window at a time, going from line to line inside its table,
// and the line around the first match it meets is located only then, so a
// line that does not match costs its bytes and nothing per line. A line
// the DFA cannot decide goes to lineMatches. (Not with --crlf, where the
// matcher's view of a line ends before its "\r\n": see matchEnd.)
func (s *fileSearch) scanLines(pos int) (int, int, bool) {
	data := s.data
	if s.dc == nil {
		s.dc = s.m.dfa.get()
	}
	if s.win == nil {
		s.win = &s.dc.win
		s.win.to = 0 // left by the cache's last search
	}
	for pos < len(data) {
		if s.interrupted(pos) {
			return 0, 0, false
		}
		if pos >= s.win.to {
			s.newWindow(pos)
		}
		to := s.win.to
		at, st, res := s.scanWindow(pos)
		s.dc.work += at - pos
		switch res {
		case scanMatch:
			ls := pos + bytes.LastIndexByte(data[pos:at], '\n') + 1
			return ls, lineEnd(data, at), true
		case scanUnsure:
			ls := pos + bytes.LastIndexByte(data[pos:at], '\n') + 1
			le := lineEnd(data, at)
			if s.lineMatches(data[ls:le]) {
				return ls, le, true
			}
			pos = le + 1
			continue
		}
		if data[to-1] != '\n' && s.dc.matchesAtEnd(int(st)) {
			// The last line, with no '\n' after it, matches at its end.
			return pos + bytes.LastIndexByte(data[pos:to], '\n') + 1, to, true
		}
		pos = to
	}
	return 0, 0, false
}

// interruptEvery is how many bytes of a file are searched between two polls
// of SearchOptions.Interrupt: a few milliseconds of scanning.
const interruptEvery = 4 << 20

// interrupted polls SearchOptions.Interrupt once the search has moved
// interruptEvery bytes past the last poll, and records its error.
func (s *fileSearch) interrupted(pos int) bool {
	if s.o.Release != nil && pos-s.released >= releaseWindow && pos <= len(s.data) {
		s.releaseTo(pos)
	}
	if s.o.Interrupt == nil || pos-s.checked < interruptEvery {
		return s.stopErr != nil
	}
	s.checked = pos
	if err := s.o.Interrupt(); err != nil {
		s.stopErr = err
	}
	return s.stopErr != nil
}

// lastIndexByte is bytes.LastIndexByte at bytes.IndexByte's speed: the
// standard one tests a byte at a time, which over a whole file (the last
// NUL of a multiline search's text) cost 8% of a -U search. Each 4 KiB
// block from the end is first tested with the vectorised IndexByte.
func lastIndexByte(data []byte, c byte) int {
	const block = 4 << 10
	for end := len(data); end > 0; end -= block {
		start := max(end-block, 0)
		if bytes.IndexByte(data[start:end], c) >= 0 {
			return start + bytes.LastIndexByte(data[start:end], c)
		}
	}
	return -1
}

func lineEnd(data []byte, from int) int {
	if i := bytes.IndexByte(data[from:], '\n'); i >= 0 {
		return from + i
	}
	return len(data)
}

// candidateMatches confirms the line [ls, le) where the prefilter found a
// literal at c.
func (s *fileSearch) candidateMatches(ls, le, c int) bool {
	le = s.matchEnd(ls, le)
	line := s.data[ls:le]
	if s.m.split != nil && c < le {
		// Around the literal first: a few bytes each side usually decide.
		if ok, decided := s.m.split.match(line, c-ls, &s.split); decided {
			return ok
		}
	}
	if ok, decided := s.dfaMatch(line); decided {
		return ok
	}
	return s.regexpMatch(line)
}

// matchEnd is where the matcher's view of the line [ls, le) ends: with
// --crlf the '\r' of its "\r\n" is left out. rg's matcher sees the "\n"
// after it, so (?R)'s '^' never matches between the two and '$' matches
// before the '\r'; the line given to the matcher ends before the "\n",
// where a '\r' would look like a line end of its own ('^$' matched "a\r").
func (s *fileSearch) matchEnd(ls, le int) int {
	if s.m.opts.CRLF && le > ls && le < len(s.data) && s.data[le-1] == '\r' {
		return le - 1
	}
	return le
}

// lineMatches reports whether a line holds a match.
func (s *fileSearch) lineMatches(line []byte) bool {
	if ok, decided := s.dfaMatch(line); decided {
		return ok
	}
	return s.regexpMatch(line)
}

// dfaMatch asks the line DFA; decided is false when it cannot tell.
func (s *fileSearch) dfaMatch(line []byte) (ok, decided bool) {
	if s.m.dfa == nil {
		return false, false
	}
	if s.dc == nil {
		s.dc = s.m.dfa.get()
	}
	return s.dc.match(line)
}

// regexpMatch runs the full matcher (Go's regexp or the VM) on a line.
func (s *fileSearch) regexpMatch(line []byte) bool {
	return s.m.matchBytes(line)
}

// releaseWindow is how far a search moves between two calls of
// SearchOptions.Release, and how much of the data a windowed scanner looks
// at at once. Each worker's mapped file keeps up to about two windows of
// pages in memory: at 2 MiB that was 4 of the 27 MiB peak RSS of a search
// of the Linux tree (whose register headers reach 24 MB).
const releaseWindow = 512 << 10

// releaseTo tells SearchOptions.Release that the data before pos is done
// with. Line numbering moves up to pos first, so it never reads back the
// dropped bytes; a before-context may still read some back.
func (s *fileSearch) releaseTo(pos int) {
	if pos <= s.released || pos < s.numPos {
		return
	}
	// Number up to the start of pos's line: a match found later starts
	// there at the earliest. Only the bytes since the last release are
	// looked at: a file of one 200 MB line looked at all of them again at
	// each window.
	from := max(s.numPos, s.released)
	if i := bytes.LastIndexByte(s.data[from:pos], '\n'); i >= 0 {
		s.lineNumber(from + i + 1)
	}
	s.released = pos
	s.o.Release(s.numPos)
}

// lineNumber returns the number of the line starting at off (off >= numPos).
func (s *fileSearch) lineNumber(off int) int {
	s.numLine += bytes.Count(s.data[s.numPos:off], []byte{'\n'})
	s.numPos = off
	return s.numLine
}

// emitMatchLine emits the context owed before a match line, then the line.
func (s *fileSearch) emitMatchLine(ls, le int) error {
	n := s.lineNumber(ls)
	if err := s.contextBefore(ls, n); err != nil {
		return err
	}
	return s.emitLineMatch(ls, le, n, s.lineSpans(ls, le))
}

// lineSpans returns the submatches of the line [ls, le): at most
// MaxSubmatches, and none starting past the column cap; s.more counts the
// others (a Line holds what can be printed, whatever the line holds).
func (s *fileSearch) lineSpans(ls, le int) [][2]int {
	s.more, s.kept = 0, 0
	if s.o.NoSpans {
		return nil
	}
	var overflow bool
	le = s.matchEnd(ls, le)
	if s.keep == nil {
		s.keep = s.keepSpan // (a method value is allocated where it is taken)
	}
	s.spans, overflow = s.m.lineSpansCapped(s.data, ls, le, s.spans[:0], s.keep)
	if overflow {
		// Past MaxSubmatches: count the rest without storing them.
		s.more = s.m.countLineMatches(s.data, ls, le) - len(s.spans)
	}
	return s.spans
}

// keepSpan reports whether a submatch starting at start is stored, and
// counts it in s.more when it is not.
func (s *fileSearch) keepSpan(start int) bool {
	// The first match is always kept: it gives the line its column, which
	// is reported even when the column cap cuts the match off.
	if s.kept >= MaxSubmatches || (s.kept > 0 && s.o.MaxColumns > 0 && start >= s.o.MaxColumns) {
		s.more++
		return false
	}
	s.kept++
	return true
}

func (s *fileSearch) emitLineMatch(ls, le, n int, spans [][2]int) error {
	text := s.m.lineText(s.data, ls, le)
	if s.m.opts.CRLF && !s.m.opts.PCRE2 && len(text) < le-ls {
		// --crlf: '$' never matches between "\r" and "\n", so nothing
		// starts past the '\r'. (PCRE2's any-CRLF convention lets a
		// match start there: see pcreMode.crlf.)
		k := len(spans)
		for k > 0 && spans[k-1][0] > len(text) {
			k--
		}
		spans = spans[:k]
	}
	for i := range spans {
		spans[i][0] = min(spans[i][0], len(text))
		spans[i][1] = min(spans[i][1], len(text))
	}
	if k := len(spans) - 1; k >= 0 && le == len(s.data) && spans[k][0] == le-ls && spans[k][1] == le-ls {
		spans = spans[:k] // rg drops an empty match at the very end of the data
	}
	s.doneEnd, s.doneLine = le+1, n
	s.afterLeft = s.o.After
	more := s.more
	s.more = 0
	cont := s.cont
	s.cont = false
	return s.emit(s.locate(Line{Number: n, Text: text, Submatches: spans, More: more, Continued: cont && len(spans) > 0, Context: s.spannedContext}, ls, le))
}

// locate sets l's offset and terminator, the line being [ls, le) of the
// data, when the data is the file's own bytes.
func (s *fileSearch) locate(l Line, ls, le int) Line {
	s.locateAt(&l, ls, le)
	return l
}

// locateAt is locate in place.
func (s *fileSearch) locateAt(l *Line, ls, le int) {
	raw := s.raw
	switch {
	case raw == nil:
	case le >= len(raw):
		l.Located, l.Offset = true, ls
	case raw[le] == '\n':
		l.Located, l.Offset, l.Term = true, ls, "\n"
		if le > ls && raw[le-1] == '\r' && !s.m.opts.NullData {
			l.Term = "\r\n"
		}
	}
}

// lineText is the text of line [ls, le) of data: without the '\r' of a
// "\r\n" end (rg's printer takes it for part of the line end), except
// under --null-data, where that '\r' is a record's own '\n', permuted.
func (m *Matcher) lineText(data []byte, ls, le int) []byte {
	if m.opts.NullData {
		return data[ls:le]
	}
	return trimCR(data, ls, le)
}

// trimCR returns the text of line [ls, le) without the '\r' of a "\r\n" end.
func trimCR(data []byte, ls, le int) []byte {
	if le < len(data) && le > ls && data[le-1] == '\r' {
		return data[ls : le-1]
	}
	return data[ls:le]
}

// contextBefore emits what is owed before the line starting at ls (number
// n): the rest of the previous match's after-context, then this match's
// before-context, never repeating a line.
func (s *fileSearch) contextBefore(ls, n int) error {
	for s.afterLeft > 0 && s.doneEnd < ls {
		if err := s.emitContext(s.doneEnd, s.doneLine+1); err != nil {
			return err
		}
		s.afterLeft--
	}
	start, k := ls, 0
	for k < s.o.Before && start > s.doneEnd {
		start = s.doneEnd + bytes.LastIndexByte(s.data[s.doneEnd:start-1], '\n') + 1
		k++
	}
	for line := n - k; start < ls; line++ {
		if err := s.emitContext(start, line); err != nil {
			return err
		}
		start = s.doneEnd
	}
	return nil
}

// errBinaryStop ends a multiline search at a range holding a NUL.
var errBinaryStop = errors.New("binary data")

// emitContext emits the line starting at ls, numbered n, as context.
func (s *fileSearch) emitContext(ls, n int) error {
	return s.emitContextLine(ls, lineEnd(s.data, ls), n)
}

// emitContextLine is emitContext of the line [ls, le).
func (s *fileSearch) emitContextLine(ls, le, n int) error {
	if s.nulIn(ls, le) {
		return errBinaryStop
	}
	s.doneEnd, s.doneLine = le+1, n
	return s.emit(s.locate(Line{Number: n, Text: s.m.lineText(s.data, ls, le), Context: true}, ls, le))
}

// trailingContext emits the after-context of the last match. When the
// match limit was hit, rg still prints that context, and shows a line in it
// that matches as a match (it does not extend the context) — not with -P
// in line mode, whose matcher rg runs line by line, matching nothing past
// the limit (under -U rg searches -P's whole text as any other's).
func (s *fileSearch) trailingContext(limitHit bool) error {
	for s.afterLeft > 0 && s.doneEnd < len(s.data) {
		ls, n := s.doneEnd, s.doneLine+1
		le := lineEnd(s.data, ls)
		left := s.afterLeft - 1
		if limitHit && !(s.m.opts.PCRE2 && !s.m.multi) && s.lineMatches(s.data[ls:s.matchEnd(ls, le)]) {
			s.count++
			if err := s.emitLineMatch(ls, le, n, s.lineSpans(ls, le)); err != nil {
				return err
			}
		} else if err := s.emitContext(ls, n); err != nil {
			return err
		}
		s.afterLeft = left
	}
	return nil
}
