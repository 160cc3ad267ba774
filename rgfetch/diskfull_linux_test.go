//go:build linux

package rgfetch

import (
	"context"
	"crypto/rand"
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// smallTmpfs mounts a 64 KiB tmpfs for the test, or skips when mounting is
// not allowed (not root, no CAP_SYS_ADMIN, a restricted container).
func smallTmpfs(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := unix.Mount("tmpfs", dir, "tmpfs", 0, "size=64k"); err != nil {
		t.Skipf("cannot mount a small tmpfs here (%v); TestDiskFullKeepsTheOldRg covers the logic", err)
	}
	t.Cleanup(func() {
		if err := unix.Unmount(dir, 0); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	return dir
}

// The real thing: the bin dir is a 64 KiB tmpfs, and the kernel answers
// ENOSPC. An upgrade that does not fit leaves the old rg installed and
// working, no temp file, and an error that says "disk full".
func TestDiskFullOnRealTmpfs(t *testing.T) {
	skipIfNoShell(t)
	script := "#!/bin/sh\necho \"ripgrep 15.3.0\"\nexit 0\n"
	random := make([]byte, 256<<10)
	rand.Read(random)
	tests := []struct {
		name, wantStep string
		exe            []byte
	}{
		// Random bytes do not compress: the archive itself does not fit.
		{"archive too big", "download", append([]byte(script+"#"), random...)},
		// 256 KiB of comment lines compress to almost nothing: the archive
		// fits, the executable does not.
		{"executable too big", "extract", []byte(script + strings.Repeat("# padding padding padding\n", 10<<10))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newTestEnv(t)
			e.binDir = smallTmpfs(t)
			_, d1 := e.serveFake("15.2.0")
			first := e.resolver()
			first.BinDir, first.SHA256 = e.binDir, d1
			old, err := first.Resolve(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			name, data := releaseTarGz(t, "15.3.0", "x86_64-unknown-linux-musl", tt.exe)
			e.srv.put(name, data)

			r := e.resolver()
			r.BinDir, r.Version, r.SHA256 = e.binDir, "15.3.0", sha256Hex(data)
			_, err = r.Resolve(context.Background())
			if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "disk full") ||
				!strings.HasPrefix(err.Error(), tt.wantStep) {
				t.Fatalf("err = %v; want %q ... disk full, wrapping ENOSPC", err, tt.wantStep)
			}
			if n := e.srv.count(name); n != 1 {
				t.Errorf("%s requested %d times; a full disk must not be retried", name, n)
			}
			assertWorks(t, old, "15.2.0")
			if _, err := verifyManaged(e.binDir, "rg", "15.2.0"); err != nil {
				t.Errorf("the old managed copy no longer verifies: %v", err)
			}
			assertNoTemps(t, e.binDir)
			// Nothing is left but rg, its stamp and the lock file.
			entries, _ := os.ReadDir(e.binDir)
			if len(entries) > 3 { // rg, its stamp, the lock
				t.Errorf("bin dir holds %d entries after the failure", len(entries))
			}
		})
	}
}
