package rgfetch

import (
	"context"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rgkit/rgkit/internal/testtool"
)

// realRg returns the system rg for tests that need a real one.
func realRg(t testing.TB) string {
	p, err := exec.LookPath("rg")
	if err != nil {
		t.Skip("no rg on PATH")
	}
	return p
}

func lookPathTo(p string) func(string) (string, error) {
	return func(string) (string, error) { return p, nil }
}

func TestGoodSystemRgWins(t *testing.T) {
	rg := realRg(t)
	e := newTestEnv(t)
	r := e.resolver()
	r.lookPath = lookPathTo(rg)
	res, err := r.Resolve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(rg)
	if res.Source != SourceSystem || res.Path != real {
		t.Fatalf("Resolved = %+v, want the system rg %s", res, real)
	}
	if n := e.srv.total(); n != 0 {
		t.Errorf("%d HTTP requests with a good system rg", n)
	}
}

func TestTooOldSystemRgSkipped(t *testing.T) {
	skipIfNoShell(t)
	e := newTestEnv(t)
	_, d := e.serveFake("15.2.0")
	old := writeFakeRg(t, t.TempDir(), "11.0.0")
	r := e.resolver()
	r.lookPath, r.SHA256 = lookPathTo(old), d
	res, err := r.Resolve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Source != SourceDownloaded {
		t.Fatalf("Resolved = %+v, want a download past the 11.0.0 system rg", res)
	}
	tr := r.Explain(context.Background())
	if st := tr.Steps[1]; st.Source != SourceSystem || st.Verdict != VerdictRejected || !strings.Contains(st.Reason, "older than the minimum 13.0.0") {
		t.Errorf("system step = %+v", st)
	}
}

