//go:build amd64 || arm64

package native

// indexPairBlocks returns the first position i < npos&^31 where
// data[i+o1]|m1 == b1 and data[i+o2]|m2 == b2, or -1, checking 32
// positions per step: AVX2 (prefilter_pair_amd64.s), NEON
// (prefilter_pair_arm64.s). The caller guarantees i+max(o1,o2)+32 <=
// len(data) for every block it reads.
//
//go:noescape
func indexPairBlocks(data []byte, npos, o1, o2 int, b1, b2, m1, m2 byte) int

// indexPairVector is index 32 positions per step, the rest one by one.
func (p *pair) indexPairVector(data []byte, npos int) int {
	if npos >= 32 {
		if i := indexPairBlocks(data, npos, p.o1, p.o2, p.b1, p.b2, p.m1, p.m2); i >= 0 {
			return i
		}
	}
	return p.indexPairScalar(data, npos&^31, npos)
}
