package native

import "bytes"

// runMultiline searches with rg -U semantics, for a pattern that can match
// '\n': a match may span lines. Each physical line a match touches is
// reported as a match line; a match that starts on a line the previous one
// touched joins its block (a match starting on the next line starts a new
// one). The count is the number of matches (what rg -c prints in multiline
// mode), and MaxCount limits it as rg 15 does: after each block, so a block
// is never cut (rg 13 and 14 also joined a match starting on the next line
// and counted blocks).
func (s *fileSearch) runMultiline() error {
	data := s.data
	if s.m.pre != nil {
		sc := s.m.pre.scanner(data)
		if sc.find(0) < 0 {
			return nil // a required literal is missing: no match anywhere
		}
	}
	pos := 0
	blockStart, blockEnd := -1, -1 // [start of first line, end of last line incl. '\n')
	s.ml = s.ml[:0]
	for pos <= len(data) && !s.limitReached() {
		if s.interrupted(pos) {
			return s.stopErr
		}
		ms, me, ok := s.nextMultiMatch(pos)
		if !ok {
			break
		}
		if ms == len(data) && (len(data) == 0 || data[len(data)-1] == '\n') {
			break
		}
		first := bytes.LastIndexByte(data[:ms], '\n') + 1
		last := ms
		if me > ms {
			last = me - 1
		}
		end := lineEnd(data, last) + 1
		if blockStart >= 0 && first < blockEnd {
			blockEnd = max(blockEnd, end)
		} else {
			if blockStart >= 0 {
				if done, err := s.closeBlock(blockStart, blockEnd); done || err != nil {
					return err
				}
			}
			blockStart, blockEnd = first, end
			s.ml = s.ml[:0]
		}
		s.ml = append(s.ml, [2]int{ms, me})
		if me > ms {
			pos = me
		} else {
			pos = me + 1
		}
	}
	if blockStart >= 0 && !s.limitReached() {
		if done, err := s.closeBlock(blockStart, blockEnd); done || err != nil {
			return err
		}
	}
	if s.o.CountOnly {
		return nil
	}
	return s.trailingContext(s.limitReached())
}

// nextMultiMatch finds the next match at or after pos in the whole buffer.
// All matches are found in one pass over the buffer, so ^, \A and \b see
// the real text before pos (a search restarted on data[pos:] would take pos
// for the start of the text).
func (s *fileSearch) nextMultiMatch(pos int) (int, int, bool) {
	if !s.allOK {
		s.all, s.allOK = s.m.appendSpans(s.data, s.all[:0]), true
	}
	for len(s.all) > 0 && s.all[0][0] < pos {
		s.all = s.all[1:]
	}
	if len(s.all) == 0 {
		return 0, 0, false
	}
	m := s.all[0]
	s.all = s.all[1:]
	return m[0], m[1], true
}

// closeBlock counts a finished block of lines [bs, be) holding the matches
// in s.ml and emits it. done reports that the search should stop.
func (s *fileSearch) closeBlock(bs, be int) (done bool, err error) {
	if s.nulIn(bs, be-1) {
		return true, nil
	}
	s.count += len(s.ml)
	if s.o.FilesOnly {
		return true, nil
	}
	if s.o.CountOnly {
		return false, nil
	}
	n := s.lineNumber(bs)
	if err := s.contextBefore(bs, n); err != nil {
		return true, err
	}
	for ls := bs; ls < be && ls < len(s.data); n++ {
		le := lineEnd(s.data, ls)
		s.spans = s.spans[:0]
		for _, mt := range s.ml {
			a, b := max(mt[0], ls), min(mt[1], le)
			if a < b || (mt[0] >= ls && mt[0] <= le) {
				s.spans = append(s.spans, [2]int{a - ls, max(a, b) - ls})
			}
		}
		if err := s.emitLineMatch(ls, le, n, s.spans); err != nil {
			return true, err
		}
		ls = le + 1
	}
	return false, nil
}
