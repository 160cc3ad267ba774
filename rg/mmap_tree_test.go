package rg

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
)

// TestMmapOverATree: with --mmap, a directory's files are begun on every
// worker at once, and the record of which named files had a line to print
// (for the statistics of a mapped file) was a map every worker wrote:
// `rg --mmap -i error` over the Linux tree died of concurrent map writes.
func TestMmapOverATree(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{}
	for i := range 4000 {
		files[fmt.Sprintf("d%d/f%d.txt", i%40, i)] = "x\n"
	}
	testtool.WriteTree(t, dir, files)
	for _, args := range [][]string{
		{"--mmap", "-j4", "x", dir},
		{"--mmap", "-j4", "--stats", "x", dir},
	} {
		var out bytes.Buffer
		if code := Main(context.Background(), append([]string{"--no-config"}, args...), nil, &out, io.Discard); code != 0 {
			t.Fatalf("%q: exit %d", args, code)
		}
		if n := bytes.Count(out.Bytes(), []byte(":x\n")); n != len(files) {
			t.Errorf("%q: %d matching lines printed, want %d", args, n, len(files))
		}
	}
}
