package rg

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"
)

// TestHeldOutputSpillsPastItsMemory: --sort's held output stays in memory
// up to heldInMemory and goes to a temporary file after it, and reads back
// as it was held; with no temporary file to be had, it all stays in
// memory, nothing lost.
func TestHeldOutputSpillsPastItsMemory(t *testing.T) {
	for _, tt := range []struct {
		name   string
		tmp    func(t *testing.T) string
		spills bool
	}{
		{"a temporary file", func(t *testing.T) string { return t.TempDir() }, true},
		{"no temporary directory", func(t *testing.T) string { return filepath.Join(t.TempDir(), "missing") }, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("TMPDIR", tt.tmp(t))
			var h heldOutput
			defer h.close()
			var want [][]byte
			var held []heldBytes
			for i := range 40 {
				out := bytes.Repeat([]byte(fmt.Sprintf("file %d line\n", i)), 30000) // ~400 KB each, 16 MB in all
				want = append(want, bytes.Clone(out))
				held = append(held, h.hold(out))
				out[0] = 'X' // the caller reuses its buffer
			}
			if tt.spills && (h.spill == nil || h.inMemory > heldInMemory) {
				t.Fatalf("16 MB held: %d bytes in memory, spill file %v; want at most %d in memory", h.inMemory, h.spill != nil, heldInMemory)
			}
			if !tt.spills && (h.spill != nil || h.spillErr == nil) {
				t.Fatalf("without a temporary directory: spill file %v, error %v; want memory only", h.spill != nil, h.spillErr)
			}
			for i := len(held) - 1; i >= 0; i-- { // any order
				var b bytes.Buffer
				if err := h.writeTo(&b, held[i]); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(b.Bytes(), want[i]) {
					t.Fatalf("file %d read back %d bytes, not the %d held", i, b.Len(), len(want[i]))
				}
			}
		})
	}
}
