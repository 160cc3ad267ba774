//go:build unix

package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// The MCP end-to-end tests run the real rgkit binary as a subprocess and
// talk to it with real clients. This file holds their shared fixture.

// buildRgkit compiles this command into a temporary directory. Tests ask
// rgkitBin, which builds it once per test binary. The build is static
// (CGO_ENABLED=0): the tests start it a few hundred times, and a binary
// without the dynamic loader and libc's start-up costs a little less CPU
// per start; only the standard library's net and os/user have cgo code
// here, and their pure-Go halves do what rgkit needs.
func buildRgkit(t *testing.T) string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("go toolchain not in PATH: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "rgkit")
	cmd := exec.Command(gobin, "build", "-o", bin, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// mcpFixture is a workspace, a file beside it (outside), and a search that
// runs for minutes in the server's own process: the confined Grep of the
// agent tools goes straight to the in-process engine, so no external
// process can stand in for a slow search. The hidden directory .slow holds
// slowLinks hard links to one 256 KB file (256 KB of disk) of lines that
// hold the literal of slowPattern and need the matcher on every one without
// matching (about 14 ms of CPU per file, half a minute for all), so only a
// cancellation ends that search within a test; the files are hidden, so the
// other calls never walk them.
type mcpFixture struct {
	root, outside string
	// slowProbe is one of the slow files: its access time is set in the
	// past, and the first read by the server moves it (relatime updates
	// an access time older than the modification time).
	slowProbe string
	slowSince time.Time // the access time set on slowProbe
}

// slowPattern is what the slow search looks for (in .slow).
const slowPattern = `\bSLOWSEARCH\d`

// slowLinks is the number of slow files.
const slowLinks = 2000

// newMCPFixture is the workspace with the slow files.
func newMCPFixture(t *testing.T) mcpFixture {
	t.Helper()
	f := newMCPWorkspace(t)
	f.slowSince = time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	f.slowProbe = writeSlowTree(t, filepath.Join(f.root, ".slow"))
	if err := os.Chtimes(f.slowProbe, f.slowSince, fixtureMtime); err != nil {
		t.Fatal(err)
	}
	if !readsAreSeen(t, filepath.Dir(f.root)) {
		t.Skip("this file system does not record reads (noatime): the slow search could not be seen starting")
	}
	return f
}

// fixtureMtime is the modification time of every fixture file, so Glob's
// newest-first order falls back to path order and does not depend on the
// order of writing.
var fixtureMtime = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)

// newMCPWorkspace is the fixture without the slow files (no slowProbe),
// for the tests that never start the slow search: writing and removing
// the links costs CPU (0.4 s for the 20,000 there were).
func newMCPWorkspace(t *testing.T) mcpFixture {
	t.Helper()
	base := t.TempDir()
	root := filepath.Join(base, "ws")
	files := map[string]string{
		"ws/main.go":     "package main\n\nfunc main() { needle() }\n",
		"ws/lib/lib.go":  "package lib\n\nfunc needle() {}\n",
		"ws/notes/a.txt": "one\ntwo\nthree\n",
		"outside.txt":    "OUTSIDE\n",
	}
	for name, content := range files {
		p := filepath.Join(base, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, fixtureMtime, fixtureMtime); err != nil {
			t.Fatal(err)
		}
	}
	return mcpFixture{root: root, outside: filepath.Join(base, "outside.txt")}
}

// writeSlowTree writes the slow files into dir and returns the first.
func writeSlowTree(t *testing.T, dir string) string {
	t.Helper()
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	line := "\u00e9 SLOWSEARCH \u00e9 SLOWSEARCH\u00e9 x\n"
	first := filepath.Join(dir, "f00000.txt")
	if err := os.WriteFile(first, []byte(strings.Repeat(line, (256<<10)/len(line))), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := 1; i < slowLinks; i++ {
		if err := os.Link(first, filepath.Join(dir, fmt.Sprintf("f%05d.txt", i))); err != nil {
			t.Fatal(err)
		}
	}
	return first
}

// readsAreSeen reports whether reading a file moves its access time here.
func readsAreSeen(t *testing.T, dir string) bool {
	t.Helper()
	p := filepath.Join(dir, "atime-probe")
	if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	past := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(p, past, time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.ReadFile(p); err != nil {
		t.Fatal(err)
	}
	return readTime(t, p).After(past)
}

// readTime is the file's last access time.
func readTime(t *testing.T, p string) time.Time {
	t.Helper()
	var st unix.Stat_t
	if err := unix.Stat(p, &st); err != nil {
		t.Fatal(err)
	}
	sec, nsec := st.Atim.Unix()
	return time.Unix(sec, nsec)
}

// slowArgs are the Grep arguments of the slow search.
func slowArgs() map[string]any {
	return map[string]any{"pattern": slowPattern, "path": ".slow"}
}

// env is the server's environment.
func (f mcpFixture) env() []string {
	return os.Environ()
}

// slowStarted waits until the server has read a slow file, so the slow
// search is running, and reports true; false if done reports that the call
// finished first.
func (f mcpFixture) slowStarted(t *testing.T, done <-chan struct{}) bool {
	t.Helper()
	for !readTime(t, f.slowProbe).After(f.slowSince) {
		select {
		case <-done:
			return false
		case <-time.After(5 * time.Millisecond):
		}
	}
	return true
}

// noChildren checks that the server runs the search in its own process:
// there is no external engine to leak or to kill on cancellation. (Linux
// lists a process's children in /proc; elsewhere nothing is checked.)
func noChildren(t *testing.T, pid int) {
	t.Helper()
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	if err != nil || len(tasks) == 0 {
		return
	}
	for _, p := range tasks {
		if b, err := os.ReadFile(p); err == nil && len(strings.TrimSpace(string(b))) > 0 {
			t.Errorf("the server runs child processes %s during a confined search", b)
		}
	}
}

// lineLog collects a subprocess's stderr lines so a test can wait for one.
type lineLog struct {
	mu     sync.Mutex
	cond   *sync.Cond
	lines  []string
	closed bool
}

func newLineLog(r io.Reader) *lineLog {
	l := &lineLog{}
	l.cond = sync.NewCond(&l.mu)
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			l.mu.Lock()
			l.lines = append(l.lines, sc.Text())
			l.cond.Broadcast()
			l.mu.Unlock()
		}
		l.mu.Lock()
		l.closed = true
		l.cond.Broadcast()
		l.mu.Unlock()
	}()
	return l
}

// waitFor blocks until a line containing every one of parts has arrived,
// and returns it; "" when the stream ended without one.
func (l *lineLog) waitFor(parts ...string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	for seen := 0; ; l.cond.Wait() {
		for ; seen < len(l.lines); seen++ {
			if containsAll(l.lines[seen], parts) {
				return l.lines[seen]
			}
		}
		if l.closed {
			return ""
		}
	}
}

func (l *lineLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

func containsAll(s string, parts []string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
