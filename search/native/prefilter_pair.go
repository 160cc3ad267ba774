package native

import (
	"encoding/binary"
	"math/bits"
)

// pairScan is a finder's two-byte scan: it tests eight candidate starts at
// once, eight bytes per word (SWAR), for the literal's two rarest bytes at
// their offsets, and compares the whole literal only where both are there.
// One scanned byte (bytes.IndexByte) stops at every occurrence of it: in
// the Linux tree 'U' comes every 400 bytes and a folded 'u' every 40, and
// each stop costs a call; two bytes together almost never occur by chance,
// so the scan runs through, as ripgrep's "packed pair" does with vectors.
type pairScan struct {
	o1, o2 int    // offsets of the two bytes in the literal
	c1, c2 uint64 // each byte repeated in every lane (lower-case when folded)
	f1, f2 uint64 // 0x20 in every lane when that byte is a folded letter, else 0
}

const (
	lanes01 = 0x0101010101010101
	lanes80 = 0x8080808080808080
)

// newPairScan chooses the two rarest bytes of l at different offsets; ok is
// false for a literal shorter than two bytes.
func newPairScan(l lit) (pairScan, bool) {
	if len(l.s) < 2 {
		return pairScan{}, false
	}
	o1, _ := rareByte(l)
	o2, best := -1, 1<<30
	for i := 0; i < len(l.s); i++ {
		if i == o1 {
			continue
		}
		if f := litByteFreq(l, i); f < best {
			o2, best = i, f
		}
	}
	if o2 < o1 {
		o1, o2 = o2, o1
	}
	p := pairScan{o1: o1, o2: o2}
	p.c1, p.f1 = pairLane(l, o1)
	p.c2, p.f2 = pairLane(l, o2)
	return p, true
}

// pairLane is the repeated byte at offset i of l, and its fold mask.
func pairLane(l lit, i int) (c, fold uint64) {
	b := l.s[i]
	if l.fold && 'a' <= b && b <= 'z' {
		// A letter's two cases differ in bit 0x20 only, and no other byte
		// ORed with 0x20 gives a lower-case letter.
		return lanes01 * uint64(b), lanes01 * 0x20
	}
	return lanes01 * uint64(b), 0
}

// zeroLanes has the high bit set in each byte of x that is zero, and
// perhaps in a byte above a zero one (a borrow): a lane flagged wrongly is
// only compared in vain, and no zero byte is ever missed.
func zeroLanes(x uint64) uint64 {
	return (x - lanes01) &^ x & lanes80
}

// hits flags the starts i..i+7 where both bytes are there.
func (p *pairScan) hits(data []byte, i int) uint64 {
	a := binary.LittleEndian.Uint64(data[i+p.o1:]) | p.f1
	b := binary.LittleEndian.Uint64(data[i+p.o2:]) | p.f2
	return zeroLanes(a^p.c1) & zeroLanes(b^p.c2)
}

// index returns the first start in [from, to) where f.lit occurs, or -1.
func (p *pairScan) index(f *finder, data []byte, from, to int) int {
	n := len(f.lit)
	last := min(len(data)-n, to-1) // the last start to look at
	i := from
	for ; i+15 <= last; i += 16 {
		// Two words per round: their work is independent, so the
		// processor overlaps it.
		z0, z1 := p.hits(data, i), p.hits(data, i+8)
		if z0|z1 == 0 {
			continue
		}
		if at := f.firstAt(data, i, z0); at >= 0 {
			return at
		}
		if at := f.firstAt(data, i+8, z1); at >= 0 {
			return at
		}
	}
	for ; i+7 <= last; i += 8 {
		if at := f.firstAt(data, i, p.hits(data, i)); at >= 0 {
			return at
		}
	}
	for ; i <= last; i++ {
		if f.equalAt(data, i) {
			return i
		}
	}
	return -1
}

// firstAt compares f.lit at the starts z flags from i on (see hits).
func (f *finder) firstAt(data []byte, i int, z uint64) int {
	for ; z != 0; z &= z - 1 {
		if start := i + bits.TrailingZeros64(z)>>3; f.equalAt(data, start) {
			return start
		}
	}
	return -1
}

// equalAt reports whether f.lit occurs at start (start+len(f.lit) <= len(data)).
func (f *finder) equalAt(data []byte, start int) bool {
	s := data[start : start+len(f.lit)]
	if f.fold {
		return equalFoldASCII(s, f.lit)
	}
	return string(s) == f.lit
}
