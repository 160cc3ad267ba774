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
