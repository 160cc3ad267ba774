package native

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// globMemoryChildEnv makes the test binary run TestGlobMemoryChild's body.
const globMemoryChildEnv = "RGKIT_GLOB_MEMORY_CHILD"

// globMemoryPeakLimit is what compiling and matching the hostile globs may
// cost in resident memory, the test binary's own included.
const globMemoryPeakLimit = 64 << 20

// TestGlobMemoryIsBounded compiles and matches globs whose alternatives
// multiply out to 4 million ({a,b} 22 times) and 67 million ({a,b,c,d} 13
// times) in a child process limited to 512 MiB of address space beyond what
// the Go runtime reserved at its start, and requires
// its peak resident memory to stay under 64 MiB: a glob is compiled without
// expanding its alternatives, in space linear in its size.
func TestGlobMemoryIsBounded(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestGlobMemoryChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), globMemoryChildEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the memory-limited child failed: %v\n%s", err, firstLines(out, 12))
	}
	var peak int64 = -1
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(line, "peak-rss-bytes="); ok {
			peak, _ = strconv.ParseInt(v, 10, 64)
		}
	}
	if peak < 0 {
		t.Fatalf("the child reported no peak:\n%s", out)
	}
	t.Logf("peak resident memory: %.1f MiB", float64(peak)/(1<<20))
	if peak > globMemoryPeakLimit {
		t.Errorf("peak resident memory %d bytes, want at most %d", peak, globMemoryPeakLimit)
	}
}

// TestGlobMemoryChild is the child process of TestGlobMemoryIsBounded.
func TestGlobMemoryChild(t *testing.T) {
	if os.Getenv(globMemoryChildEnv) != "1" {
		t.Skip("runs only as TestGlobMemoryIsBounded's child process")
	}
	// 512 MiB more address space than the runtime has reserved so far
	// (its reservations vary from run to run).
	limit := uint64(procStatusBytes(t, "VmSize:")) + 512<<20
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: limit, Max: limit}); err != nil {
		t.Fatalf("setrlimit: %v", err)
	}
	cases := []struct {
		glob       string
		match, not string
	}{
		{strings.Repeat("{a,b}", 22), strings.Repeat("ab", 11), strings.Repeat("ab", 10) + "ac"},
		{strings.Repeat("{a,b,c,d}", 13), strings.Repeat("d", 13), strings.Repeat("d", 12)},
		{strings.Repeat("{a,b}", 11) + "/" + strings.Repeat("{*,?}", 11), strings.Repeat("a", 11) + "/xyz", strings.Repeat("a", 11)},
	}
	for _, c := range cases {
		g, err := compileGlob(c.glob, true)
		if err != nil {
			t.Fatalf("%s: %v", c.glob, err)
		}
		if !g.match(c.match) || g.match(c.not) {
			t.Errorf("%s: wrong verdicts", c.glob)
		}
		// As an ignore-file line and as an rg --glob.
		if r, ok, err := parseIgnoreLine(c.glob, true); !ok || err != nil || !r.g.match(c.match) {
			t.Errorf("%s as an ignore line: %v", c.glob, err)
		}
		if _, err := newOverrides([]string{c.glob, "!" + c.glob}); err != nil {
			t.Errorf("%s as a --glob: %v", c.glob, err)
		}
	}
	fmt.Printf("peak-rss-bytes=%d\n", procStatusBytes(t, "VmHWM:"))
}

// procStatusBytes reads a size field of /proc/self/status (VmHWM: the peak
// resident set size; VmSize: the address space in use).
func procStatusBytes(t *testing.T, field string) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), field); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatalf("no %s in /proc/self/status", field)
	return 0
}

// firstLines is the start of a child's output (where a Go fatal error says
// what it was).
func firstLines(b []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}
