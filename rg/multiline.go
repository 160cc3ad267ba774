package rg

import (
	"bytes"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/search"
	"github.com/rgkit/rgkit/search/printer"
)

// Under rg -U a match may span lines, and rg prints a block of lines its
// matches touch as one unit: one JSON "match" message, -r's replacement of
// a match across lines, --vimgrep's one line per match, columns counted
// from the block's start. The engines report lines one at a time, so the
// sink holds a run of consecutive match lines and finds the matches again
// over their joined text. rg joins a match to the block when it starts on
// a line the block touches or on the line right after it, so a run of
// adjacent match lines is one block. It is held whole, as rg holds a block
// (its bytes and one offset per line).

// holdsBlocks reports whether match lines are held as blocks: the search
// runs multiline and the output shows where the matches are. (-v's
// selected lines are lines of their own, as rg prints them.)
func (r *rgRun) holdsBlocks() bool {
	return r.multiLine && !r.o.Invert && r.printsSpans() && r.legacy == nil && r.spans != nil && r.spans.matcher() != nil
}

// heldBlock is the run of match lines held: the first line (its number,
// offset, path), the lines' bytes with their terminators, and where the
// last line starts.
type heldBlock struct {
	first    printer.RgLine
	text     []byte
	lines    int
	lastLine int // the last line's number
	lastTerm int // the length of its terminator
}

// holdLine adds a match line to the held run, printing the run first when
// the line does not follow it.
func (s *rgSink) holdLine(rl printer.RgLine) error {
	b := &s.block
	// Past -m's count, rg prints its trailing context line by line, and
	// a line there that matches (and does not go on with a match begun
	// before it) is a block of its own, not part of the one before.
	max := s.run.o.MaxCount
	alone := max != nil && s.matches-int64(rl.Matches()) >= int64(*max) && !rl.Continued
	if b.lines > 0 && (b.lastLine+1 != rl.Number || alone) {
		if err := s.flushBlock(); err != nil {
			return err
		}
	}
	if b.lines == 0 {
		b.first = rl
		b.first.Text, b.first.Submatches = nil, nil
	}
	b.text = append(append(b.text, rl.Text...), rl.Term...)
	b.lines++
	b.lastLine, b.lastTerm = rl.Number, len(rl.Term)
	if alone {
		return s.flushBlock()
	}
	return nil
}

// flushBlock prints the held run of match lines as one of rg's blocks.
func (s *rgSink) flushBlock() error {
	b := &s.block
	if b.lines == 0 {
		return nil
	}
	text := b.text
	before, after := s.aroundBlock(b.first.Offset, len(text))
	hay := text
	if before != nil || after != nil {
		hay = append(append(append(make([]byte, 0, len(before)+len(text)+len(after)), before...), text...), after...)
	}
	if s.run.o.NullData {
		// The matcher reads --null-data's permuted bytes (see
		// native.NullDataReader); the held lines are the file's.
		hay, _ = io.ReadAll(native.NullDataReader(bytes.NewReader(hay)))
	}
	it := s.run.spans.matcher().MultilineMatches(hay)
	next := func() (search.Span, bool) {
		for {
			a, z, ok := it.Next()
			a, z = a-len(before), z-len(before)
			if !ok || a > len(text) || (a == len(text) && a > 0) {
				// An empty match past the run's last line is on the next
				// one; at the end of a file with no final line break rg's
				// printer leaves it out (the line prints as a match line
				// with no match in it: no column, -o prints it whole).
				return search.Span{}, false
			}
			if a < 0 {
				continue // a match of the text before the block
			}
			return search.Span{Start: a, End: min(z, len(text))}, true
		}
	}
	err := s.printBlock(b.first, b.lines, text, b.lastTerm, next)
	b.text, b.lines = b.text[:0], 0
	if cap(b.text) > 1<<20 {
		b.text = nil // a large block's memory goes with it
	}
	return err
}

// aroundLen is how much of the file on each side of a block a -P pattern
// with look-around sees when its matches are found again (rg's see the
// whole file).
const aroundLen = 4 << 10

// aroundBlock reads the file's bytes just before and after a block that
// starts at offset, which the block's matches are found again with: rg
// found them in the whole file, so an assertion at the block's edges
// sees the bytes beyond them (`x\d\s*$` is "x1", not "x1\n", when a
// line follows; \A holds only at the file's start). Up to aroundLen
// bytes for a -P pattern with look-around, one character for an
// assertion of the default engine; nil when there is none to read (no
// such assertion, stdin, a transformed file).
func (s *rgSink) aroundBlock(offset int64, size int) (before, after []byte) {
	o := s.run.o
	pat := strings.Join(o.Patterns, "\n")
	n := 0
	switch {
	case o.PCRE2 && (strings.Contains(pat, "(?<") || strings.Contains(pat, "(?=") || strings.Contains(pat, "(?!")):
		n = aroundLen
	case !o.PCRE2 && (strings.Contains(pat, "$") || strings.Contains(pat, `\z`) || strings.Contains(pat, `\A`) ||
		strings.Contains(pat, `\b`) || strings.Contains(pat, `\B`) || strings.Contains(pat, "-m")):
		n = utf8.UTFMax
	}
	if n == 0 || s.t.stream != nil || readsTransformed(o, s.abs) {
		return nil, nil
	}
	if s.around == nil {
		f, err := os.Open(s.abs)
		if err != nil {
			return nil, nil
		}
		s.around, s.aroundSkip = f, 0
		if o.Encoding != "none" {
			// rg decodes a file that starts with a byte-order mark: the
			// block's offset is in the text after a UTF-8 mark, and a
			// UTF-16 file's text is not its bytes at all.
			var head [3]byte
			k, _ := f.ReadAt(head[:], 0)
			mark, utf16 := byteOrderMark(head[:k])
			s.aroundSkip = int64(mark)
			if utf16 {
				s.aroundSkip = -1
			}
		}
	}
	if s.aroundSkip < 0 {
		return nil, nil
	}
	offset += s.aroundSkip
	start := max(offset-int64(n), s.aroundSkip)
	before = make([]byte, offset-start)
	if k, _ := s.around.ReadAt(before, start); k < len(before) {
		before = nil
	}
	after = make([]byte, n)
	k, _ := s.around.ReadAt(after, offset+int64(size))
	return before, after[:k]
}

