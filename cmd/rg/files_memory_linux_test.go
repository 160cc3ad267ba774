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
// paths (to sort them) cost 22-29 MiB more; listing each as the walk finds
// it, as rg does, about 5 (the walk's queue and the garbage between two
// collections).
const filesHeldLimit = 10 << 20

// TestFilesListsWithoutHoldingTheTree: `rg --files` prints each file as
// the walk finds it and holds none of them, so its peak memory does not
// grow with the tree: 20,000 files with 490-byte paths (10 MB of paths)
// cost less than filesHeldLimit more than one file does.
func TestFilesListsWithoutHoldingTheTree(t *testing.T) {
	if testing.Short() {
		t.Skip("makes 20,000 files")
	}
	t.Parallel()
	bin := buildRg(t, "")
	small, large := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(small, "a"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("d", 240)
	files := 0
	for d := range 100 {
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
		// The child's peak is read by a fresh process that starts it: Linux
		// counts the resident memory of the process that starts a program
		// (Go's vfork) as the program's own peak, and this test process
		// grows with the tests running beside it.
		cmd := exec.Command(os.Args[0], "-test.run=^TestFilesMemoryChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), filesMemoryChildEnv+"="+bin, "RGKIT_FILES_MEMORY_DIR="+dir)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("rg --files in %s: %v\n%s", dir, err, out)
		}
		var rss int64
		lines := -1
		for _, l := range strings.Split(string(out), "\n") {
			fmt.Sscanf(l, "rg-files-peak=%d lines=%d", &rss, &lines)
		}
		if lines < 0 {
			t.Fatalf("the child reported no peak:\n%s", out)
		}
		return rss, lines
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

// filesMemoryChildEnv names the rg binary TestFilesMemoryChild runs.
const filesMemoryChildEnv = "RGKIT_FILES_MEMORY_RG"

// TestFilesMemoryChild is TestFilesListsWithoutHoldingTheTree's child: it
// runs `rg --files` in the directory it is given and prints the peak
// resident memory and the number of lines listed.
func TestFilesMemoryChild(t *testing.T) {
	bin := os.Getenv(filesMemoryChildEnv)
	if bin == "" {
		t.Skip("runs only as TestFilesListsWithoutHoldingTheTree's child process")
	}
	cmd := exec.Command(bin, "--files")
	cmd.Dir = os.Getenv("RGKIT_FILES_MEMORY_DIR")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("rg --files: %v", err)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Fatal("no rusage for the child")
	}
	fmt.Printf("rg-files-peak=%d lines=%d\n", ru.Maxrss<<10, strings.Count(string(out), "\n")) // Linux: KiB
}
