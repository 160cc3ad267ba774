package search

import "testing"

// rg 15: -C sets both sides; -A or -B overrides only its own side, in any
// order of the flags (rg -A1 -C3 and rg -C3 -A1 both give 3 before, 1 after).
func TestContextLines(t *testing.T) {
	n := func(v int) *int { return &v }
	for _, tt := range []struct {
		name          string
		before, after *int
		context       int
		wantB, wantA  int
	}{
		{"none", nil, nil, 0, 0, 0},
		{"-C3", nil, nil, 3, 3, 3},
		{"-A1 -C3", nil, n(1), 3, 3, 1},
		{"-B2 -C3", n(2), nil, 3, 2, 3},
		{"-A0 -C3", nil, n(0), 3, 3, 0},
		{"-A1 -B2", n(2), n(1), 0, 2, 1},
		{"-A1 -B2 -C5", n(2), n(1), 5, 2, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, a := ContextLines(tt.before, tt.after, tt.context)
			if b != tt.wantB || a != tt.wantA {
				t.Errorf("ContextLines = -B%d -A%d, want -B%d -A%d", b, a, tt.wantB, tt.wantA)
			}
		})
	}
}
