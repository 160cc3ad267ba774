package native

import (
	"bytes"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

// foldIndex is the reference: the first i >= from where lit occurs, with
// ASCII letters of data folded when fold.
func foldIndex(data []byte, lit string, from int, fold bool) int {
	if fold {
		data = bytes.ToLower(data) // the alphabets below are ASCII: lengths keep
	}
	if i := bytes.Index(data[from:], []byte(lit)); i >= 0 {
		return from + i
	}
	return -1
}

// pairFinder is newFinder's finder for l with its pair scanned by kind,
// whichever scan this machine would choose.
func pairFinder(l lit, kind pairKind) finder {
	f := newFinder(l)
	f.pair, f.hasPair = choosePair(l, f.rare, kind), true
	return f
}

// wantPair is what every pair scan must return: the first i < npos where
// both bytes are there, read one at a time.
func wantPair(p pair, data []byte, npos int) int {
	for i := range npos {
		if data[i+p.o1]|p.m1 == p.b1 && data[i+p.o2]|p.m2 == p.b2 {
			return i
		}
	}
	return -1
}

// TestPairKindsOfThisMachine: the scan a finder uses is one the tests run,
// and the vector scan is there on arm64 (NEON is in every arm64 CPU).
func TestPairKindsOfThisMachine(t *testing.T) {
	kinds := strings.Join(kindNames(pairKinds()), " ")
	for _, fold := range []bool{false, true} {
		kind := pairScanFor(fold)
		if kind != pairNone && !strings.Contains(kinds, kind.String()) {
			t.Fatalf("fold=%v: finders use %v, the tests run %v", fold, kind, kinds)
		}
		if f := newFinder(lit2("ab", fold)); f.hasPair != (kind != pairNone) || (f.hasPair && f.pair.kind != kind) {
			t.Fatalf("finder for %q fold=%v: hasPair %v kind %v, want %v", "ab", fold, f.hasPair, f.pair.kind, kind)
		}
		if f := newFinder(lit2("a", fold)); f.hasPair {
			t.Fatal("a one-byte literal has no pair")
		}
	}
	if runtime.GOARCH == "arm64" && pairScanFor(false) != pairVector {
		t.Fatal("no NEON pair scan on arm64")
	}
}

func kindNames(kinds []pairKind) []string {
	var s []string
	for _, k := range kinds {
		s = append(s, k.String())
	}
	return s
}

// TestPairScanFindsWhatIndexFinds: each pair scan this machine runs (vector
// blocks of 32 and 64 positions, words of 8, then a scalar tail) finds
// every literal bytes.Index finds, at lengths around every block boundary,
// with the pair's offsets both before and after each other and further
// apart than a block, folded and not, in data dense with near misses.
func TestPairScanFindsWhatIndexFinds(t *testing.T) {
	t.Parallel()
	lits := []string{"#a", "a(b", "ab", "ba", "zz", "a_b", "b z", "abzab", strings.Repeat("a", 40) + "zb", "z" + strings.Repeat("_", 37) + "b"}
	for _, kind := range pairKinds() {
		t.Run(kind.String(), func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(21, 8))
			alphabet := []byte("aAbBzZ_#( \n")
			for _, l := range lits {
				for _, fold := range []bool{false, true} {
					f := pairFinder(lit2(l, fold), kind)
					for range 3000 {
						data := make([]byte, rng.IntN(200))
						for j := range data {
							data[j] = alphabet[rng.IntN(len(alphabet))]
						}
						if len(data) >= len(l) && rng.IntN(2) == 0 { // plant one
							at := rng.IntN(len(data) - len(l) + 1)
							copy(data[at:], l)
							if fold && rng.IntN(2) == 0 {
								copy(data[at:], strings.ToUpper(l))
							}
						}
						from := 0
						if len(data) > 0 {
							from = rng.IntN(len(data) + 1)
						}
						if got, want := f.index(data, from), foldIndex(data, l, from, fold); got != want {
							t.Fatalf("%q fold=%v pair %+v in %q from %d: %d, want %d", l, fold, f.pair, data, from, got, want)
						}
					}
				}
			}
		})
	}
}

// TestPairScanRandomPairs: random offsets (equal, either first, up to two
// blocks apart), random bytes and any OR masks (not only the case bit),
// data at every alignment to a 64-byte boundary, npos anywhere up to the
// last position at which both bytes fit: each scan returns the first
// position where both bytes are there.
func TestPairScanRandomPairs(t *testing.T) {
	t.Parallel()
	for _, kind := range pairKinds() {
		t.Run(kind.String(), func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(4, 77))
			buf := make([]byte, 64+400)
			for range 20000 {
				p := pair{o1: rng.IntN(70), o2: rng.IntN(70), kind: kind}
				alphabet := []byte{byte(rng.IntN(256)), byte(rng.IntN(256)), byte(rng.IntN(256))}
				p.m1, p.m2 = randomMask(rng), randomMask(rng)
				p.b1 = alphabet[rng.IntN(3)] | p.m1
				p.b2 = alphabet[rng.IntN(3)] | p.m2
				if rng.IntN(8) == 0 { // one that no byte can equal
					p.b1 = p.m1 ^ 0xff
				}
				align := rng.IntN(64)
				n := rng.IntN(len(buf) - align + 1)
				data := buf[align : align+n]
				for j := range data {
					data[j] = alphabet[rng.IntN(3)]
				}
				reach := max(p.o1, p.o2)
				if n <= reach {
					continue
				}
				npos := n - reach - rng.IntN(2)*rng.IntN(n-reach+1)
				if got, want := p.index(data, npos), wantPair(p, data, npos); got != want {
					t.Fatalf("pair %+v in %q (at %d mod 64), npos %d: %d, want %d", p, data, align, npos, got, want)
				}
			}
		})
	}
}

// randomMask is 0 half the time, else any byte.
func randomMask(rng *rand.Rand) byte {
	if rng.IntN(2) == 0 {
		return 0
	}
	return byte(rng.IntN(256))
}

// TestPairScanEveryPositionAndLength: for every alignment to a 64-byte
// boundary and every number of positions up to three blocks and a bit, in
// data where one byte of the pair is at every position and the other at
// one only (a near miss everywhere else), the pair is found at that one,
// and nowhere when it is at none.
func TestPairScanEveryPositionAndLength(t *testing.T) {
	t.Parallel()
	for _, kind := range pairKinds() {
		t.Run(kind.String(), func(t *testing.T) {
			t.Parallel()
			pairs := []pair{
				{o1: 0, o2: 1, b1: 'x', b2: 'y'},
				{o1: 33, o2: 2, b1: 'y', b2: 'x', m1: 0x20, m2: 0x20},
			}
			buf := make([]byte, 64+100+33)
			for _, p := range pairs {
				p.kind = kind
				reach := max(p.o1, p.o2)
				for align := range 64 {
					for npos := 0; npos <= 100; npos++ {
						data := buf[align : align+npos+reach]
						for _, firstEverywhere := range []bool{true, false} {
							for at := -1; at < npos; at++ {
								everywhere, once, onceAt := p.b2, p.b1, at+p.o1
								if firstEverywhere {
									everywhere, once, onceAt = p.b1, p.b2, at+p.o2
								}
								for j := range data {
									data[j] = everywhere
								}
								if at >= 0 {
									data[onceAt] = once
								}
								if got := p.index(data, npos); got != at {
									t.Fatalf("pair %+v, align %d, npos %d, %q with %q at %d: %d, want %d", p, align, npos, everywhere, once, onceAt, got, at)
								}
							}
						}
					}
				}
			}
		})
	}
}
