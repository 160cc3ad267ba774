package rgfetch

import (
	"context"
	"errors"
	"testing"
	"time"
)

// With FailureMemory, a process that finds a recent failed download fails
// at once without a request; after the memory expires, or with Force, it
// tries again; a success clears the marker.
func TestFailureMemoryAcrossProcesses(t *testing.T) {
	skipIfNoShell(t)
	e := newTestEnv(t)
	_, d := e.serveFake("15.2.0")
	e.srv.fault(fakeAsset, status(4, 503)) // first process: 1 + 3 retries, all 503
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	proc := func() *Resolver {
		r := e.resolver()
		r.NoSystem, r.SHA256, r.FailureMemory = true, d, 10*time.Minute
		r.now = func() time.Time { return now }
		return r
	}
	if _, err := proc().Resolve(context.Background()); err == nil {
		t.Fatal("first process: want a failure")
	}
	hits := e.srv.count(fakeAsset)
	_, err := proc().Resolve(context.Background())
	var rf *recentFailureError
	if !errors.As(err, &rf) || e.srv.count(fakeAsset) != hits {
		t.Fatalf("second process: %v after %d more requests; want a recentFailureError and none", err, e.srv.count(fakeAsset)-hits)
	}
	forced := proc()
	forced.Force = true
	if _, err := forced.Resolve(context.Background()); err != nil {
		t.Fatalf("--force: %v", err)
	}
	// The success cleared the marker: a later process after a new failure
	// window is not blocked by the old one.
	now = now.Add(time.Minute)
	if s := proc().settings(); s.recentFailure() != nil {
		t.Fatal("marker survived a successful install")
	}
}

func TestFailureMemoryOffByDefault(t *testing.T) {
	e := newTestEnv(t)
	_, d := e.serveFake("15.2.0")
	e.srv.fault(fakeAsset, status(99, 503))
	for range 2 {
		r := e.resolver()
		r.NoSystem, r.SHA256, r.retries = true, d, -1
		r.Resolve(context.Background())
	}
	if n := e.srv.count(fakeAsset); n != 2 {
		t.Fatalf("%d requests from two processes, want 2 (no failure memory unless asked)", n)
	}
}
