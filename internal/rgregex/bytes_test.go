package rgregex

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// TestUTF8SequencesEncodeExactlyTheRange: the byte sequences of a range of
// characters (ASCII included) match the UTF-8 of every character in it,
// surrogates aside,
// through exactly one sequence, and nothing else: no character outside the
// range, no surrogate, no invalid or overlong byte string.
func TestUTF8SequencesEncodeExactlyTheRange(t *testing.T) {
	t.Parallel()
	ranges := [][2]rune{
		{0x80, 0x10FFFF}, {0x80, 0x7FF}, {0x7FF, 0x800}, {0xE9, 0xE9}, {0x3B1, 0x3C9}, {0xD7FF, 0xE000},
		{0xD800, 0xDFFF}, {0xD900, 0x10000}, {0xFFFF, 0x10000}, {0x2100, 0x10FFFF}, {0x10FFFF, 0x10FFFF},
		{0x1234, 0x5678}, {0x10000, 0x3FFFF}, {0x212A, 0x212A}, {0x1F600, 0x1F64F}, {0x100, 0x2FFF},
		{0, 0x10FFFF}, {0x41, 0x7F}, {0x61, 0xE9}, {0xFFFD, 0xFFFD}, {0xFFF0, 0xFFFF},
	}
	rng := rand.New(rand.NewPCG(41, 43))
	for range 20 {
		lo := rng.Int32N(0x10FFFF)
		ranges = append(ranges, [2]rune{lo, lo + rng.Int32N(min(0x10FFFF-lo+1, 1<<(4*rng.IntN(6))))})
	}
	for k, r := range ranges {
		t.Run(fmt.Sprintf("%X-%X", r[0], r[1]), func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(47, uint64(k))) // (one per subtest: they run in parallel)
			seqs := UTF8Sequences(r[0], r[1])
			matches := func(b []byte) (n int) {
				for _, seq := range seqs {
					if len(seq) != len(b) {
						continue
					}
					ok := true
					for i, br := range seq {
						ok = ok && br.Lo <= b[i] && b[i] <= br.Hi
					}
					if ok {
						n++
					}
				}
				return n
			}
			// Every character, in or out of the range.
			for c := rune(0); c <= utf8.MaxRune; c++ {
				want := 0
				if r[0] <= c && c <= r[1] && !(0xD800 <= c && c <= 0xDFFF) {
					want = 1
				}
				if 0xD800 <= c && c <= 0xDFFF {
					continue // no UTF-8
				}
				if got := matches([]byte(string(c))); got != want {
					t.Fatalf("U+%04X: %d sequences match its UTF-8, want %d (%v)", c, got, want, seqs)
				}
			}
			// Nothing but those characters: every byte string a sequence
			// takes decodes to one of them (its corners and random picks).
			for _, seq := range seqs {
				for k := range 64 {
					b := make([]byte, len(seq))
					for i, br := range seq {
						switch k {
						case 0:
							b[i] = br.Lo
						case 1:
							b[i] = br.Hi
						default:
							b[i] = br.Lo + byte(rng.IntN(int(br.Hi-br.Lo)+1))
						}
					}
					c, w := utf8.DecodeRune(b)
					invalid := c == utf8.RuneError && w == 1 // (EF BF BD is U+FFFD itself)
					if invalid || w != len(b) || c < r[0] || c > r[1] {
						t.Fatalf("sequence %v takes % X, which is U+%04X (%d bytes), outside %X-%X", seq, b, c, w, r[0], r[1])
					}
				}
			}
		})
	}
}

// TestByteRunesAreNotAssertions: a byte rune lies past the assertion
// placeholders and is never read as one. AssertionRune once converted the
// difference to an Assertion before comparing, so the bytes 0xEF-0xFF
// wrapped around to assertions and `a(?-u:\xF0)b` matched nothing.
func TestByteRunesAreNotAssertions(t *testing.T) {
	t.Parallel()
	for b := 0x80; b <= 0xFF; b++ {
		if a, ok := AssertionRune(ByteRune(byte(b))); ok {
			t.Errorf("byte %#x reads as assertion %d", b, a)
		}
	}
	for a := Assertion(1); a < maxAssertion; a++ {
		if got, ok := AssertionRune(assertBase + rune(a) - 1); !ok || got != a {
			t.Errorf("placeholder of assertion %d reads as %d, %v", a, got, ok)
		}
	}
}
