package rgfetch

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// fullDisk models a file system with a few free bytes: the temp files it
// creates share that budget, and a write past it is cut short with ENOSPC,
// as write(2) does on a full disk.
type fullDisk struct {
	mu   sync.Mutex
	free int64
}

func (d *fullDisk) createTemp(dir, pattern string) (tempFile, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	return &fullDiskFile{File: f, disk: d}, nil
}

type fullDiskFile struct {
	*os.File
	disk *fullDisk
}

func (f *fullDiskFile) Write(p []byte) (int, error) {
	f.disk.mu.Lock()
	n := int64(len(p))
	if n > f.disk.free {
		n = f.disk.free
	}
	f.disk.free -= n
	f.disk.mu.Unlock()
	w, err := f.File.Write(p[:n])
	if err == nil && w < len(p) {
		err = &fs.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
	}
	return w, err
}

// A full disk during an upgrade leaves the old rg installed and working,
// no temp file behind, and an error that says "disk full". The archive is
// downloaded once: a local write failure is not retried.
func TestDiskFullKeepsTheOldRg(t *testing.T) {
	skipIfNoShell(t)
	tests := []struct {
		name     string
		free     func(archive int) int64 // bytes free when the upgrade starts
		wantStep string                  // which write fails
	}{
		{"no room for the download", func(int) int64 { return 10 }, "download"},
		{"no room for the executable", func(archive int) int64 { return int64(archive) + 10 }, "extract"},
	}
	for _, tt := range tests {
		for _, how := range []string{"version bump", "force"} {
			t.Run(tt.name+"/"+how, func(t *testing.T) {
				e := newTestEnv(t)
				_, d1 := e.serveFake("15.2.0")
				name2, d2 := e.serveFake("15.3.0")
				first := e.resolver()
				first.SHA256 = d1
				old, err := first.Resolve(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				oldBytes, _ := os.ReadFile(old.Path)

				r := e.resolver()
				r.retries = 3
				if how == "force" {
					r.Force, r.SHA256 = true, d1
					name2 = strings.Replace(name2, "15.3.0", "15.2.0", 2)
				} else {
					r.Version, r.SHA256 = "15.3.0", d2
				}
				disk := &fullDisk{free: tt.free(len(e.srv.files[name2]))}
				r.createTemp = disk.createTemp
				_, err = r.Resolve(context.Background())
				if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "disk full") ||
					!strings.HasPrefix(err.Error(), tt.wantStep) {
					t.Fatalf("err = %v; want %q ... disk full, wrapping ENOSPC", err, tt.wantStep)
				}
				if n := e.srv.count(name2); n != 1+boolInt(how == "force") {
					t.Errorf("%s requested %d times; a full disk must not be retried", name2, n)
				}
				assertWorks(t, old, "15.2.0")
				if now, _ := os.ReadFile(old.Path); string(now) != string(oldBytes) {
					t.Error("the old rg's bytes changed")
				}
				if _, err := verifyManaged(e.binDir, "rg", "15.2.0"); err != nil {
					t.Errorf("the old managed copy no longer verifies: %v", err)
				}
				assertNoTemps(t, e.binDir)
			})
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
