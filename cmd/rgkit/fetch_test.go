package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/internal/version"
	"github.com/rgkit/rgkit/rgfetch"
)

// isolateFetch gives the CLI an empty home and no RGKIT_* settings.
func isolateFetch(t *testing.T) {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	for _, k := range []string{"RGKIT_RG_PATH", "RGKIT_BIN_DIR", "RGKIT_MIRROR", "RGKIT_OFFLINE", "RGKIT_NO_DOWNLOAD", "GITHUB_TOKEN"} {
		t.Setenv(k, "")
	}
}

// linuxAMD64Only skips tests that install the x86_64 musl asset elsewhere.
func linuxAMD64Only(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("the fixtures are x86_64-unknown-linux-musl assets")
	}
}

// packRelease writes ripgrep-<ver>-x86_64-unknown-linux-musl.tar.gz holding
// exe in the release layout into dir and returns the archive's SHA-256.
func packRelease(t *testing.T, dir, version string, exe []byte) string {
	t.Helper()
	top := "ripgrep-" + version + "-x86_64-unknown-linux-musl"
	var tb bytes.Buffer
	tw := tar.NewWriter(&tb)
	tw.WriteHeader(&tar.Header{Name: top + "/", Typeflag: tar.TypeDir, Mode: 0o755})
	for name, body := range map[string]string{"README.md": "# ripgrep\n", "COPYING": "dual\n", "doc/rg.1": ".TH RG\n"} {
		tw.WriteHeader(&tar.Header{Name: top + "/" + name, Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(body))})
		tw.Write([]byte(body))
	}
	tw.WriteHeader(&tar.Header{Name: top + "/rg", Typeflag: tar.TypeReg, Mode: 0o755, Size: int64(len(exe))})
	tw.Write(exe)
	tw.Close()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(tb.Bytes())
	zw.Close()
	if err := os.WriteFile(filepath.Join(dir, top+".tar.gz"), gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(gz.Bytes())
	return hex.EncodeToString(sum[:])
}

func fakeRgScript(version string) []byte {
	return []byte("#!/bin/sh\necho \"ripgrep " + version + "\"\n")
}

func runCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(""), &out, &errOut)
	return out.String(), errOut.String(), code
}

func TestFetchPrintsOnlyThePath(t *testing.T) {
	linuxAMD64Only(t)
	isolateFetch(t)
	mirror, bin := t.TempDir(), t.TempDir()
	d := packRelease(t, mirror, "15.2.0", fakeRgScript("15.2.0"))
	out, errOut, code := runCLI(t, "fetch", "--mirror", "file://"+mirror, "--bin-dir", bin, "--sha256", d)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if want := filepath.Join(bin, "rg") + "\n"; out != want {
		t.Fatalf("stdout = %q, want exactly %q", out, want)
	}
	if errOut != "" {
		t.Errorf("stderr = %q; no progress bar or notes when stderr is not a terminal", errOut)
	}
	got, err := exec.Command(strings.TrimSpace(out), "--version").Output()
	if err != nil || !strings.HasPrefix(string(got), "ripgrep 15.2.0") {
		t.Fatalf("installed rg: %q, %v", got, err)
	}

	// Again, as JSON: the managed copy is reused.
	out, errOut, code = runCLI(t, "fetch", "--json", "--mirror", "file://"+mirror, "--bin-dir", bin, "--sha256", d)
	var res rgfetch.Resolved
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, out, errOut)
	}
	if res.Source != rgfetch.SourceManaged || res.Version != "15.2.0" || res.Triple != "x86_64-unknown-linux-musl" {
		t.Errorf("--json = %+v", res)
	}
}

func TestFetchFailuresExitTwoWithNothingOnStdout(t *testing.T) {
	linuxAMD64Only(t)
	tests := []struct {
		name   string
		args   func(mirror, bin string) []string
		stderr []string
	}{
		{"offline", func(m, b string) []string { return []string{"fetch", "--offline", "--bin-dir", b} },
			[]string{"RGKIT_MIRROR", "RGKIT_RG_PATH", "apt-get install ripgrep"}},
		{"unpinned version", func(m, b string) []string {
			return []string{"fetch", "--version", "99.0.0", "--mirror", m, "--bin-dir", b}
		},
			[]string{"no pinned SHA-256", "--sha256", "--allow-unpinned"}},
		{"wrong digest", func(m, b string) []string {
			return []string{"fetch", "--mirror", m, "--bin-dir", b, "--sha256", strings.Repeat("0", 64)}
		}, []string{"SECURITY ERROR", strings.Repeat("0", 64)}},
		{"missing from the mirror", func(m, b string) []string {
			return []string{"fetch", "--version", "15.0.0", "--mirror", m, "--bin-dir", b}
		}, []string{"404", "ripgrep-15.0.0-x86_64-unknown-linux-musl.tar.gz"}},
		{"bad --sha256", func(m, b string) []string { return []string{"fetch", "--mirror", m, "--bin-dir", b, "--sha256", "xyz"} },
			[]string{"invalid SHA-256"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolateFetch(t)
			mirror, bin := t.TempDir(), t.TempDir()
			packRelease(t, mirror, "15.2.0", fakeRgScript("15.2.0"))
			out, errOut, code := runCLI(t, tt.args(mirror, bin)...)
			if code != 2 || out != "" {
				t.Fatalf("exit %d, stdout %q; want 2 and nothing", code, out)
			}
			for _, want := range tt.stderr {
				if !strings.Contains(errOut, want) {
					t.Errorf("stderr lacks %q:\n%s", want, errOut)
				}
			}
			if _, err := os.Stat(filepath.Join(bin, "rg")); !os.IsNotExist(err) {
				t.Errorf("rg installed despite the failure")
			}
		})
	}
}

