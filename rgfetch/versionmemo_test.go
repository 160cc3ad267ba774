package rgfetch

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rgkit/rgkit/internal/testtool"
)

// countingRg writes an rg whose every run appends a line to a log, so a
// test can tell whether `rg --version` ran.
func countingRg(t *testing.T, dir, version string) (exe, log string) {
	t.Helper()
	exe, log = filepath.Join(dir, "rg"), filepath.Join(dir, "runs.log")
	script := "#!/bin/sh\necho run >> '" + log + "'\necho \"ripgrep " + version + "\"\n"
	testtool.WriteExecutable(t, exe, []byte(script))
	return exe, log
}

func runs(t *testing.T, log string) int {
	t.Helper()
	b, err := os.ReadFile(log)
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "run\n")
}

// systemResolve resolves like a fresh process would (no in-memory cache),
// with exe as the rg on PATH.
func systemResolve(t *testing.T, e *testEnv, exe string) Resolved {
	t.Helper()
	r := e.resolver()
	r.NoDownload = true
	r.lookPath = func(string) (string, error) { return exe, nil }
	res, err := r.Resolve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestVersionOfAnUnchangedRgIsAskedOnce(t *testing.T) {
	skipIfNoShell(t)
	if runtime.GOOS == "windows" {
		t.Skip("the memo needs an inode change time")
	}
	t.Parallel()

	t.Run("two processes in a row run rg --version once", func(t *testing.T) {
		t.Parallel()
		e := newTestEnv(t)
		exe, log := countingRg(t, t.TempDir(), "15.2.0")
		for range 3 {
			if v := systemResolve(t, e, exe).Version; v != "15.2.0" {
				t.Fatalf("version %q, want 15.2.0", v)
			}
		}
		if n := runs(t, log); n != 1 {
			t.Fatalf("rg --version ran %d times, want 1", n)
		}
	})

	t.Run("a binary rewritten in place is asked again, even with its old size and times", func(t *testing.T) {
		t.Parallel()
		e := newTestEnv(t)
		exe, log := countingRg(t, t.TempDir(), "15.2.0")
		systemResolve(t, e, exe)
		fi, err := os.Stat(exe)
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Millisecond)          // a change time the kernel can tell apart
		countingRg(t, filepath.Dir(exe), "13.0.0") // same length: same size
		if err := os.Chtimes(exe, fi.ModTime(), fi.ModTime()); err != nil {
			t.Fatal(err)
		}
		if v := systemResolve(t, e, exe).Version; v != "13.0.0" {
			t.Fatalf("after the rewrite the version is %q, want 13.0.0 (a stale memo)", v)
		}
		if n := runs(t, log); n != 2 {
			t.Fatalf("rg --version ran %d times, want 2", n)
		}
	})

	t.Run("a binary replaced by rename is asked again", func(t *testing.T) {
		t.Parallel()
		e := newTestEnv(t)
		dir := t.TempDir()
		exe, _ := countingRg(t, dir, "15.2.0")
		systemResolve(t, e, exe)
		other, _ := countingRg(t, t.TempDir(), "14.1.1")
		if err := os.Rename(other, exe); err != nil {
			t.Fatal(err)
		}
		if v := systemResolve(t, e, exe).Version; v != "14.1.1" {
			t.Fatalf("after the replacement the version is %q, want 14.1.1", v)
		}
	})

	t.Run("a failed probe is not remembered", func(t *testing.T) {
		t.Parallel()
		e := newTestEnv(t)
		dir := t.TempDir()
		exe := filepath.Join(dir, "rg")
		testtool.WriteExecutable(t, exe, []byte("#!/bin/sh\necho run >> '"+filepath.Join(dir, "runs.log")+"'\nexit 3\n"))
		for range 2 {
			r := e.resolver()
			r.NoDownload = true
			r.lookPath = func(string) (string, error) { return exe, nil }
			if _, err := r.Resolve(context.Background()); err == nil {
				t.Fatal("an rg whose --version fails was accepted")
			}
		}
		if n := runs(t, filepath.Join(dir, "runs.log")); n != 2 {
			t.Fatalf("rg --version ran %d times, want 2 (failures must be asked again)", n)
		}
	})

	t.Run("a corrupt or unwritable memo only costs a probe", func(t *testing.T) {
		t.Parallel()
		e := newTestEnv(t)
		memo := filepath.Join(e.home, ".cache", "rgkit", "rg-versions")
		if err := os.MkdirAll(filepath.Dir(memo), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(memo, []byte("garbage\x00\n\t\t\t\nmore\tgarbage\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		exe, _ := countingRg(t, t.TempDir(), "15.2.0")
		if v := systemResolve(t, e, exe).Version; v != "15.2.0" {
			t.Fatalf("version %q with a corrupt memo", v)
		}
		if err := os.RemoveAll(filepath.Dir(memo)); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Dir(memo), nil, 0o644); err != nil { // a file where the directory goes
			t.Fatal(err)
		}
		if v := systemResolve(t, e, exe).Version; v != "15.2.0" {
			t.Fatalf("version %q with an unwritable memo", v)
		}
	})
}
