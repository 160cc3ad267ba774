package native

import (
	"bytes"

	"github.com/rgkit/rgkit/search"
)

// everyRef is a line not emitted yet, kept for Before context.
type everyRef struct {
	ls, le, n int
	match     bool // it matches (Invert: emitted with its submatches)
}

// runEvery is runLines for SearchOptions.Invert and Passthru: every line
// is visited in order, the matching ones found as runLines finds them
// (the prefilter or the DFA from one match to the next), so the lines
// between two matches cost a line split each and no regexp run.
func (s *fileSearch) runEvery() error {
	var sc scanner
	if s.m.pre != nil {
		sc = s.m.pre.scanner(s.data)
		if len(s.data) > 2*releaseWindow {
			sc.window(releaseWindow, func(pos int) bool { return !s.interrupted(pos) })
		}
	}
	data := s.data
	invert, passthru := s.o.Invert, s.o.Passthru
	quiet := s.o.CountOnly || s.o.FilesOnly
	after := s.o.After
	// The next matching line starts at ms (len(data)+1: none left).
	ms := len(data) + 1
	findNext := func(from int) {
		ms = len(data) + 1
		if from < len(data) {
			if s.nextFind != nil {
				if ls, ok := s.nextFind(from); ok {
					ms = ls
				}
			} else if ls, _, ok := s.nextMatchLine(&sc, from); ok {
				ms = ls
			}
		}
	}
	findNext(0)
	if s.stopErr != nil {
		return s.stopErr
	}
	var before []everyRef // (oldest is the first, once full)
	oldest := 0
	fills := rgFills{searched: len(data) + 1} // (set once -m is reached)
	afterLeft := 0
	runs := s.takesRuns()
	noRunBefore := 0 // a run held a NUL: its lines go one at a time
	for pos, n := 0, 1; pos < len(data); n++ {
		if s.interrupted(pos) {
			return s.stopErr
		}
		if runs && pos < ms && pos >= noRunBefore {
			// The lines up to the next match print alike: as one run.
			end, lines := runEnd(data, pos, ms)
			if lines > 0 && s.nulIn(pos, end-1) {
				noRunBefore, lines = end, 0
			}
			if lines > 0 {
				kind := search.KindContext
				if invert {
					kind = search.KindMatch
					s.count += lines
				}
				s.doneEnd, s.doneLine = end, n+lines-1
				if err := s.o.Runs(search.LineRun{Number: n, Lines: lines, Text: data[pos:end], Kind: kind, Offset: int64(pos)}); err != nil {
					return err
				}
				pos, n = end, n+lines-1
				continue
			}
		}
		ls, le := pos, lineEnd(data, pos)
		pos = le + 1
		isMatch := ls == ms
		if isMatch {
			findNext(pos)
			if s.stopErr != nil {
				return s.stopErr
			}
		}
		selected := isMatch != invert
		if s.limitReached() {
			if passthru && !invert {
				// rg prints the rest as context, the matches too.
				if quiet {
					return nil
				}
				if err := s.emitEvery(ls, le, n, false, true); err != nil {
					return err
				}
				continue
			}
			if s.afterLeft = afterLeft; afterLeft == 0 {
				return nil
			}
			if ls >= fills.searched {
				// The trailing context goes on in rg's next buffer fill,
				// whose first line rg 15 prints as a selected one (its
				// -v search of a fill past -m takes the fill's lines for
				// a run of selected lines and prints the first), and
				// the context starts over after it.
				for fills.searched <= ls && fills.next() {
				}
				s.stopBytes = fills.searched
				afterLeft = after
				s.count++
				if quiet {
					continue
				}
				if err := s.emitEvery(ls, le, n, isMatch, false); err != nil {
					return err
				}
				continue
			}
			afterLeft--
			if selected {
				s.count++ // rg 15 counts a selected line in the trailing context
				if invert {
					s.stopBytes = min(pos, len(data)) // (rg moves back to it)
				}
			}
			if quiet {
				continue
			}
			if err := s.emitEvery(ls, le, n, isMatch, !selected); err != nil {
				return err
			}
			continue
		}
		if !selected {
			switch {
			case quiet:
			case passthru:
				if err := s.emitEvery(ls, le, n, isMatch, true); err != nil {
					return err
				}
			case afterLeft > 0:
				afterLeft--
				if err := s.emitEvery(ls, le, n, isMatch, true); err != nil {
					return err
				}
			case s.o.Before > 0:
				// A ring of the last Before lines (-B may be large).
				r := everyRef{ls: ls, le: le, n: n, match: isMatch}
				if len(before) < s.o.Before {
					before = append(before, r)
				} else {
					before[oldest] = r
					oldest = (oldest + 1) % len(before)
				}
			}
			continue
		}
		if s.nulIn(ls, le) {
			return errBinaryStop
		}
		s.count++
		if s.o.FilesOnly {
			return nil
		}
		afterLeft = after
		if s.limitReached() && invert && !passthru {
			// Where rg's buffer fill holding this line ends (see above),
			// and where rg stopped reading: past the matching line that
			// ends this run of selected lines in the fill, else at the
			// fill's end.
			if s.o.Mapped || s.o.KeepNUL {
				// rg searches a mapped file as one buffer.
				fills = rgFills{searched: len(data) + 1}
			} else {
				fills = rgFills{data: data, capacity: rgBufferSize, peek: s.peek, nul: -1}
				for fills.searched <= ls && fills.next() {
				}
			}
			s.stopBytes = min(fills.searched, len(data))
			if ms < fills.searched {
				s.stopBytes = min(lineEnd(data, ms)+1, len(data))
			}
		}
		if quiet {
			continue
		}
		for i := range before {
			b := before[(oldest+i)%len(before)]
			if err := s.emitEvery(b.ls, b.le, b.n, b.match, true); err != nil {
				return err
			}
		}
		before, oldest = before[:0], 0
		if err := s.emitEvery(ls, le, n, isMatch, false); err != nil {
			return err
		}
	}
	s.afterLeft = afterLeft // (owed still: the data ended first)
	s.stopBytes = 0         // rg read to the end
	return nil
}