// --archive installs a .deb the user already has (Debian's own ripgrep
// package layout: usr/bin/rg in data.tar.xz is covered by rgfetch; here a
// release tarball outside any mirror).
func TestFetchArchive(t *testing.T) {
	linuxAMD64Only(t)
	isolateFetch(t)
	dir, bin := t.TempDir(), t.TempDir()
	d := packRelease(t, dir, "15.2.0", fakeRgScript("15.2.0"))
	archive := filepath.Join(dir, "ripgrep-15.2.0-x86_64-unknown-linux-musl.tar.gz")
	out, errOut, code := runCLI(t, "fetch", "--archive", archive, "--bin-dir", bin, "--sha256", d)
	if code != 0 || out != filepath.Join(bin, "rg")+"\n" {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, out, errOut)
	}
	// Without --sha256 the unpinned fake is refused (its bytes are not the
	// real release's, so the pin for 15.2.0 fails).
	_, errOut, code = runCLI(t, "fetch", "--archive", archive, "--bin-dir", t.TempDir())
	if code != 2 || !strings.Contains(errOut, "SECURITY ERROR") {
		t.Fatalf("exit %d, stderr %s; want the pinned digest enforced", code, errOut)
	}
}

// The real rg (Debian's ripgrep 13.0.0) packed as a release and installed
// from a file:// mirror runs a real search.
func TestFetchRealRgFromMirror(t *testing.T) {
	linuxAMD64Only(t)
	isolateFetch(t)
	exe, err := os.ReadFile("/usr/bin/rg")
	if err != nil {
		t.Skip("no /usr/bin/rg")
	}
	v, err := exec.Command("/usr/bin/rg", "--version").Output()
	if err != nil {
		t.Skip(err)
	}
	version, err := version.Ripgrep(v)
	if err != nil {
		t.Skip(err)
	}
	mirror, bin := t.TempDir(), t.TempDir()
	d := packRelease(t, mirror, version, exe)
	out, errOut, code := runCLI(t, "fetch", "--mirror", "file://"+mirror, "--bin-dir", bin, "--version", version, "--sha256", d)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	work := t.TempDir()
	os.WriteFile(filepath.Join(work, "f.go"), []byte("package x\nfunc Needle() {}\n"), 0o644)
	got, err := exec.Command(strings.TrimSpace(out), "--no-config", "-n", "Needle", work).Output()
	if err != nil || !strings.Contains(string(got), "2:func Needle") {
		t.Fatalf("installed rg search: %q, %v", got, err)
	}
}

// Debian's own ripgrep package, as apt downloads it (apt's cache, or
// RGFETCH_TEST_DEB=path, e.g. after `apt-get download ripgrep`), installs
// with `rgkit fetch --archive` and searches.
func TestFetchArchiveRealDebianPackage(t *testing.T) {
	linuxAMD64Only(t)
	isolateFetch(t)
	deb := os.Getenv("RGFETCH_TEST_DEB")
	if deb == "" {
		found, _ := filepath.Glob("/var/cache/apt/archives/ripgrep_*_amd64.deb")
		if len(found) == 0 {
			t.Skip("no ripgrep .deb in apt's cache; set RGFETCH_TEST_DEB to one (apt-get download ripgrep)")
		}
		deb = found[0]
	}
	data, err := os.ReadFile(deb)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	bin := t.TempDir()
	res, errOut, code := fetchJSON(t, "--archive", deb, "--bin-dir", bin, "--sha256", hex.EncodeToString(sum[:]))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if res.Path != filepath.Join(bin, "rg") || res.Source != rgfetch.SourceDownloaded || !strings.HasPrefix(res.Triple, "deb-") {
		t.Fatalf("fetch = %+v", res)
	}
	if !strings.HasPrefix(filepath.Base(deb), "ripgrep_"+res.Version) {
		t.Errorf("version %s does not match the package %s", res.Version, filepath.Base(deb))
	}
	work := t.TempDir()
	os.WriteFile(filepath.Join(work, "f.go"), []byte("package x\nfunc Needle() {}\n"), 0o644)
	got, err := exec.Command(res.Path, "--no-config", "-n", "Needle", work).Output()
	if err != nil || !strings.Contains(string(got), "2:func Needle") {
		t.Fatalf("installed rg search: %q, %v", got, err)
	}
	// Without --sha256 a .deb has no pin and is refused.
	_, errOut, code = runCLI(t, "fetch", "--archive", deb, "--bin-dir", t.TempDir())
	if code != 2 || !strings.Contains(errOut, "--sha256") {
		t.Errorf("unpinned .deb: exit %d, stderr %s; want a refusal naming --sha256", code, errOut)
	}
}
