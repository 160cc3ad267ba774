package native

// A pair scan looks for two bytes of a literal at once, at their offsets in
// it: a position is a candidate only when both are there. Scanning for one
// rare byte stops at every occurrence of that byte (in the Linux tree's
// register headers, an upper-case letter every 40-130 bytes) and pays a call
// and a compare each time; two bytes together occur orders of magnitude less
// often. This is the "packed pair" idea of ripgrep's memchr crate, written
// here with AVX2 where the CPU has it (prefilter_pair_amd64.s); elsewhere
// the finder keeps scanning for its rarest byte.

// pair is the two bytes a finder checks at each position, each with the bits
// OR-ed in before comparing: 0x20 folds an ASCII letter's two cases together
// (the literal is lower-cased when folded), 0 compares exactly.
type pair struct {
	o1, o2 int
	b1, b2 byte
	m1, m2 byte
}

// newPair chooses the literal's rarest byte (at rare) and its next rarest at
// another offset. ok is false when the literal is too short for a pair or
// the machine has no vector scan.
func newPair(l lit, rare int) (pair, bool) {
	if !hasPairScan || len(l.s) < 2 {
		return pair{}, false
	}
	second, secondF := -1, 1<<30
	for i := 0; i < len(l.s); i++ {
		if i == rare {
			continue
		}
		if f := litByteFreq(l, i); f < secondF {
			second, secondF = i, f
		}
	}
	p := pair{o1: rare, o2: second, b1: l.s[rare], b2: l.s[second]}
	if l.fold {
		p.m1, p.m2 = foldMask(p.b1), foldMask(p.b2)
	}
	return p, true
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

// indexPairScalar checks positions [from, npos) one by one: the tail the
// vector loop leaves.
func (p *pair) indexPairScalar(data []byte, from, npos int) int {
	for i := from; i < npos; i++ {
		if data[i+p.o1]|p.m1 == p.b1 && data[i+p.o2]|p.m2 == p.b2 {
			return i
		}
	}
	return -1
}
