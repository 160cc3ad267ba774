//go:build unix

// Package proctest holds the helpers that tests of subprocess handling share:
// stand-in engines and a check that a process group is gone.
package proctest

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// FakeEngine returns the absolute path of a stand-in executable from
// testdata/fake-engines, skipping the test without /bin/sh.
func FakeEngine(t *testing.T, name string) string {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	p, err := filepath.Abs(filepath.Join(filepath.Dir(here), "..", "..", "..", "testdata", "fake-engines", name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh for the stand-in engines")
	}
	return p
}

// liveGroupMembers lists the processes of group pgid that are not zombies.
func LiveGroupMembers(pgid int) []int {
	var live []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...
		rest := b[bytes.LastIndexByte(b, ')')+1:]
		f := strings.Fields(string(rest))
		if len(f) < 3 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		if g, _ := strconv.Atoi(f[2]); g == pgid {
			live = append(live, pid)
		}
	}
	return live
}

// AssertGroupGone checks that no live process is left in group pgid. SIGKILL
// is asynchronous, so it polls; the bound is generous and never the thing
// under test.
func AssertGroupGone(t *testing.T, pgid int) {
	t.Helper()
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		if err := syscall.Kill(-pgid, 0); err == nil {
			t.Errorf("process group %d still exists", pgid)
		}
		return
	}
	var live []int
	for range 200 {
		if live = LiveGroupMembers(pgid); len(live) == 0 {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Errorf("process group %d still has live members %v (orphans)", pgid, live)
}