// takesRuns reports whether runEvery passes runs of lines to
// SearchOptions.Runs: an Invert or Passthru search (not both) with no
// context, -m or count-only mode, over the file's own bytes (its lines
// are printed as they are in it).
func (s *fileSearch) takesRuns() bool {
	o := &s.o
	return o.Runs != nil && o.Invert != o.Passthru && o.Before == 0 && o.After == 0 && o.MaxCount == 0 &&
		!o.CountOnly && !o.FilesOnly && s.raw != nil && !s.m.opts.NullData
}

// runMax bounds a run's bytes, so that an interruption or a mapped file's
// release is seen between runs, as between lines.
const runMax = 256 << 10

// runEnd is the end of the run of whole lines from pos, before ms (the
// next matching line's start, or past the data) and within runMax of pos
// where a line ends there, and how many lines it holds. A last line
// without its '\n' is left out.
func runEnd(data []byte, pos, ms int) (end, lines int) {
	end = min(ms, len(data), pos+runMax)
	if end == pos+runMax && end < ms {
		if i := bytes.LastIndexByte(data[pos:end], '\n'); i >= 0 {
			end = pos + i + 1
		} else {
			end = min(lineEnd(data, pos)+1, ms, len(data)) // one long line
		}
	}
	if end > pos && data[end-1] != '\n' {
		end = pos + bytes.LastIndexByte(data[pos:end], '\n') + 1
	}
	if end <= pos {
		return pos, 0
	}
	return end, bytes.Count(data[pos:end], newline)
}

// emitEvery emits the line [ls, le), numbered n, for runEvery: as context
// or as a match, with its submatches when spans is set.
func (s *fileSearch) emitEvery(ls, le, n int, spans, context bool) error {
	if s.nulIn(ls, le) {
		return errBinaryStop
	}
	if !spans {
		// Nearly every line printed: built once, in place (emitLineMatch
		// copies its Line from call to call, and looks for spans).
		s.doneEnd, s.doneLine = le+1, n
		l := Line{Number: n, Text: s.m.lineText(s.data, ls, le), Context: context}
		s.locateAt(&l, ls, le)
		return s.emit(l)
	}
	var sm [][2]int
	if s.nextFind != nil {
		sm = s.findSpans(ls, le)
	} else {
		sm = s.lineSpans(ls, le)
	}
	s.spannedContext = context
	err := s.emitLineMatch(ls, le, n, sm)
	s.spannedContext = false
	return err
}
