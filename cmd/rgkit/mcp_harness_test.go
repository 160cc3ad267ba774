//go:build unix

package main

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The MCP end-to-end tests run the real rgkit binary as a subprocess and
// talk to it with real clients. This file holds their shared fixture.

// buildRgkit compiles this command into a temporary directory.
func buildRgkit(t *testing.T) string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("go toolchain not in PATH: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "rgkit")
	out, err := exec.Command(gobin, "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// mcpFixture is a workspace, a file beside it (outside), and a fake rg that
// runs the real one except for a pattern containing SLOWSEARCH, where it
// records its pid and sleeps: a search that cannot finish on its own, so
// cancelling it is deterministic.
type mcpFixture struct {
	root, outside string
	fakeRg        string // use as RGKIT_RG_PATH
	mark          string // the sleeping fake writes its pid here
}

func newMCPFixture(t *testing.T) mcpFixture {
	t.Helper()
	realRg, err := exec.LookPath("rg")
	if err != nil {
		t.Skipf("rg not installed; the slow-search fixture wraps it: %v", err)
	}
	base := t.TempDir()
	root := filepath.Join(base, "ws")
	files := map[string]string{
		"ws/main.go":     "package main\n\nfunc main() { needle() }\n",
		"ws/lib/lib.go":  "package lib\n\nfunc needle() {}\n",
		"ws/notes/a.txt": "one\ntwo\nthree\n",
		"outside.txt":    "OUTSIDE\n",
	}
	// One modification time for all, so Glob's newest-first order falls
	// back to path order and does not depend on the order of writing.
	mtime := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	for name, content := range files {
		p := filepath.Join(base, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(base, "fakebin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	f := mcpFixture{root: root, outside: filepath.Join(base, "outside.txt"),
		fakeRg: filepath.Join(bin, "rg"), mark: filepath.Join(base, "slow.pid")}
	// The engine passes rg a scrubbed environment, so the paths are
	// written into the script.
	script := "#!/bin/sh\nfor a in \"$@\"; do\n  case \"$a\" in *SLOWSEARCH*) echo $$ > '" + f.mark +
		"'; exec sleep 600;; esac\ndone\nexec '" + realRg + "' \"$@\"\n"
	if err := os.WriteFile(f.fakeRg, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	// Grep confines its engines beneath the held root, which rg cannot
	// be, so the default chain's Grep runs the system grep engine: the
	// same slow fake stands in for grep, first on the server's PATH.
	realGrep, err := exec.LookPath("grep")
	if err != nil {
		t.Skipf("grep not installed; the slow-search fixture wraps it: %v", err)
	}
	grepScript := strings.Replace(script, realRg, realGrep, 1)
	if err := os.WriteFile(filepath.Join(bin, "grep"), []byte(grepScript), 0o755); err != nil {
		t.Fatal(err)
	}
	return f
}

// env is the server's environment: the fake rg and grep are the ones it
// must use.
func (f mcpFixture) env() []string {
	return append(os.Environ(), "RGKIT_RG_PATH="+f.fakeRg,
		"PATH="+filepath.Dir(f.fakeRg)+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// slowPid waits until the sleeping fake rg has started and returns its
// pid, or returns 0 if done reports that the call finished first.
func (f mcpFixture) slowPid(t *testing.T, done <-chan struct{}) int {
	t.Helper()
	for {
		select {
		case <-done:
			return 0
		default:
		}
		if b, err := os.ReadFile(f.mark); err == nil && len(b) > 0 && b[len(b)-1] == '\n' {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatalf("bad pid file %q", b)
			}
			return pid
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// waitGone waits until process pid no longer exists: the search was not
// only abandoned but its rg killed. (It was rgkit's child, reaped by it.)
func waitGone(t *testing.T, pid int) {
	t.Helper()
	for {
		err := syscall.Kill(pid, 0)
		if errors.Is(err, syscall.ESRCH) {
			return
		}
		time.Sleep(5 * time.Millisecond)
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
