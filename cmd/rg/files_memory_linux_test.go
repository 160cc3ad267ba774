package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// filesHeldLimit is how much more resident memory `rg --files` may take
// over a tree of 10 MB of paths than over a tree of one file. Holding the
// paths (to sort them) costs their 10 MB and more; listing each as the walk
// finds it, as rg does, costs a few MiB of buffers.
const filesHeldLimit = 5 << 20

// TestFilesListsWithoutHoldingTheTree: `rg --files` prints each file as
// the walk finds it and holds none of them, so its peak memory does not
// grow with the tree: 40,000 files with 250-byte paths (10 MB of paths)
// cost less than filesHeldLimit more than one file does.
func TestFilesListsWithoutHoldingTheTree(t *testing.T) {
	if testing.Short() {
		t.Skip("makes 40,000 files")
	}
	t.Parallel()
	bin := buildRg(t, "")
	small, large := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(small, "a"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("d", 120)
	files := 0
	for d := range 200 {
		dir := filepath.Join(large, fmt.Sprintf("%03d%s", d, long))
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for f := range 200 {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%03d%s", f, long)), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			files++
		}
	}
	peak := func(dir string) (int64, int) {
		cmd := exec.Command(bin, "--files")
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("rg --files in %s: %v", dir, err)
		}
		ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
		if !ok {
			t.Fatal("no rusage for the child")
		}
		return ru.Maxrss << 10, strings.Count(string(out), "\n") // Linux: KiB
	}
	base, _ := peak(small)
	got, listed := peak(large)
	if listed != files {
		t.Fatalf("rg --files listed %d files, want %d", listed, files)
	}
	t.Logf("peak resident memory: %.1f MiB for one file, %.1f MiB for %d", float64(base)/(1<<20), float64(got)/(1<<20), files)
	if got-base > filesHeldLimit {
		t.Errorf("rg --files over %d files took %.1f MiB more than over one, want at most %.1f", files, float64(got-base)/(1<<20), float64(filesHeldLimit)/(1<<20))
	}
}
