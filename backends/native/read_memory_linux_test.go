package native

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/search"
)

// readMemoryChildEnv makes the test binary run TestLargeFileMemoryChild's
// body, with the directory to search as its value.
const readMemoryChildEnv = "RGKIT_READ_MEMORY_CHILD"

// largeFileBytes is the file searched: larger than the growth allowed.
const largeFileBytes = 64 << 20

// largeFileGrowthLimit is how much a search of one largeFileBytes file may
// add to the process's peak resident memory.
const largeFileGrowthLimit = 24 << 20

// TestLargeFileMemoryIsBounded searches a 64 MiB file (a match near its
// start, one near its end, none between) in a child process, found by the
// walk or named as a path, and requires the search to add at most 24 MiB
// to the child's peak resident memory: a large file is mapped and its
// pages dropped as the search moves past them, not read whole into the
// heap (which cost the file's size, plus the garbage collector's headroom;
// a file named as a path was read so until this test named one).
func TestLargeFileMemoryIsBounded(t *testing.T) {
	dir := t.TempDir()
	// Written a block at a time: a 64 MiB buffer in the test would cost
	// more than the searches it sets up.
	block := bytes.Repeat([]byte("the quick brown fox jumps over the lazy dog 0123456789\n"), 1<<14)
	f, err := os.Create(filepath.Join(dir, "big.txt"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.WriteString("needle at the start\n")
	for n := 0; n < largeFileBytes && err == nil; n += len(block) {
		_, err = f.Write(block)
	}
	if err == nil {
		_, err = f.WriteString("needle at the end\n")
	}
	if err := errors.Join(err, f.Close()); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, pattern, path, count string }{
		{"needle", "needle", "", ""},
		{"n[e]+dle", `n[e]+dle`, "", ""},
		{"needle in the file named", "needle", "big.txt", ""},
		// What the ripgrep engine does when rg stops printing at a page's
		// cap: it counts the file, through a Source that maps nothing.
		{"needle counted by CountFile", "needle", "", "big.txt"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestLargeFileMemoryChild$", "-test.count=1")
			cmd.Env = append(os.Environ(), readMemoryChildEnv+"="+dir, readMemoryChildEnv+"_PATTERN="+c.pattern,
				readMemoryChildEnv+"_PATH="+c.path, readMemoryChildEnv+"_COUNT="+c.count)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("the child failed: %v\n%s", err, firstLines(out, 12))
			}
			var growth, lines int64 = -1, -1
			for _, l := range strings.Split(string(out), "\n") {
				if v, ok := strings.CutPrefix(l, "growth-bytes="); ok {
					growth, _ = strconv.ParseInt(v, 10, 64)
				}
				if v, ok := strings.CutPrefix(l, "matched-lines="); ok {
					lines, _ = strconv.ParseInt(v, 10, 64)
				}
			}
			if growth < 0 || lines != 2 {
				t.Fatalf("the child reported growth %d, %d matched lines (want 2):\n%s", growth, lines, out)
			}
			t.Logf("peak resident memory grew by %.1f MiB", float64(growth)/(1<<20))
			if growth > largeFileGrowthLimit {
				t.Errorf("peak resident memory grew by %d bytes, want at most %d", growth, largeFileGrowthLimit)
			}
		})
	}
}

// TestLargeFileMemoryChild is the child process of TestLargeFileMemoryIsBounded.
func TestLargeFileMemoryChild(t *testing.T) {
	dir := os.Getenv(readMemoryChildEnv)
	if dir == "" {
		t.Skip("runs only as TestLargeFileMemoryIsBounded's child process")
	}
	q := search.Query{Pattern: os.Getenv(readMemoryChildEnv + "_PATTERN"), Root: dir}
	if p := os.Getenv(readMemoryChildEnv + "_PATH"); p != "" {
		q.Paths = []string{p} // a file named on the command line is opened by its path
	}
	q, err := search.Normalize(q)
	if err != nil {
		t.Fatal(err)
	}
	if path := os.Getenv(readMemoryChildEnv + "_COUNT"); path != "" {
		fs := countingSearcher(t, context.Background(), q)
		before := procStatusBytes(t, "VmHWM:")
		n, err := fs.CountFile(path)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("growth-bytes=%d\nmatched-lines=%d\n", procStatusBytes(t, "VmHWM:")-before, n)
		return
	}
	before := procStatusBytes(t, "VmHWM:")
	st, err := (&Engine{Workers: 1}).Search(context.Background(), q, search.Discard)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("growth-bytes=%d\nmatched-lines=%d\n", procStatusBytes(t, "VmHWM:")-before, st.MatchedLines)
}
