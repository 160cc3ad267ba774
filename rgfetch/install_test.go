package rgfetch

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rgkit/rgkit/internal/version"
)

// Every release format, in the real layout, installs and runs: the .tar.gz
// and .zip by download from the TLS mirror, the .tar.xz and .deb through
// InstallArchive (no release ships them as downloads for these targets).
func TestInstallEveryFormat(t *testing.T) {
	skipIfNoShell(t)
	const v = "15.2.0"
	tests := []struct {
		name    string
		target  func(e *testEnv) *Resolver
		install func(e *testEnv, r *Resolver) (Resolved, error)
		triple  string
	}{
		{"tar.gz download", nil, func(e *testEnv, r *Resolver) (Resolved, error) {
			_, d := e.serveFake(v)
			r.SHA256 = d
			return r.Resolve(context.Background())
		}, "x86_64-unknown-linux-musl"},
		{"zip download for windows", nil, func(e *testEnv, r *Resolver) (Resolved, error) {
			name, data := releaseZip(t, v, "x86_64-pc-windows-msvc", fakeRg(v))
			e.srv.put(name, data)
			r.target, r.SHA256 = windowsAMD64, sha256Hex(data)
			return r.Resolve(context.Background())
		}, "x86_64-pc-windows-msvc"},
		{"tar.xz archive", nil, func(e *testEnv, r *Resolver) (Resolved, error) {
			name, data := releaseTarXz(t, v, "x86_64-unknown-linux-musl", fakeRg(v))
			p := filepath.Join(t.TempDir(), name)
			os.WriteFile(p, data, 0o644)
			r.SHA256 = sha256Hex(data)
			return r.InstallArchive(context.Background(), p)
		}, "x86_64-unknown-linux-musl"},
		{"deb archive", nil, func(e *testEnv, r *Resolver) (Resolved, error) {
			name, data := releaseDeb(t, v, fakeRg(v))
			p := filepath.Join(t.TempDir(), name)
			os.WriteFile(p, data, 0o644)
			r.SHA256 = sha256Hex(data)
			return r.InstallArchive(context.Background(), p)
		}, "deb-amd64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newTestEnv(t)
			r := e.resolver()
			r.NoSystem = true
			res, err := tt.install(e, r)
			if err != nil {
				t.Fatal(err)
			}
			if res.Triple != tt.triple || res.Version != v {
				t.Errorf("Resolved = %+v, want triple %s version %s", res, tt.triple, v)
			}
			if filepath.Dir(res.Path) != e.binDir {
				t.Errorf("installed at %s, want in %s", res.Path, e.binDir)
			}
			fi, err := os.Stat(res.Path)
			if err != nil || fi.Mode().Perm() != 0o755 {
				t.Errorf("installed mode = %v, %v; want 0755", fi.Mode(), err)
			}
			assertWorks(t, res, v)
			assertNoTemps(t, e.binDir)
		})
	}
}

// The real rg from Debian's ripgrep package, packed into a release-style
// archive, installs from the mirror and runs. Verification stays on: the
// digest is computed here and passed as SHA256.
func TestInstallRealRipgrep(t *testing.T) {
	real := "/usr/bin/rg"
	out, err := exec.Command(real, "--version").Output()
	if err != nil {
		t.Skipf("no real rg at %s: %v", real, err)
	}
	version, err := version.Ripgrep(out)
	if err != nil {
		t.Skip(err)
	}
	exe, err := os.ReadFile(real)
	if err != nil {
		t.Fatal(err)
	}
	e := newTestEnv(t)
	name, data := releaseTarGz(t, version, "x86_64-unknown-linux-musl", exe)
	e.srv.put(name, data)
	r := e.resolver()
	r.NoSystem, r.Version, r.SHA256 = true, version, sha256Hex(data)
	res, err := r.Resolve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Source != SourceDownloaded || res.Version != version {
		t.Fatalf("Resolved = %+v", res)
	}
	// Search with it for real: the installed binary is a working ripgrep.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("hello\nneedle here\n"), 0o644)
	got, err := exec.Command(res.Path, "--no-config", "-n", "needle", dir).Output()
	if err != nil || !strings.Contains(string(got), "2:needle here") {
		t.Fatalf("installed rg search = %q, %v", got, err)
	}
	var st stamp
	data2, _ := os.ReadFile(stampPath(e.binDir, "rg"))
	if err := json.Unmarshal(data2, &st); err != nil {
		t.Fatal(err)
	}
	if st.ArchiveSHA256 != sha256Hex(data) || st.SHA256 != sha256Hex(exe) || st.DigestOrigin != "--sha256" {
		t.Errorf("stamp = %+v", st)
	}
}

