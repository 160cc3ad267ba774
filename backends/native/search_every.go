package native

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
			if ls, _, ok := s.nextMatchLine(&sc, from); ok {
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
	for pos, n := 0, 1; pos < len(data); n++ {
		if s.interrupted(pos) {
			return s.stopErr
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
	sm := s.lineSpans(ls, le)
	s.spannedContext = context
	err := s.emitLineMatch(ls, le, n, sm)
	s.spannedContext = false
	return err
}