// closeAround closes the file aroundBlock reads.
func (s *rgSink) closeAround() {
	if s.around != nil {
		s.around.Close()
		s.around = nil
	}
}

// printBlock prints one block: its lines (text, with their terminators)
// and its matches, in order from next, both counted from the block's first
// byte. The lines go out as the matches are found, except for JSON and -r,
// which need all of the block's matches at once (as rg does).
func (s *rgSink) printBlock(first printer.RgLine, lines int, text []byte, lastTerm int, next func() (search.Span, bool)) error {
	r := s.run
	body := text
	if r.js != nil || r.replacer != nil {
		var matches []search.Span
		for m, ok := next(); ok; m, ok = next() {
			matches = append(matches, m)
		}
		if r.js != nil {
			whole := first
			whole.Text, whole.Term = text[:len(text)-lastTerm], text[len(text)-lastTerm:]
			if lastTerm == 0 {
				whole.Term = nil
			}
			whole.Submatches, whole.MoreSubmatches, whole.BlockLines = matches, 0, lines
			return s.printLine(&whole) // one message, -r's replacements in it
		}
		// rg replaces in the block and prints the lines of the result.
		var spans []search.Span
		body, spans = replaceSpans(r.replacer, *r.o.Replace, search.Line{Text: text, Submatches: matches})
		next = func() (search.Span, bool) {
			if len(spans) == 0 {
				return search.Span{}, false
			}
			m := spans[0]
			spans = spans[1:]
			return m, true
		}
	}
	// pending are the matches found that may touch the current line or a
	// later one; more says next may have others.
	var pending []search.Span
	more, blockColumn := true, 0
	pull := func(limit int) {
		for more && (len(pending) == 0 || pending[len(pending)-1].Start < limit) {
			m, ok := next()
			if !ok {
				more = false
				return
			}
			if blockColumn == 0 {
				blockColumn = m.Start + 1 // the block's first match's, on each line
			}
			pending = append(pending, m)
		}
	}
	for at, n := 0, 0; at < len(body); n++ {
		end := len(body)
		if i := bytes.IndexByte(body[at:], '\n'); i >= 0 {
			end = at + i + 1
		}
		te := end // the line's text ends here, its terminator after
		if te > at && body[te-1] == '\n' {
			te--
			if r.o.CRLF && te > at && body[te-1] == '\r' {
				te-- // else rg prints the '\r' as the line's (and a match's)
			}
		}
		l := first
		l.Number = first.Number + n
		l.Text, l.Term = body[at:te], body[te:end]
		if len(l.Term) == 0 {
			l.Term = nil
		}
		l.Offset = first.Offset + int64(at)
		l.MoreSubmatches, l.Replaced, l.ReplacedSpans = 0, nil, nil
		pull(end)
		drop := 0
		for drop < len(pending) && pending[drop].End <= at && pending[drop].Start < at {
			drop++ // ended before this line
		}
		pending = pending[drop:]
		var sub []search.Span
		var starts []int
		var empty []bool
		for _, m := range pending {
			if m.Start >= end {
				break
			}
			a, z := min(max(m.Start, at), te), min(m.End, te) // the part before the terminator
			if a < z || m.Start >= at {
				sub = append(sub, search.Span{Start: a - at, End: max(a, z) - at})
				starts = append(starts, m.Start)
				empty = append(empty, m.Start == m.End)
			}
		}
		var err error
		switch {
		case (r.cfg.Vimgrep || r.cfg.OnlyMatching) && !more && blockColumn == 0:
			// No match in the block (its one was the empty one at the
			// end of a file with no final line break, which rg's printer
			// leaves out): rg prints the lines whole, with no column.
			err = s.std.Line(l)
		case r.cfg.Vimgrep:
			// One line per match: the line it starts on, but for an
			// empty match at a line's start, which rg prints on no line
			// (it looks for a line that begins before the match ends).
			for k, c := range sub {
				if starts[k] > at || (starts[k] == at && !empty[k]) {
					// -b: rg gives the line's offset here, not the
					// match's (the printer adds the match's start).
					l.Submatches, l.Offset = []search.Span{c}, first.Offset+int64(at-c.Start)
					if err = s.std.Line(l); err != nil {
						break
					}
				}
			}
		case r.cfg.OnlyMatching:
			// Each piece of a match, with the match's column and offset
			// in the block.
			for k, c := range sub {
				if c.Start == c.End {
					continue // the part of a match past the line's text: rg prints none
				}
				l.Submatches, l.BlockColumn = []search.Span{c}, starts[k]+1
				l.Offset = first.Offset + int64(starts[k]-c.Start)
				if err = s.std.Line(l); err != nil {
					break
				}
			}
		default:
			l.Submatches, l.BlockColumn = sub, blockColumn
			err = s.std.Line(l)
		}
		if err != nil {
			return err
		}
		at = end
	}
	return nil
}