// A file:// mirror and a plain directory mirror, flat or in GitHub's
// <version>/ layout, all install without any HTTP.
func TestInstallFromLocalMirror(t *testing.T) {
	skipIfNoShell(t)
	const v = "15.2.0"
	for _, layout := range []string{"flat file://", "flat dir", "versioned dir"} {
		t.Run(layout, func(t *testing.T) {
			e := newTestEnv(t)
			mirror := t.TempDir()
			sub := mirror
			if strings.HasPrefix(layout, "versioned") {
				sub = filepath.Join(mirror, v)
				os.Mkdir(sub, 0o755)
			}
			name, data := releaseTarGz(t, v, "x86_64-unknown-linux-musl", fakeRg(v))
			os.WriteFile(filepath.Join(sub, name), data, 0o644)
			r := e.resolver()
			r.NoSystem, r.SHA256 = true, sha256Hex(data)
			r.Mirror = mirror
			if strings.Contains(layout, "file://") {
				r.Mirror = "file://" + filepath.ToSlash(mirror)
			}
			res, err := r.Resolve(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			assertWorks(t, res, v)
			if n := e.srv.total(); n != 0 {
				t.Errorf("local mirror made %d HTTP requests", n)
			}
		})
	}
}

// An archive whose rg does not report the wanted version is refused by the
// smoke test, and nothing is installed.
func TestSmokeTestRefusesWrongVersion(t *testing.T) {
	skipIfNoShell(t)
	e := newTestEnv(t)
	name, data := releaseTarGz(t, "15.2.0", "x86_64-unknown-linux-musl", fakeRg("14.0.0"))
	e.srv.put(name, data)
	r := e.resolver()
	r.NoSystem, r.SHA256 = true, sha256Hex(data)
	_, err := r.Resolve(context.Background())
	var se *smokeTestError
	if !asErr(err, &se) || se.Got != "14.0.0" || se.Want != "15.2.0" {
		t.Fatalf("err = %v, want a smokeTestError 14.0.0 vs 15.2.0", err)
	}
	if _, err := os.Stat(filepath.Join(e.binDir, "rg")); !os.IsNotExist(err) {
		t.Errorf("rg installed despite the failed smoke test: %v", err)
	}
	assertNoTemps(t, e.binDir)
}

// A hostile archive (rg as a symlink to /bin/sh) is refused by the archive
// package and nothing lands in the bin dir.
func TestSymlinkedRgArchiveRefused(t *testing.T) {
	e := newTestEnv(t)
	top := "ripgrep-15.2.0-x86_64-unknown-linux-musl"
	data := gzipBytes(t, tarWith(t, tarHeader{name: top + "/rg", link: "/bin/sh"}))
	e.srv.put(top+".tar.gz", data)
	r := e.resolver()
	r.NoSystem, r.SHA256 = true, sha256Hex(data)
	_, err := r.Resolve(context.Background())
	if err == nil || !strings.Contains(err.Error(), "link") {
		t.Fatalf("err = %v, want a link refusal", err)
	}
	if _, err := os.Lstat(filepath.Join(e.binDir, "rg")); !os.IsNotExist(err) {
		t.Errorf("something installed: %v", err)
	}
	assertNoTemps(t, e.binDir)
}

// Whatever squats on ~/.app/bin/rg, the installer never writes through it:
// a symlink or FIFO is replaced by the verified binary (the link's target
// is untouched), a directory is a clear error.
func TestOddThingsAtTheTarget(t *testing.T) {
	skipIfNoShell(t)
	tests := []struct {
		name    string
		squat   func(t *testing.T, target string) (check func(t *testing.T))
		wantErr string
	}{
		{"symlink to a file elsewhere", func(t *testing.T, target string) func(t *testing.T) {
			victim := filepath.Join(t.TempDir(), "victim")
			os.WriteFile(victim, []byte("keep me"), 0o644)
			os.Symlink(victim, target)
			return func(t *testing.T) {
				if b, _ := os.ReadFile(victim); string(b) != "keep me" {
					t.Errorf("wrote through the symlink: victim now %q", b)
				}
			}
		}, ""},
		{"fifo", func(t *testing.T, target string) func(t *testing.T) {
			if err := syscallMkfifo(target); err != nil {
				t.Skip(err)
			}
			return func(t *testing.T) {}
		}, ""},
		{"directory", func(t *testing.T, target string) func(t *testing.T) {
			os.Mkdir(target, 0o755)
			return func(t *testing.T) {}
		}, "install"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newTestEnv(t)
			_, d := e.serveFake("15.2.0")
			os.MkdirAll(e.binDir, 0o755)
			target := filepath.Join(e.binDir, "rg")
			check := tt.squat(t, target)
			r := e.resolver()
			r.NoSystem, r.SHA256 = true, d
			res, err := r.Resolve(context.Background())
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				fi, _ := os.Lstat(target)
				if !fi.Mode().IsRegular() {
					t.Errorf("target is %v after install", fi.Mode())
				}
				assertWorks(t, res, "15.2.0")
			}
			check(t)
			assertNoTemps(t, e.binDir)
		})
	}
}

