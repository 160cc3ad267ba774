//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// `rgkit fetch --force` into a full bin dir (a 64 KiB tmpfs) fails with
// exit 2 and "disk full", and the rg already there still runs.
func TestFetchDiskFullKeepsTheOldRg(t *testing.T) {
	linuxAMD64Only(t)
	isolateFetch(t)
	bin := t.TempDir()
	if err := unix.Mount("tmpfs", bin, "tmpfs", 0, "size=64k"); err != nil {
		t.Skipf("cannot mount a small tmpfs here (%v); rgfetch's TestDiskFullKeepsTheOldRg covers the logic", err)
	}
	t.Cleanup(func() {
		if err := unix.Unmount(bin, 0); err != nil {
			t.Errorf("unmount %s: %v", bin, err)
		}
	})
	small, big := t.TempDir(), t.TempDir()
	d1 := packRelease(t, small, "15.2.0", fakeRgScript("15.2.0"))
	if out, errOut, code := runCLI(t, "fetch", "--mirror", small, "--bin-dir", bin, "--sha256", d1); code != 0 {
		t.Fatalf("first install: exit %d, %q, %s", code, out, errOut)
	}
	// The same release, padded past the free space; comment lines compress
	// well, so it is the executable that does not fit.
	padded := append(fakeRgScript("15.2.0"), strings.Repeat("# padding padding padding\n", 10<<10)...)
	d2 := packRelease(t, big, "15.2.0", padded)
	out, errOut, code := runCLI(t, "fetch", "--force", "--mirror", big, "--bin-dir", bin, "--sha256", d2)
	if code != 2 || out != "" || !strings.Contains(errOut, "disk full") || !strings.Contains(errOut, "no space left on device") {
		t.Fatalf("exit %d, stdout %q, stderr %s; want 2, nothing, and disk full", code, out, errOut)
	}
	got, err := exec.Command(filepath.Join(bin, "rg"), "--version").Output()
	if err != nil || !strings.HasPrefix(string(got), "ripgrep 15.2.0") {
		t.Fatalf("old rg after the failure: %q, %v", got, err)
	}
	entries, _ := os.ReadDir(bin)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temp file left: %s", e.Name())
		}
	}
	// The old copy still verifies: no reinstall is needed, offline.
	if out, errOut, code := runCLI(t, "fetch", "--offline", "--bin-dir", bin); code != 0 || out != filepath.Join(bin, "rg")+"\n" {
		t.Fatalf("after the failure, offline: exit %d, %q, %s", code, out, errOut)
	}
}
