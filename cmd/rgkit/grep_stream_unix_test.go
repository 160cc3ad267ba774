//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
)

// TestGrepNamedStreamsAndLinks: what rg searches when it is named on the
// command line besides files and directories — a FIFO (`rg foo <(cmd)`),
// /dev/null, and a link to a file elsewhere (/dev/stdin redirected from a
// file is one) — rgkit searches too, printed by the name given.
func TestGrepNamedStreamsAndLinks(t *testing.T) {
	dir := t.TempDir()
	t.Run("a FIFO is read as a stream", func(t *testing.T) {
		fifo := filepath.Join(dir, "fifo")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
		go func() {
			f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err != nil {
				return
			}
			f.WriteString("a\nfoo 1\nb\nfoo 2\n")
			f.Close()
		}()
		out, errOut, code := grepIn(t, dir, nil, "-n", "foo", "fifo")
		if out != "2:foo 1\n4:foo 2\n" || errOut != "" || code != 0 {
			t.Fatalf("got %q %q exit %d", out, errOut, code)
		}
	})
	t.Run("/dev/null has no match", func(t *testing.T) {
		out, errOut, code := grepIn(t, dir, nil, "foo", "/dev/null")
		if out != "" || errOut != "" || code != 1 {
			t.Fatalf("got %q %q exit %d; want nothing, exit 1", out, errOut, code)
		}
	})
	t.Run("a link to a file elsewhere is followed and printed as named", func(t *testing.T) {
		other := t.TempDir()
		if err := os.WriteFile(filepath.Join(other, "real.txt"), []byte("x\nfoo\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(other, "real.txt"), filepath.Join(dir, "link")); err != nil {
			t.Fatal(err)
		}
		out, errOut, code := grepIn(t, dir, nil, "-n", "foo", "link", "/dev/null")
		if out != "link:2:foo\n" || errOut != "" || code != 0 {
			t.Fatalf("got %q %q exit %d; want %q", out, errOut, code, "link:2:foo\n")
		}
	})
	t.Run("/proc/self/fd/N of a file, as /dev/stdin redirected from one", func(t *testing.T) {
		real := filepath.Join(t.TempDir(), "real.txt")
		if err := os.WriteFile(real, []byte("x\nfoo\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(real)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		name := "/proc/self/fd/" + strconv.Itoa(int(f.Fd()))
		if _, err := os.Stat(name); err != nil {
			t.Skipf("no /proc: %v", err)
		}
		out, errOut, code := grepIn(t, dir, nil, "-c", "foo", name)
		if out != "1\n" || errOut != "" || code != 0 {
			t.Fatalf("got %q %q exit %d; want 1", out, errOut, code)
		}
	})
}
