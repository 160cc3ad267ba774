//go:build unix

package native

import (
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestPairScanReadsNothingPastTheData: the vector and word loads stay
// inside the slice. The data ends where an unreadable page begins, so one
// byte read past it is a crash, for every length up to two blocks past the
// literal, with the pair's offsets at the literal's two ends, and with the
// literal's last byte the only one the pair does not cover.
func TestPairScanReadsNothingPastTheData(t *testing.T) {
	t.Parallel()
	page := os.Getpagesize()
	mem, err := unix.Mmap(-1, 0, 2*page, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(mem)
	if err := unix.Mprotect(mem[page:], unix.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	for _, kind := range pairKinds() {
		t.Run(kind.String(), func(t *testing.T) {
			for _, l := range []string{"xy", "q" + strings.Repeat("-", 45) + "y", "QZ" + strings.Repeat("x", 30) + "-"} {
				f := pairFinder(lit2(l, false), kind)
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
		})
	}
}
