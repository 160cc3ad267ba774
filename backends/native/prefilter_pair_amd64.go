package native

import "golang.org/x/sys/cpu"

var hasPairScan = cpu.X86.HasAVX2

// indexPairAVX2 returns the first position i < npos&^31 where
// data[i+o1]|m1 == b1 and data[i+o2]|m2 == b2, or -1. The caller guarantees
// i+max(o1,o2)+32 <= len(data) for every block it reads.
//
//go:noescape
func indexPairAVX2(data []byte, npos, o1, o2 int, b1, b2, m1, m2 byte) int

// index returns the first position i in [0, npos) where the pair occurs,
// npos being the number of positions at which the whole literal fits.
func (p *pair) index(data []byte, npos int) int {
	if npos >= 32 {
		if i := indexPairAVX2(data, npos, p.o1, p.o2, p.b1, p.b2, p.m1, p.m2); i >= 0 {
			return i
		}
	}
	return p.indexPairScalar(data, npos&^31, npos)
}
