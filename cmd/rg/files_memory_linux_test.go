package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
)

// treeHeldLimit is how much more resident memory a listing mode may take
// over a tree of 10 MB of paths than over a tree of one file. Holding every
// path (to sort them) or every file's result cost 22-40 MiB more; printing
// each file as it is searched, as rg does, costs about 5 (the walk's queue
// and the garbage between two collections).
const treeHeldLimit = 10 << 20

// TestListingModesHoldNothingPerFile: the modes that print something for
// files without a match (`--files`, `--files-without-match`, -v's counts)
// print each file as the walk finds it or the search finishes it and hold
// none of them, and `--sort path` prints each file once the walk has
// passed every file before it, so their peak memory does not grow with the tree: 20,000
// files with 490-byte paths (10 MB of paths) cost less than treeHeldLimit
// more than one file does.
func TestListingModesHoldNothingPerFile(t *testing.T) {
	if testing.Short() {
		t.Skip("makes 20,000 files")
	}
	t.Parallel()
	bin := buildRg(t, "")
	small, large := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(small, "a"), []byte("a\n"), 0o644); err != nil {
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
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%03d%s", f, long)), []byte("a\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			files++
		}
	}
	for _, tt := range []struct {
		args  []string
		lines int // printed for the large tree
	}{
		{[]string{"--files"}, files},
		{[]string{"--files-without-match", "zzz"}, files},
		{[]string{"-v", "-c", "zzz"}, files},
		{[]string{"-v", "-l", "zzz"}, files},
		{[]string{"--sort", "path", "a"}, files},
		{[]string{"--sort", "path", "-c", "a"}, files},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			base, _ := childPeak(t, bin, small, tt.args)
			got, listed := childPeak(t, bin, large, tt.args)
			if listed != tt.lines {
				t.Fatalf("rg %s printed %d lines, want %d", strings.Join(tt.args, " "), listed, tt.lines)
			}
			t.Logf("peak resident memory: %.1f MiB for one file, %.1f MiB for %d", float64(base)/(1<<20), float64(got)/(1<<20), files)
			if got-base > treeHeldLimit {
				t.Errorf("rg %s over %d files took %.1f MiB more than over one, want at most %.1f", strings.Join(tt.args, " "), files, float64(got-base)/(1<<20), float64(treeHeldLimit)/(1<<20))
			}
		})
	}
}

// childPeak runs bin with args in dir and returns its peak resident memory
// and the number of lines it printed. The peak is read by a fresh process
// that starts bin (TestListingMemoryChild): Linux counts the resident
// memory of the process that starts a program (Go's vfork) as the
// program's own peak, and this test process grows with the tests running
// beside it.
func childPeak(t *testing.T, bin, dir string, args []string) (int64, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestListingMemoryChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), listingMemoryChildEnv+"="+bin, "RGKIT_LISTING_MEMORY_DIR="+dir, "RGKIT_LISTING_MEMORY_ARGS="+strings.Join(args, "\n"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("rg %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
	var rss int64
	lines := -1
	for _, l := range strings.Split(string(out), "\n") {
		fmt.Sscanf(l, "rg-listing-peak=%d lines=%d", &rss, &lines)
	}
	if lines < 0 {
		t.Fatalf("the child reported no peak:\n%s", out)
	}
	return rss, lines
}

// listingMemoryChildEnv names the rg binary TestListingMemoryChild runs.
const listingMemoryChildEnv = "RGKIT_LISTING_MEMORY_RG"

// TestListingMemoryChild is childPeak's child: it runs rg with the
// arguments it is given (one per line) in the directory it is given and
// prints the peak resident memory and the number of lines printed.
func TestListingMemoryChild(t *testing.T) {
	bin := os.Getenv(listingMemoryChildEnv)
	if bin == "" {
		t.Skip("runs only as childPeak's child process")
	}
	cmd := exec.Command(bin, strings.Split(os.Getenv("RGKIT_LISTING_MEMORY_ARGS"), "\n")...)
	cmd.Dir = os.Getenv("RGKIT_LISTING_MEMORY_DIR")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("rg: %v", err)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Fatal("no rusage for the child")
	}
	fmt.Printf("rg-listing-peak=%d lines=%d\n", ru.Maxrss<<10, strings.Count(string(out), "\n")) // Linux: KiB
}

// TestSortedOutputIsHeldOnDisk: `--sort path` prints once the search is
// done, so the output waits somewhere; past 2 MiB it waits in a temporary
// file, not in memory. 36 MB of output cost less than sortedHeldLimit more
// than a one-file search (held in memory, it cost that output and more),
// and it is rg 15.2.0's output byte for byte.
func TestSortedOutputIsHeldOnDisk(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 32 MB of files")
	}
	t.Parallel()
	const sortedHeldLimit = 24 << 20
	bin, rg := buildRg(t, ""), testtool.ReferenceRg(t)
	small, large := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(small, "a"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	body := []byte(strings.Repeat(strings.Repeat("a", 63)+"\n", 8192)) // 512 KiB of matching lines
	for d := range 8 {
		for f := range 8 {
			p := filepath.Join(large, fmt.Sprintf("d%d", 7-d), fmt.Sprintf("f%d", 7-f))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, body, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	args := []string{"--sort", "path", "a"}
	base, _ := childPeak(t, bin, small, args)
	got, lines := childPeak(t, bin, large, args)
	if lines != 64*8192 {
		t.Fatalf("printed %d lines, want %d", lines, 64*8192)
	}
	t.Logf("peak resident memory: %.1f MiB for one file, %.1f MiB for 36 MB of output", float64(base)/(1<<20), float64(got)/(1<<20))
	if got-base > sortedHeldLimit {
		t.Errorf("--sort path with 36 MB of output took %.1f MiB more than one file, want at most %.1f", float64(got-base)/(1<<20), float64(sortedHeldLimit)/(1<<20))
	}
	run := func(bin string) []byte {
		cmd := exec.Command(bin, args...)
		cmd.Dir = large
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", bin, err)
		}
		return out
	}
	if want, have := run(rg), run(bin); !bytes.Equal(have, want) {
		t.Errorf("cmd/rg --sort path printed %d bytes, rg 15.2.0 %d: not the same", len(have), len(want))
	}
}