// A freshly written binary exec'd while other goroutines fork in a loop
// must not surface ETXTBSY (golang/go#22315).
func TestInstallWhileForkingNoETXTBSY(t *testing.T) {
	skipIfNoShell(t)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
					exec.Command("/bin/sh", "-c", ":").Run()
				}
			}
		})
	}
	defer func() { close(stop); wg.Wait() }()
	e := newTestEnv(t)
	_, d := e.serveFake("15.2.0")
	for i := range 10 {
		r := e.resolver()
		r.NoSystem, r.Force, r.SHA256, r.sleep = true, true, d, sleepCtx
		if _, err := r.Resolve(context.Background()); err != nil {
			t.Fatalf("install %d: %v", i, err)
		}
	}
}

// Installing while the old rg is running succeeds, and the running search
// finishes undisturbed: the rename swaps the directory entry, never the
// bytes of the running file.
func TestInstallWhileOldRgRuns(t *testing.T) {
	skipIfNoShell(t)
	e := newTestEnv(t)
	done := filepath.Join(t.TempDir(), "old-search-finished")
	oldExe := []byte("#!/bin/sh\nif [ \"$1\" = --version ]; then echo ripgrep 15.0.0; exit 0; fi\nread line\necho finished > " + done + "\n")
	name, data := releaseTarGz(t, "15.0.0", "x86_64-unknown-linux-musl", oldExe)
	e.srv.put(name, data)
	old := e.resolver()
	old.NoSystem, old.Version, old.SHA256 = true, "15.0.0", sha256Hex(data)
	res, err := old.Resolve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	search := exec.Command(res.Path, "pattern")
	stdin, _ := search.StdinPipe()
	if err := search.Start(); err != nil {
		t.Fatal(err)
	}
	_, d := e.serveFake("15.2.0")
	r := e.resolver()
	r.NoSystem, r.SHA256 = true, d
	res2, err := r.Resolve(context.Background())
	if err != nil {
		t.Fatalf("install while the old rg runs: %v", err)
	}
	assertWorks(t, res2, "15.2.0")
	stdin.Write([]byte("go on\n"))
	stdin.Close()
	if err := search.Wait(); err != nil {
		t.Fatalf("the running old rg failed: %v", err)
	}
	if _, err := os.Stat(done); err != nil {
		t.Fatal("the running old rg did not finish its work")
	}
}

// Debian's own ripgrep package (apt's cache, or RGFETCH_TEST_DEB=path)
// installs through InstallArchive: the real ar + data.tar.xz layout.
func TestInstallRealDebianPackage(t *testing.T) {
	deb := os.Getenv("RGFETCH_TEST_DEB")
	if deb == "" {
		found, _ := filepath.Glob("/var/cache/apt/archives/ripgrep_*_amd64.deb")
		if len(found) == 0 {
			t.Skip("no ripgrep .deb in apt's cache; set RGFETCH_TEST_DEB to one")
		}
		deb = found[0]
	}
	data, err := os.ReadFile(deb)
	if err != nil {
		t.Fatal(err)
	}
	m := debAssetRE().FindStringSubmatch(filepath.Base(deb))
	if m == nil {
		t.Skipf("%s is not named like a ripgrep .deb", deb)
	}
	e := newTestEnv(t)
	r := e.resolver()
	r.SHA256 = sha256Hex(data)
	res, err := r.InstallArchive(context.Background(), deb)
	if err != nil {
		t.Fatal(err)
	}
	assertWorks(t, res, m[1])
}
