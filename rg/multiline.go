package rg

import (
	"bytes"

	"github.com/rgkit/rgkit/search"
	"github.com/rgkit/rgkit/search/printer"
)

// Under rg -U a match may span lines, and rg prints a block of lines its
// matches touch as one unit: one JSON "match" message, -r's replacement of
// a match across lines, --vimgrep's one line per match, columns counted
// from the block's start. The engines report lines one at a time, so the
// sink holds a run of consecutive match lines, finds the matches again over
// their joined text, and cuts it into rg's blocks: a match joins the block
// when it starts on a line the block touches or on the line right after
// it. A run is held whole, as rg holds a block.

// holdsBlocks reports whether match lines are held as blocks: the search
// runs multiline and the output shows where the matches are.
func (r *rgRun) holdsBlocks() bool {
	return r.multiLine && r.printsSpans() && r.legacy == nil && r.spans != nil && r.spans.matcher() != nil
}

// holdLine adds a match line to the held run, printing the run first when
// the line does not follow it.
func (s *rgSink) holdLine(rl printer.RgLine) error {
	if n := len(s.block); n > 0 && s.block[n-1].Number+1 != rl.Number {
		if err := s.flushBlock(); err != nil {
			return err
		}
	}
	rl.Text = bytes.Clone(rl.Text)
	rl.Submatches = append([]search.Span(nil), rl.Submatches...)
	s.block = append(s.block, rl)
	return nil
}

// flushBlock prints the held run of match lines as rg's blocks.
func (s *rgSink) flushBlock() error {
	lines := s.block
	s.block = nil
	if len(lines) == 0 {
		return nil
	}
	starts := make([]int, len(lines)+1)
	var text []byte
	for i, l := range lines {
		starts[i] = len(text)
		text = append(append(text, l.Text...), l.Term...)
	}
	starts[len(lines)] = len(text)
	lineOf := func(pos int) int {
		i := 0
		for i+1 < len(lines) && starts[i+1] <= pos {
			i++
		}
		return i
	}
	var matches []search.Span
	s.run.spans.matcher().EachMultilineMatch(text, func(a, b int) bool {
		if a == len(text) && a > 0 && text[a-1] == '\n' {
			return false // an empty match past the run's last line is on the next one
		}
		matches = append(matches, search.Span{Start: a, End: b})
		return true
	})
	done := 0 // lines printed
	for k := 0; k < len(matches); {
		first := lineOf(matches[k].Start)
		be := lineOf(max(matches[k].Start, matches[k].End-1)) + 1
		j := k + 1
		for ; j < len(matches); j++ {
			f := lineOf(matches[j].Start)
			if f > be {
				break
			}
			be = max(be, lineOf(max(matches[j].Start, matches[j].End-1))+1)
		}
		for ; done < first; done++ {
			if err := s.printLine(lines[done]); err != nil { // not found again: as the engine gave it
				return err
			}
		}
		if err := s.printBlock(lines[first:be], text[starts[first]:starts[be]], shift(matches[k:j], -starts[first])); err != nil {
			return err
		}
		done, k = be, j
	}
	for ; done < len(lines); done++ {
		if err := s.printLine(lines[done]); err != nil {
			return err
		}
	}
	return nil
}

func shift(spans []search.Span, by int) []search.Span {
	out := make([]search.Span, len(spans))
	for i, sp := range spans {
		out[i] = search.Span{Start: sp.Start + by, End: sp.End + by}
	}
	return out
}

// printBlock prints one block: its lines (text, with their terminators)
// and its matches, both counted from the block's first byte.
func (s *rgSink) printBlock(lines []printer.RgLine, text []byte, matches []search.Span) error {
	r := s.run
	first := lines[0]
	lastTerm := lines[len(lines)-1].Term
	whole := first
	whole.Text, whole.Term = text[:len(text)-len(lastTerm)], lastTerm
	whole.Submatches, whole.MoreSubmatches, whole.BlockLines = matches, 0, len(lines)
	if r.js != nil {
		return s.printLine(whole) // one message, -r's replacements in it
	}
	body, spans := text, matches
	if r.replacer != nil {
		// rg replaces in the block and prints the lines of the result.
		body, spans = replaceSpans(r.replacer, *r.o.Replace, search.Line{Text: text, Submatches: matches})
	}
	type piece struct{ start, end, textEnd int }
	var pieces []piece
	for at := 0; at < len(body); {
		end := len(body)
		if i := bytes.IndexByte(body[at:], '\n'); i >= 0 {
			end = at + i + 1
		}
		te := end
		if te > at && body[te-1] == '\n' {
			te--
			if te > at && body[te-1] == '\r' {
				te--
			}
		}
		pieces = append(pieces, piece{at, end, te})
		at = end
	}
	line := func(i int, sub []search.Span) printer.RgLine {
		p := pieces[i]
		l := first
		l.Number = first.Number + i
		l.Text, l.Term = body[p.start:p.textEnd], body[p.textEnd:p.end]
		if len(l.Term) == 0 {
			l.Term = nil
		}
		l.Offset = first.Offset + int64(p.start)
		l.Submatches, l.MoreSubmatches, l.Replaced, l.ReplacedSpans = sub, 0, nil, nil
		return l
	}
	// clip is the part of m on piece i, counted from the piece's start.
	clip := func(i int, m search.Span) (search.Span, bool) {
		p := pieces[i]
		a, z := max(m.Start, p.start), min(m.End, p.textEnd)
		if a < z || (m.Start >= p.start && m.Start <= p.textEnd) {
			return search.Span{Start: a - p.start, End: max(a, z) - p.start}, true
		}
		return search.Span{}, false
	}
	if r.cfg.Vimgrep {
		// One line per match: the line it starts on.
		for _, m := range spans {
			for i := range pieces {
				if c, ok := clip(i, m); ok {
					if err := s.std.Line(line(i, []search.Span{c})); err != nil {
						return err
					}
					break
				}
			}
		}
		return nil
	}
	for i := range pieces {
		var sub []search.Span
		var starts []int
		for _, m := range spans {
			if c, ok := clip(i, m); ok {
				sub = append(sub, c)
				starts = append(starts, m.Start)
			}
		}
		if r.cfg.OnlyMatching {
			// Each piece of a match, with the match's column and offset
			// in the block.
			for k, c := range sub {
				l := line(i, []search.Span{c})
				l.BlockColumn = starts[k] + 1
				l.Offset = first.Offset + int64(starts[k]-c.Start)
				if err := s.std.Line(l); err != nil {
					return err
				}
			}
			continue
		}
		l := line(i, sub)
		if len(spans) > 0 {
			l.BlockColumn = spans[0].Start + 1 // the block's first match's, on each line
		}
		if err := s.std.Line(l); err != nil {
			return err
		}
	}
	return nil
}
