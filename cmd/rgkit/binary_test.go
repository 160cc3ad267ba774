package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// The CLI tests run the compiled command. Building it costs seconds of
// CPU (go build links a new binary every time), so the tests share one
// build: rgkitBin builds it the first time it is asked (buildRgkit) and
// keeps it, hard-linked or copied, in a directory that TestMain removes.

// TestMain removes the shared binary after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if sharedBin.dir != "" {
		os.RemoveAll(sharedBin.dir)
	}
	os.Exit(code)
}

var sharedBin struct {
	once sync.Once
	dir  string // holds the binary; removed by TestMain
	path string // the binary, "" when the build failed
}

// rgkitBin returns the rgkit command built from this package, once per
// test binary. No test may change the file (a test that needs a
// different name or place links or copies it).
func rgkitBin(t *testing.T) string {
	t.Helper()
	sharedBin.once.Do(func() {
		built := buildRgkit(t) // fails t (and leaves path empty) when go build fails
		dir, err := os.MkdirTemp("", "rgkit-cli-test-")
		if err != nil {
			t.Fatal(err)
		}
		sharedBin.dir = dir
		p := filepath.Join(dir, "rgkit")
		// A hard link needs no open file descriptor, so no parallel test's
		// fork can hold one while the binary is executed (ETXTBSY); the copy
		// is for a temporary directory on another file system.
		if err := os.Link(built, p); err != nil {
			if err := copyExecutable(built, p); err != nil {
				t.Fatal(err)
			}
		}
		sharedBin.path = p
	})
	if sharedBin.path == "" {
		t.Fatal("building rgkit failed in an earlier test")
	}
	return sharedBin.path
}

// copyExecutable copies the program at from to a new file to, mode 0755,
// written by a cp process: a write descriptor held by this test process
// would be inherited by any child another test forks meanwhile, and
// running to while such a child lives fails with "text file busy" (Go
// issue 22315; CI hit it).
func copyExecutable(from, to string) error {
	if _, err := os.Stat(to); err == nil {
		return &os.PathError{Op: "copy", Path: to, Err: os.ErrExist}
	}
	if out, err := exec.Command("cp", from, to).CombinedOutput(); err != nil {
		return fmt.Errorf("cp %s %s: %w: %s", from, to, err, out)
	}
	return os.Chmod(to, 0o755)
}
