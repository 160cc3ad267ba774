package rgfetch

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// Force re-downloads and reinstalls a managed copy that verifies. The new
// binary replaces the old one by rename: right up to the rename the old
// file is in place and runs, and a handle opened on it before the
// reinstall still reads its complete bytes afterwards (it was never
// rewritten in place).
func TestForceReinstallsAnIntactManagedCopy(t *testing.T) {
	skipIfNoShell(t)
	e := newTestEnv(t)
	name, d := e.serveFake("15.2.0")
	first := e.resolver()
	first.SHA256 = d
	res, err := first.Resolve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rg := filepath.Join(e.binDir, "rg")
	oldInfo, err := os.Stat(rg)
	if err != nil {
		t.Fatal(err)
	}
	oldBytes, _ := os.ReadFile(rg)
	old, err := os.Open(rg)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()

	// Control: without Force the intact copy is reused, nothing downloaded.
	again := e.resolver()
	again.SHA256 = d
	if res, err := again.Resolve(context.Background()); err != nil || res.Source != SourceManaged || e.srv.count(name) != 1 {
		t.Fatalf("without Force: %+v, %v, %d downloads; want the managed copy and 1", res, err, e.srv.count(name))
	}

	forced := e.resolver()
	forced.SHA256, forced.Force = d, true
	sawOld := false
	forced.checkpoint = func(step string) {
		if step != checkpointVerified {
			return
		}
		// The new binary is complete and verified; the old one still
		// stands at the path.
		fi, err := os.Stat(rg)
		sawOld = err == nil && os.SameFile(fi, oldInfo)
		assertWorks(t, Resolved{Path: rg}, "15.2.0")
	}
	res, err = forced.Resolve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Source != SourceDownloaded || res.Path != rg {
		t.Fatalf("Resolved = %+v; want a fresh download at %s", res, rg)
	}
	if n := e.srv.count(name); n != 2 {
		t.Fatalf("%d downloads of %s; Force must download once more (2)", n, name)
	}
	if !sawOld {
		t.Error("the old rg was not in place just before the rename")
	}
	newInfo, err := os.Stat(rg)
	if err != nil {
		t.Fatal(err)
	}
	if os.SameFile(newInfo, oldInfo) {
		t.Error("the managed rg is the same file as before: rewritten in place, not replaced")
	}
	kept, err := io.ReadAll(old)
	if err != nil || string(kept) != string(oldBytes) {
		t.Errorf("a handle on the old rg reads %d bytes (%v), want its original %d", len(kept), err, len(oldBytes))
	}
	assertWorks(t, res, "15.2.0")
	assertNoTemps(t, e.binDir)
	if _, err := verifyManaged(e.binDir, "rg", "15.2.0"); err != nil {
		t.Errorf("after Force the managed copy does not verify: %v", err)
	}
}
