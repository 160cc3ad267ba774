package search

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// byComponents is the order ComparePaths must give, spelled out: the
// paths split at '/' and their names compared one by one, a path that
// runs out of names first ranking first.
func byComponents(a, b string) int {
	return slices.Compare(strings.Split(a, "/"), strings.Split(b, "/"))
}

func TestComparePathsOrdersByNameThenDepth(t *testing.T) {
	t.Parallel()
	fixed := [][2]string{
		{"a/b", "a-c/d"}, // '/' ends the name "a" before "a-c"
		{"a", "a/b"},
		{"a", "a/"},
		{"a//b", "a/x"},
		{"a/b", "a/b"},
		{"a.go", "a/z.go"},
		{"ab/c", "a/bc"},
		{"", "a"},
		{"z", "\xff"},
	}
	for _, p := range fixed {
		for _, ab := range [][2]string{p, {p[1], p[0]}} {
			if got, want := ComparePaths(ab[0], ab[1]), byComponents(ab[0], ab[1]); sign(got) != want {
				t.Errorf("ComparePaths(%q, %q) = %d, want the sign of %d", ab[0], ab[1], got, want)
			}
		}
	}
	// Random paths over an alphabet that holds '/' and the bytes on
	// either side of it.
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("/.-0aZ\x7f\xff")
	randPath := func() string {
		b := make([]byte, r.IntN(7))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		return string(b)
	}
	for range 20000 {
		a, b := randPath(), randPath()
		if got, want := ComparePaths(a, b), byComponents(a, b); sign(got) != want {
			t.Fatalf("ComparePaths(%q, %q) = %d, want the sign of %d", a, b, got, want)
		}
	}
}

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}

func TestComparePathsExamples(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"a/b", "a-c", -1}, // by directory, not bytes ('-' < '/')
		{"a", "a/b", -1},
		{"b", "a/z", 1},
		{"x/y", "x/y", 0},
		{"A", "a", -1}, // byte order within a name, like rg
	}
	for _, tt := range tests {
		if got := ComparePaths(tt.a, tt.b); got != tt.want {
			t.Errorf("ComparePaths(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
