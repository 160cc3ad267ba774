package native

import (
	"bytes"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
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

// TestPairScanReadsNothingPastTheData: the vector loads stay inside the
// slice. The data ends where an unreadable page begins, so one byte read
// past it is a crash, for every length up to two blocks past the literal.
func TestPairScanReadsNothingPastTheData(t *testing.T) {
	t.Parallel()
	if !hasPairScan {
		t.Skip("no vector pair scan on this machine")
	}
	page := os.Getpagesize()
	mem, err := unix.Mmap(-1, 0, 2*page, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(mem)
	if err := unix.Mprotect(mem[page:], unix.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{"xy", "q" + strings.Repeat("-", 45) + "y"} {
		f := newFinder(lit2(l, false))
		for n := 0; n <= len(l)+130; n++ {
			data := mem[page-n : page]
			for i := range data {
				data[i] = 'x'
			}
			if got := f.index(data, 0); got != -1 {
				t.Fatalf("%q in %d bytes of x: %d", l, n, got)
			}
			if n >= len(l) {
				copy(data[n-len(l):], l)
				if got := f.index(data, 0); got != n-len(l) {
					t.Fatalf("%q at the end of %d bytes: %d", l, n, got)
				}
			}
		}
	}
}
