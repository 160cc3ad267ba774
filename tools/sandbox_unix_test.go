//go:build unix

package tools

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Case 41: special files are refused as targets, before anything opens them
// (opening a FIFO blocks).
func TestSandboxResolveRefusesSpecialFiles(t *testing.T) {
	f := newSandboxFixture(t)
	fifo := filepath.Join(f.root, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := os.Symlink("pipe", filepath.Join(f.root, "to_pipe")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"pipe", "to_pipe"} {
		_, err := f.sb.Resolve(p)
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "FIFO") {
			t.Errorf("Resolve(%q) = %v; want a refusal naming the FIFO", p, err)
		}
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		if err := os.Symlink("/dev/zero", filepath.Join(f.root, "zero")); err != nil {
			t.Fatal(err)
		}
		if _, err := f.sb.Resolve("zero"); err == nil {
			t.Errorf("Resolve(zero -> /dev/zero) accepted")
		}
	}
}

func mkfifo(path string) error { return syscall.Mkfifo(path, 0o600) }

// A documented residual risk, pinned by this test: a hard
// link inside the root to a file outside is the same inode under an inside
// name; no path check (nor os.Root) can tell, so it is readable. Whoever
// can create hard links in the workspace could copy the file in as well.
func TestSandboxResidualHardLinkIsReadable(t *testing.T) {
	f := newSandboxFixture(t)
	if err := os.Link(filepath.Join(f.outside, "secret.txt"), filepath.Join(f.root, "hard.txt")); err != nil {
		t.Skipf("hard links unavailable here: %v", err)
	}
	w, err := NewWorkspace(f.root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	out, err := w.Read(t.Context(), ReadInput{FilePath: "hard.txt"})
	if err != nil || out.Text != "1\tOUTSIDE\n" {
		t.Fatalf("hard link: %q, %v (if this now fails, the residual risk is gone: update readme-tools.md)", out.Text, err)
	}
}