// A rg planted inside the working directory (a cloned repository's ./bin/rg
// on a careless PATH) is never run.
func TestSystemRgInsideWorkDirRefused(t *testing.T) {
	skipIfNoShell(t)
	e := newTestEnv(t)
	e.serveFake("15.2.0")
	r := e.resolver()
	bin := filepath.Join(r.WorkDir, "bin")
	os.Mkdir(bin, 0o755)
	marker := filepath.Join(t.TempDir(), "ran")
	planted := filepath.Join(bin, "rg")
	testtool.WriteExecutable(t, planted, []byte("#!/bin/sh\ntouch "+marker+"\necho ripgrep 15.2.0\n"))
	r.lookPath = lookPathTo(planted)
	r.NoDownload = true
	_, err := r.Resolve(context.Background())
	if !errors.Is(err, ErrNotInstalled) {
		t.Fatalf("err = %v, want ErrNotInstalled", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the planted rg was executed")
	}
	// Control: outside the working directory the same script is used, so
	// the test is not passing vacuously.
	r2 := e.resolver()
	r2.lookPath = lookPathTo(planted)
	if res, err := r2.Resolve(context.Background()); err != nil || res.Source != SourceSystem {
		t.Fatalf("control: %+v, %v", res, err)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("control did not run the script")
	}
}

func TestRelativePathEntryRefused(t *testing.T) {
	e := newTestEnv(t)
	r := e.resolver()
	r.NoDownload = true
	r.lookPath = func(string) (string, error) { return "rg", &exec.Error{Name: "rg", Err: exec.ErrDot} }
	if _, err := r.Resolve(context.Background()); !errors.Is(err, ErrNotInstalled) {
		t.Fatalf("err = %v", err)
	}
}

func TestManagedCopyReusedWithoutNetwork(t *testing.T) {
	skipIfNoShell(t)
	e := newTestEnv(t)
	_, d := e.serveFake("15.2.0")
	first := e.resolver()
	first.SHA256 = d
	if _, err := first.Resolve(context.Background()); err != nil {
		t.Fatal(err)
	}
	before := e.srv.total()
	second := e.resolver() // a new process, in effect
	res, err := second.Resolve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Source != SourceManaged || e.srv.total() != before {
		t.Fatalf("Resolved = %+v after %d more requests; want the managed copy and none", res, e.srv.total()-before)
	}
	assertWorks(t, res, "15.2.0")
}

// A managed copy that no longer verifies is reinstalled, never trusted and
// never left failing for ever. Regressions: opencode/NovaClaw kept an old
// binary across a pin bump; wave-agent's 0644 copy "never self-heals".
func TestBrokenManagedCopyReinstalled(t *testing.T) {
	skipIfNoShell(t)
	tests := []struct {
		name    string
		version string // the version asked for the second time
		breakIt func(t *testing.T, rg, binDir string)
	}{
		{"pinned version bump", "15.3.0", func(*testing.T, string, string) {}},
		{"one byte flipped after install", "15.2.0", func(t *testing.T, rg, _ string) {
			data, _ := os.ReadFile(rg)
			data[len(data)-2] ^= 1
			testtool.WriteExecutable(t, rg, data)
		}},
		{"exec bit lost", "15.2.0", func(t *testing.T, rg, _ string) { os.Chmod(rg, 0o644) }},
		{"stamp deleted", "15.2.0", func(t *testing.T, _, dir string) { os.Remove(stampPath(dir, "rg")) }},
		{"stamp garbled", "15.2.0", func(t *testing.T, _, dir string) { os.WriteFile(stampPath(dir, "rg"), []byte("{"), 0o644) }},
		{"replaced by a symlink", "15.2.0", func(t *testing.T, rg, _ string) {
			os.Remove(rg)
			os.Symlink("/bin/sh", rg)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newTestEnv(t)
			_, d1 := e.serveFake("15.2.0")
			_, d2 := e.serveFake("15.3.0")
			digest := map[string]string{"15.2.0": d1, "15.3.0": d2}
			r := e.resolver()
			r.SHA256 = d1
			res, err := r.Resolve(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			tt.breakIt(t, res.Path, e.binDir)
			before := e.srv.total()
			r2 := e.resolver() // the next process
			r2.Version, r2.SHA256 = tt.version, digest[tt.version]
			res2, err := r2.Resolve(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if res2.Source != SourceDownloaded || e.srv.total() != before+1 {
				t.Fatalf("Resolved = %+v after %d requests; want one reinstall", res2, e.srv.total()-before)
			}
			assertWorks(t, res2, tt.version)
		})
	}
}

func TestOverrideWins(t *testing.T) {
	skipIfNoShell(t)
	e := newTestEnv(t)
	override := writeFakeRg(t, t.TempDir(), "12.0.0") // below the floor: the user chose it
	for _, how := range []string{"field", "env"} {
		t.Run(how, func(t *testing.T) {
			r := e.resolver()
			r.lookPath = func(string) (string, error) {
				t.Error("system rg consulted despite the override")
				return "", os.ErrNotExist
			}
			if how == "field" {
				r.Override = override
			} else {
				e.env["RGKIT_RG_PATH"] = override
				t.Cleanup(func() { delete(e.env, "RGKIT_RG_PATH") })
			}
			for range 2 { // the second call comes from the memo
				res, err := r.Resolve(context.Background())
				if err != nil || res.Source != SourceOverride || res.Path != override || res.Version != "12.0.0" {
					t.Fatalf("Resolved = %+v, %v; want the override", res, err)
				}
			}
		})
	}
	// A broken override is an error, never a silent fallback.
	r := e.resolver()
	r.Override = filepath.Join(t.TempDir(), "missing-rg")
	r.lookPath = lookPathTo(override)
	if _, err := r.Resolve(context.Background()); err == nil || !strings.Contains(err.Error(), "RGKIT_RG_PATH") {
		t.Fatalf("err = %v, want the broken override reported", err)
	}
}

// Concurrent callers share one resolution; later calls hit the memory cache.
func TestConcurrentCallersShareOneResolution(t *testing.T) {
	skipIfNoShell(t)
	e := newTestEnv(t)
	name, d := e.serveFake("15.2.0")
	r := e.resolver()
	r.SHA256 = d
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for range 50 {
		wg.Go(func() {
			res, err := r.Resolve(context.Background())
			if err == nil && res.Path != filepath.Join(e.binDir, "rg") {
				err = errors.New("wrong path " + res.Path)
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := e.srv.count(name); n != 1 {
		t.Errorf("archive downloaded %d times, want 1", n)
	}
	if n := e.lookups.Load(); n != 1 {
		t.Errorf("PATH searched %d times, want 1", n)
	}
	res, _ := r.Resolve(context.Background())
	if res.Source != SourceCache {
		t.Errorf("later call Source = %v, want cache", res.Source)
	}
}

// A failure is remembered for FailureTTL (no retry storm), then retried.
func TestFailureCachedOnlyForTTL(t *testing.T) {
	e := newTestEnv(t)
	_, d := e.serveFake("15.2.0")
	e.srv.fault(fakeAsset, status(1, 404))
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r := e.resolver()
	r.SHA256, r.now, r.failureTTL = d, func() time.Time { return now }, time.Minute
	_, err1 := r.Resolve(context.Background())
	_, err2 := r.Resolve(context.Background())
	if err1 == nil || err2 != err1 || e.srv.count(fakeAsset) != 1 {
		t.Fatalf("errors %v / %v after %d requests; want the same cached error after 1", err1, err2, e.srv.count(fakeAsset))
	}
	now = now.Add(2 * time.Minute)
	skipIfNoShell(t)
	if _, err := r.Resolve(context.Background()); err != nil || e.srv.count(fakeAsset) != 2 {
		t.Fatalf("after the TTL: %v, %d requests", err, e.srv.count(fakeAsset))
	}
}

// A caller whose context ends stops waiting at once, and the cancellation
// is not remembered as a failure.
func TestCancelledCallerNotCachedAsFailure(t *testing.T) {
	skipIfNoShell(t)
	e := newTestEnv(t)
	_, d := e.serveFake("15.2.0")
	release := make(chan struct{})
	e.srv.fault(fakeAsset, func(w http.ResponseWriter, r *http.Request, n int) bool {
		if n == 1 {
			select {
			case <-release:
			case <-r.Context().Done():
			}
			w.WriteHeader(503)
			return true
		}
		return false
	})
	r := e.resolver()
	r.SHA256 = d
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { _, err := r.Resolve(ctx); done <- err }()
	for e.srv.count(fakeAsset) == 0 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	close(release)
	res, err := r.Resolve(context.Background())
	if err != nil {
		t.Fatalf("next call after a cancelled one: %v", err)
	}
	assertWorks(t, res, "15.2.0")
}

func TestExplainListsEveryStep(t *testing.T) {
	e := newTestEnv(t)
	e.serveFake("15.2.0")
	r := e.resolver()
	tr := r.Explain(context.Background())
	want := []struct {
		src Source
		v   Verdict
	}{{SourceOverride, VerdictSkipped}, {SourceSystem, VerdictMissing}, {SourceManaged, VerdictMissing}, {SourceDownloaded, VerdictWouldDownload}}
	if len(tr.Steps) != len(want) {
		t.Fatalf("steps = %+v", tr.Steps)
	}
	for i, w := range want {
		if tr.Steps[i].Source != w.src || tr.Steps[i].Verdict != w.v {
			t.Errorf("step %d = %+v, want %v %v", i, tr.Steps[i], w.src, w.v)
		}
	}
	last := tr.Steps[3]
	if last.Path != e.srv.URL+"/"+fakeAsset || !strings.Contains(last.Reason, "pinned SHA-256 "+pins[pinKey{"15.2.0", "x86_64-unknown-linux-musl"}].SHA256) {
		t.Errorf("download step = %+v", last)
	}
	if tr.Triple != "x86_64-unknown-linux-musl" || e.srv.total() != 0 {
		t.Errorf("triple %q, %d requests", tr.Triple, e.srv.total())
	}
}

// Regression for gemini-cli#26193 ("rg is not available" with rg 13
// installed): a failure names the candidates that were refused and why.
func TestFailureNamesRefusedCandidates(t *testing.T) {
	skipIfNoShell(t)
	e := newTestEnv(t)
	old := writeFakeRg(t, t.TempDir(), "11.0.0")
	r := e.resolver()
	r.lookPath, r.Offline = lookPathTo(old), true
	_, err := r.Resolve(context.Background())
	if !errors.Is(err, ErrNotInstalled) || !strings.Contains(err.Error(), old) || !strings.Contains(err.Error(), "older than the minimum 13.0.0") {
		t.Fatalf("err = %v, want it to name %s and why it was refused", err, old)
	}
}

// Working from / or from the home directory does not refuse every rg below
// it: /usr/bin/rg and ~/.cargo/bin/rg are the user's own.
func TestWorkDirGuardExemptions(t *testing.T) {
	skipIfNoShell(t)
	e := newTestEnv(t)
	cargo := filepath.Join(e.home, ".cargo", "bin")
	os.MkdirAll(cargo, 0o755)
	rg := writeFakeRg(t, cargo, "14.1.1")
	tests := []struct {
		name, workDir string
		want          Source
	}{
		{"workdir is the home directory", e.home, SourceSystem},
		{"workdir is the filesystem root", "/", SourceSystem},
		{"workdir is a project inside home", filepath.Join(e.home, ".cargo"), SourceNone},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.resolver()
			r.lookPath, r.WorkDir, r.NoDownload = lookPathTo(rg), tt.workDir, true
			res, err := r.Resolve(context.Background())
			if tt.want == SourceNone {
				if !errors.Is(err, ErrNotInstalled) {
					t.Fatalf("Resolve = %+v, %v; want the rg inside the project refused", res, err)
				}
				return
			}
			if err != nil || res.Source != tt.want {
				t.Fatalf("Resolve = %+v, %v; want %v", res, err, tt.want)
			}
		})
	}
}
