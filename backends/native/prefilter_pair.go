package native

// A pair scan looks for two bytes of a literal at once, at their offsets in
// it: a position is a candidate only when both are there. Scanning for one
// rare byte stops at every occurrence of that byte (in the Linux tree's
// register headers, an upper-case letter every 40-130 bytes) and pays a call
// and a compare each time; two bytes together occur orders of magnitude less
// often. This is the "packed pair" idea of ripgrep's memchr crate, written
// here with AVX2 where the CPU has it (prefilter_pair_amd64.s) and with NEON
// on arm64 (prefilter_pair_arm64.s), and 8 positions per uint64 word in Go
// (prefilter_pair_swar.go) for a case-folded literal on wasm; elsewhere the
// finder keeps scanning for its rarest byte (see pairScanFor).

// pairKind is one way of scanning for a pair. Every kind a machine can run
// finds the same positions; the tests run them all.
type pairKind uint8

const (
	// pairNone: no pair scan; the finder scans for its rarest byte.
	pairNone pairKind = iota
	// pairScalar checks one position at a time: the tail of the others, and
	// the plainest statement of what they compute.
	pairScalar
	// pairSWAR checks 8 positions per step in uint64 words
	// (prefilter_pair_swar.go), in portable Go.
	pairSWAR
	// pairVector checks 32 positions per step in vector registers: AVX2 on
	// amd64, NEON on arm64 (indexPairVector).
	pairVector
)

func (k pairKind) String() string {
	return [...]string{"none", "scalar", "swar", "vector"}[k]
}

// pair is the two bytes a finder checks at each position, each with the bits
// OR-ed in before comparing: 0x20 folds an ASCII letter's two cases together
// (the literal is lower-cased when folded), 0 compares exactly.
type pair struct {
	o1, o2 int
	b1, b2 byte
	m1, m2 byte
	kind   pairKind
}

// newPair chooses the literal's rarest byte (at rare) and its next rarest at
// another offset, scanned the way pairScanFor says. ok is false when the
// literal is too short for a pair or the machine has no pair scan faster
// than the rare byte's.
func newPair(l lit, rare int) (pair, bool) {
	kind := pairScanFor(l.fold)
	if kind == pairNone || len(l.s) < 2 {
		return pair{}, false
	}
	return choosePair(l, rare, kind), true
}

// choosePair is newPair's pair for a literal of two bytes or more, scanned
// by kind.
func choosePair(l lit, rare int, kind pairKind) pair {
	second, secondF := -1, 1<<30
	for i := 0; i < len(l.s); i++ {
		if i == rare {
			continue
		}
		if f := litByteFreq(l, i); f < secondF {
			second, secondF = i, f
		}
	}
	p := pair{o1: rare, o2: second, b1: l.s[rare], b2: l.s[second], kind: kind}
	if l.fold {
		p.m1, p.m2 = foldMask(p.b1), foldMask(p.b2)
	}
	return p
}

// foldMask is the bit that makes both cases of an ASCII letter compare equal
// to its lower case; other bytes compare exactly.
func foldMask(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return 0x20
	}
	return 0
}

// litByteFreq is how common the byte at i of l is, both cases counted when
// l is folded.
func litByteFreq(l lit, i int) int {
	c := l.s[i]
	f := int(byteFreq[c])
	if l.fold && 'a' <= c && c <= 'z' {
		f += int(byteFreq[c-'a'+'A'])
	}
	return f
}

// index returns the first position i in [0, npos) where the pair occurs,
// npos being the number of positions at which the whole literal fits (so
// that i+max(o1,o2) < len(data) for each).
func (p *pair) index(data []byte, npos int) int {
	switch p.kind {
	case pairVector:
		return p.indexPairVector(data, npos)
	case pairSWAR:
		return p.indexPairSWAR(data, npos)
	}
	return p.indexPairScalar(data, 0, npos)
}

// indexPairScalar checks positions [from, npos) one by one: the tail the
// vector and word loops leave.
func (p *pair) indexPairScalar(data []byte, from, npos int) int {
	for i := from; i < npos; i++ {
		if data[i+p.o1]|p.m1 == p.b1 && data[i+p.o2]|p.m2 == p.b2 {
			return i
		}
	}
	return -1
}
