package native

import (
	"bytes"
	"fmt"
	"testing"
)

// lastIndexByte answers as bytes.LastIndexByte wherever the byte sits:
// at either end, on both sides of a block boundary, several times, or
// nowhere.
func TestLastIndexByteAnswersAsTheStandardOne(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, 2, 4095, 4096, 4097, 8192, 3*4096 + 7} {
		for _, at := range []int{-1, 0, 1, 4095, 4096, 4097, 8191, n - 2, n - 1} {
			if at >= n || (at < 0 && at != -1) {
				continue
			}
			data := bytes.Repeat([]byte{'x'}, n)
			if at >= 0 {
				data[at] = 0
				if at > 3 {
					data[at/2] = 0 // an earlier one must not win
				}
			}
			t.Run(fmt.Sprintf("len%d_at%d", n, at), func(t *testing.T) {
				if got, want := lastIndexByte(data, 0), bytes.LastIndexByte(data, 0); got != want {
					t.Fatalf("lastIndexByte = %d, bytes.LastIndexByte = %d", got, want)
				}
			})
		}
	}
}

func BenchmarkLastIndexByteNoneInAMegabyte(b *testing.B) {
	data := bytes.Repeat([]byte("some text of a source file\n"), 1<<20/27)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if lastIndexByte(data, 0) != -1 {
			b.Fatal("found a NUL")
		}
	}
}
