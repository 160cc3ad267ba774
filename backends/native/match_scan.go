package native

// A table walk waits for each lookup before the next (the state read is
// the next index), so one stream of bytes leaves the processor idle most
// of the time. scanLines reads a window of the data as two halves at once:
// two independent walks fill it.

// scanStop is where a scan stopped and why (scanMatch or scanUnsure).
type scanStop struct{ at, res int }

// scanAhead is the second half of a window read as two halves: how far it
// was read, and the stops found in it that the search has not reached yet.
// After a stop it reads on from the next line in the start state, so a
// search that stops at every few lines still reads two streams at once.
type scanAhead struct {
	pos     int   // the next byte to read
	state   int32 // the DFA's state there
	restart int   // the line start it last read on from, in the start state
	stops   [64]scanStop
	head, n int  // stops[head:n] are still to be reported
	done    bool // the search has read on from pos itself: pos and state are spent
}

// scanHalves is scan over data[from:to] from the start state (from is a
// line start), read as two halves at once: [from, mid), and from mid (a
// line start too) on as ahead says. A stop in the first half is reported
// at once; the second half's are reported in order once the first half is
// read to its end (see next), so the search sees scan's stops, in scan's
// order. When ahead holds as many stops as it can, the first half is read
// on alone.
func (c *dfaCache) scanHalves(data []byte, from, mid, to int, ahead *scanAhead) (at int, state int32, res int) {
	if len(c.states) == 0 && !c.start() {
		return from, 0, scanUnsure
	}
	cls := &c.d.classes
	t := c.trans
	data = data[:to]
	first := data[:mid]
	i, j := from, ahead.pos
	// The states as uint32: a load of one widens to an index for free,
	// where an int32 costs the walk a sign extension per byte.
	a, b := uint32(0), uint32(ahead.state)
	for i < len(first) && j < len(data) && ahead.n < len(ahead.stops) {
		va := uint32(t[int(a)+int(cls[first[i]])])
		vb := uint32(t[int(b)+int(cls[data[j]])])
		if int32(va|vb) < 0 {
			if int32(va) < 0 {
				v, i2 := c.scanStep(int32(a), first, i, int32(va))
				if i = i2; v < 0 {
					ahead.pos, ahead.state = j, int32(b)
					return i, int32(a), scanEnd(v)
				}
				va = uint32(v)
			}
			if int32(vb) < 0 {
				v, j2 := c.scanStep(int32(b), data, j, int32(vb))
				if j = j2; v < 0 {
					ahead.stops[ahead.n] = scanStop{at: j, res: scanEnd(v)}
					ahead.n++
					j = min(lineEnd(data, j)+1, len(data))
					ahead.restart = j
					t = c.trans
					a, b = va, 0
					i++
					continue
				}
				vb = uint32(v)
			}
			t = c.trans
		}
		a, b = va, vb
		i++
		j++
	}
	ahead.pos, ahead.state = j, int32(b)
	if i < mid {
		if at, st, res := c.scan(first, i, mid, int32(a)); res != scanNone {
			return at, st, res
		}
	}
	return ahead.next(c, data, mid, to)
}

// next goes on with the search past the first half, at pos: the second
// half's stops first, then the rest of the window read on from where the
// second half was (once), or from pos.
func (h *scanAhead) next(c *dfaCache, data []byte, pos, to int) (int, int32, int) {
	if h.head < h.n {
		s := h.stops[h.head]
		h.head++
		return s.at, 0, s.res
	}
	if !h.done {
		h.done = true
		if h.pos >= to {
			return to, h.state, scanNone
		}
		return c.scan(data, h.pos, to, h.state)
	}
	return c.scan(data, pos, to, 0)
}

// voidState is told that the DFA's cache was reset (see dfaCache.match):
// the state the second half was in means nothing now, so it is read again
// from where it last started a line.
func (h *scanAhead) voidState() {
	if !h.done {
		h.pos, h.state = h.restart, 0
	}
}

// scanWin is the window of the data scanLines reads, from a line start:
// it ends at to, after a '\n' (so the next one starts a line, in the start
// state, and no rune is cut) or at the end of the data. When it is large
// enough it is read as two halves at once, the second from mid.
type scanWin struct {
	to, mid int
	ahead   scanAhead
	gen     int // the DFA cache's generation ahead's state belongs to
}

// scanHalvesMin is the smallest window read as two halves.
const scanHalvesMin = 2 << 10

func (s *fileSearch) newWindow(pos int) {
	w := s.win
	w.to, w.mid, w.gen = len(s.data), -1, s.dc.gen
	if w.to-pos > releaseWindow {
		w.to = min(lineEnd(s.data, pos+releaseWindow)+1, len(s.data))
	}
	w.ahead.head, w.ahead.n, w.ahead.done = 0, 0, false
	if w.to-pos >= scanHalvesMin {
		if mid := lineEnd(s.data[:w.to], pos+(w.to-pos)/2) + 1; mid < w.to {
			w.mid = mid
			w.ahead.pos, w.ahead.state, w.ahead.restart = mid, 0, mid
		}
	}
}

// scanWindow runs the DFA's scan over the window from pos (a line start)
// from the start state: as two halves at once while pos is in the first,
// then on through what the second half found.
func (s *fileSearch) scanWindow(pos int) (int, int32, int) {
	w := s.win
	if w.mid < 0 {
		return s.dc.scan(s.data, pos, w.to, 0)
	}
	if w.gen != s.dc.gen {
		w.ahead.voidState()
		w.gen = s.dc.gen
	}
	if pos < w.mid {
		return s.dc.scanHalves(s.data, pos, w.mid, w.to, &w.ahead)
	}
	return w.ahead.next(s.dc, s.data[:w.to], pos, w.to)
}
