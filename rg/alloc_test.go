package rg

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestPrintedLinesAllocateNothingEach: the output path of a line (the
// engine's Line, the sink, the printer) allocates nothing per line. One
// heap object per line (a copy of the line moved to the heap) held the
// line's text for the collector to trace and made `rg -C2 func` over the
// Go tree 1.4x slower. Not parallel: it counts the process's allocations.
func TestPrintedLinesAllocateNothingEach(t *testing.T) {
	dir := t.TempDir()
	small, large := writeFuncFile(t, dir, 3000), writeFuncFile(t, dir, 30000)
	for _, flags := range [][]string{
		{"func"},
		{"-n", "func"},
		{"-C2", "func"},
		{"-n", "-C2", "--column", "func"},
		{"-v", "alpha"},
		{"--passthru", "alpha"},
		{"-w", "alpha"},
		{"-x", "func alpha.*"},
		{"-o", "func"},
		{"--json", "func"},
		{`\w+\(beta`},
		{"-U", `alpha\(\w+`},
	} {
		t.Run(strings.Join(flags, " "), func(t *testing.T) {
			// The difference between a small and a large file is what the
			// lines cost, without the search's own set-up.
			a1, p1 := allocsOfSearch(t, flags, small)
			a2, p2 := allocsOfSearch(t, flags, large)
			per := float64(int64(a2)-int64(a1)) / float64(p2-p1)
			t.Logf("%d allocations for %d lines printed, %d for %d", a1, p1, a2, p2)
			if per > 0.01 {
				t.Errorf("%.3f allocations a printed line (%d for %d lines, %d for %d), want none", per, a1, p1, a2, p2)
			}
		})
	}
}

// writeFuncFile writes a file of n lines, a third of them holding "func".
func writeFuncFile(t *testing.T, dir string, n int) string {
	var b strings.Builder
	for i := range n {
		if i%3 == 0 {
			b.WriteString("func alpha(beta int) error { return nil }\n")
		} else {
			b.WriteString("\tcontext line of the function\n")
		}
	}
	path := filepath.Join(dir, fmt.Sprintf("f%d.go", n))
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// allocsOfSearch runs rg flags path once to warm up (pools, buffers, the
// pattern's caches), then again, and returns the second run's allocations
// and the lines it printed.
func allocsOfSearch(t *testing.T, flags []string, path string) (allocs uint64, printed int) {
	t.Helper()
	args := append([]string{"--no-config", "-j1"}, append(flags, path)...)
	var out bytes.Buffer
	run := func() {
		out.Reset()
		if code := Main(context.Background(), args, nil, &out, io.Discard); code != 0 {
			t.Fatalf("%q: exit %d", args, code)
		}
	}
	run()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	run()
	runtime.ReadMemStats(&after)
	return after.Mallocs - before.Mallocs, bytes.Count(out.Bytes(), []byte("\n"))
}
