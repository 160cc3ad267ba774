package native

import (
	"bytes"
	"math/rand/v2"
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

// TestPairScanFindsWhatIndexFinds: the two-byte scan (vector blocks of 32
// and 64 positions, then a scalar tail) finds every literal bytes.Index
// finds, at lengths around every block boundary, with the pair's offsets
// both before and after each other and further apart than a block, folded
// and not, in data dense with near misses.
func TestPairScanFindsWhatIndexFinds(t *testing.T) {
	t.Parallel()
	if !hasPairScan {
		t.Skip("no vector pair scan on this machine: the finder scans for one rare byte")
	}
	rng := rand.New(rand.NewPCG(21, 8))
	alphabet := []byte("aAbBzZ_#( \n")
	lits := []string{"#a", "a(b", "ab", "ba", "zz", "a_b", "b z", "abzab", strings.Repeat("a", 40) + "zb", "z" + strings.Repeat("_", 37) + "b"}
	for _, l := range lits {
		for _, fold := range []bool{false, true} {
			f := newFinder(lit2(l, fold))
			if !f.hasPair {
				t.Fatalf("%q: no pair", l)
			}
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
}
