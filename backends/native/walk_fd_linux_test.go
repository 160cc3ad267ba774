package native

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// TestUnreachableStartClosesNoDescriptorItDoesNotOwn: a worker's listing
// began as the zero dirList, whose descriptor field reads 0, so a worker
// whose first directory was an unreachable confined start (the start
// swapped for a link between its stat and its open) closed descriptor 0,
// whatever the process had there by then. In the MCP server that was, once
// 0 had been reused, the workspace's own root: every later call failed
// with "bad file descriptor" (the sandbox race test saw it twice under
// load). Not parallel: it watches descriptor 0 of the whole process.
func TestUnreachableStartClosesNoDescriptorItDoesNotOwn(t *testing.T) {
	var st unix.Stat_t
	if unix.Fstat(0, &st) != nil {
		// Occupy descriptor 0, so that closing it is seen.
		f, err := os.Open(os.DevNull)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if f.Fd() != 0 {
			t.Skipf("descriptor 0 is free but %s opened as %d", os.DevNull, f.Fd())
		}
	}
	if err := unix.Fstat(0, &st); err != nil {
		t.Fatal(err)
	}
	var l dirList // as each walk worker starts
	(&walker{}).listDir(work{unreachable: true}, &l, nil)
	if err := unix.Fstat(0, &st); err != nil {
		t.Fatalf("listing an unreachable start closed descriptor 0: %v", err)
	}
}
