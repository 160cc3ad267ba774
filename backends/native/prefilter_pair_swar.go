package native

import (
	"encoding/binary"
	"math/bits"
)

// The SWAR pair scan reads the 8 bytes at o1 and the 8 at o2 of 8
// consecutive positions as two little-endian words, ORs in the masks and
// XORs with the wanted bytes broadcast: a byte of the result is zero where
// the wanted byte is. The zero test below is exact in every lane (no carry
// crosses a byte), so the two words' zero lanes can be ANDed and the lowest
// one is the first position.

const (
	swarOnes = 0x0101010101010101
	swarLow7 = 0x7f7f7f7f7f7f7f7f
)

// swarNonZero sets the top bit of each byte of x that is not zero, and only
// those: the low 7 bits added to 0x7f carry into the top bit when any is
// set, and the top bit itself is ORed in.
func swarNonZero(x uint64) uint64 {
	return ((x & swarLow7) + swarLow7) | x
}

// indexPairSWAR is index 16 then 8 positions per step, the rest one by
// one.
func (p *pair) indexPairSWAR(data []byte, npos int) int {
	if npos < 8 {
		return p.indexPairScalar(data, 0, npos)
	}
	b1, b2 := uint64(p.b1)*swarOnes, uint64(p.b2)*swarOnes
	m1, m2 := uint64(p.m1)*swarOnes, uint64(p.m2)*swarOnes
	// The bytes at o1 and at o2 of positions [0, npos): inside data, as
	// npos+max(o1,o2) <= len(data).
	d1, d2 := data[p.o1:p.o1+npos], data[p.o2:p.o2+npos]
	i := 0
	for ; len(d1) >= 16 && len(d2) >= 16; i += 16 {
		w1 := (binary.LittleEndian.Uint64(d1) | m1) ^ b1
		w2 := (binary.LittleEndian.Uint64(d2) | m2) ^ b2
		v1 := (binary.LittleEndian.Uint64(d1[8:]) | m1) ^ b1
		v2 := (binary.LittleEndian.Uint64(d2[8:]) | m2) ^ b2
		lo := ^(swarNonZero(w1) | swarNonZero(w2) | swarLow7)
		hi := ^(swarNonZero(v1) | swarNonZero(v2) | swarLow7)
		if lo|hi != 0 {
			if lo != 0 {
				return i + bits.TrailingZeros64(lo)>>3
			}
			return i + 8 + bits.TrailingZeros64(hi)>>3
		}
		d1, d2 = d1[16:], d2[16:]
	}
	if len(d1) >= 8 && len(d2) >= 8 {
		w1 := (binary.LittleEndian.Uint64(d1) | m1) ^ b1
		w2 := (binary.LittleEndian.Uint64(d2) | m2) ^ b2
		if both := ^(swarNonZero(w1) | swarNonZero(w2) | swarLow7); both != 0 {
			return i + bits.TrailingZeros64(both)>>3
		}
		i += 8
	}
	return p.indexPairScalar(data, i, npos)
}
