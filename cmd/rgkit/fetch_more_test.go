package main

import (
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/platforms"
	"github.com/rgkit/rgkit/rgfetch"
)

// `rgkit fetch --json` names the release triple for a system rg too: the
// triple of this platform for that rg's version.
func TestFetchJSONHasTheTripleForASystemRg(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake rg is a shell script")
	}
	isolateFetch(t)
	bin := t.TempDir()
	testtool.WriteExecutable(t, filepath.Join(bin, "rg"), fakeRgScript("14.1.1"))
	t.Setenv("PATH", bin)
	res, errOut, code := fetchJSON(t)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want, err := platforms.Detect().Triple("14.1.1")
	if err != nil {
		t.Skipf("this platform has no release triple: %v", err)
	}
	if res.Source != rgfetch.SourceSystem || res.Triple != want {
		t.Errorf("--json = %+v, want source system and triple %q", res, want)
	}
}

// --as-rg places a link named rg that runs this very executable, keeps it
// when run again, and never replaces a file or a foreign link.
func TestFetchAsRgLinksToRgkit(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows gets a copy, tested by the copy's own rules")
	}
	isolateFetch(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	exe, _ = filepath.EvalSymlinks(exe)
	dir := t.TempDir()
	want := filepath.Join(dir, "rg")

	for range 2 { // the second run finds its own link and keeps it
		out, errOut, code := runCLI(t, "fetch", "--as-rg", dir)
		if code != 0 || out != want+"\n" {
			t.Fatalf("exit %d, stdout %q, stderr %s; want the link's path", code, out, errOut)
		}
		if got, err := os.Readlink(want); err != nil || got != exe {
			t.Fatalf("link = %q, %v; want %s", got, err, exe)
		}
	}

	t.Run("an earlier rgkit's link is replaced", func(t *testing.T) {
		dir := t.TempDir()
		os.Symlink("/opt/old/rgkit", filepath.Join(dir, "rg"))
		if _, errOut, code := runCLI(t, "fetch", "--as-rg", dir); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if got, _ := os.Readlink(filepath.Join(dir, "rg")); got != exe {
			t.Errorf("link = %q, want %s", got, exe)
		}
	})
	for name, plant := range map[string]func(p string) error{
		"a real rg":           func(p string) error { return os.WriteFile(p, fakeRgScript("15.2.0"), 0o755) },
		"a link to a real rg": func(p string) error { return os.Symlink("/usr/bin/rg", p) },
		"a directory":         func(p string) error { return os.Mkdir(p, 0o755) },
	} {
		t.Run(name+" is left alone", func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "rg")
			if err := plant(p); err != nil {
				t.Fatal(err)
			}
			before, _ := os.Lstat(p)
			out, errOut, code := runCLI(t, "fetch", "--as-rg", dir)
			if code != 2 || out != "" || !strings.Contains(errOut, "remove it first") {
				t.Errorf("exit %d, stdout %q, stderr %q; want a refusal", code, out, errOut)
			}
			after, _ := os.Lstat(p)
			if before.Mode() != after.Mode() || before.ModTime() != after.ModTime() {
				t.Errorf("%s was changed", p)
			}
		})
	}
	t.Run("not a directory", func(t *testing.T) {
		if _, errOut, code := runCLI(t, "fetch", "--as-rg", filepath.Join(dir, "missing")); code != 2 || !strings.Contains(errOut, "not a directory") {
			t.Errorf("exit %d, stderr %q", code, errOut)
		}
	})
}

// A mirror password appears in no output of fetch or doctor, text or JSON.
func TestFetchAndDoctorNeverShowTheMirrorPassword(t *testing.T) {
	linuxAMD64Only(t)
	const secret = "s3cretpw"
	dir := t.TempDir()
	d := packRelease(t, dir, "15.1.0", fakeRgScript("15.1.0"))
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer srv.Close()
	mirror := strings.Replace(srv.URL, "http://", "http://user:"+secret+"@", 1)

	var outputs []string
	run := func(args ...string) {
		out, errOut, _ := runCLI(t, args...)
		outputs = append(outputs, "rgkit "+args[0]+":\n"+out+errOut)
	}
	isolateFetch(t)
	bin := t.TempDir()
	run("fetch", "--mirror", mirror, "--bin-dir", bin, "--version", "15.0.0")                                       // 404
	run("fetch", "--mirror", mirror, "--bin-dir", bin, "--version", "15.1.0", "--sha256", strings.Repeat("ab", 32)) // checksum
	run("fetch", "--json", "--mirror", mirror, "--bin-dir", bin, "--version", "15.1.0", "--sha256", d)
	t.Setenv("RGKIT_MIRROR", mirror)
	t.Setenv("RGKIT_BIN_DIR", t.TempDir())
	t.Setenv("PATH", t.TempDir())
	run("doctor")
	run("doctor", "--json")
	for _, o := range outputs {
		if strings.Contains(o, secret) {
			t.Errorf("the password shows in:\n%s", o)
		}
	}
	if !strings.Contains(strings.Join(outputs, ""), "user:xxxxx@") {
		t.Errorf("no output names the (redacted) mirror:\n%s", strings.Join(outputs, "\n"))
	}
	entries, _ := os.ReadDir(bin)
	for _, e := range entries {
		if data, _ := os.ReadFile(filepath.Join(bin, e.Name())); strings.Contains(string(data), secret) {
			t.Errorf("%s holds the password", e.Name())
		}
	}
	if _, err := os.Stat(filepath.Join(bin, ".rg.stamp")); err != nil {
		t.Errorf("no stamp was written: %v", err)
	}
}

// With no way to reach the release host, `rgkit fetch` fails at once with
// every way out, and the URL once.
func TestFetchUnreachableMirrorNamesTheWaysOut(t *testing.T) {
	linuxAMD64Only(t)
	isolateFetch(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	mirror := "http://" + l.Addr().String()
	l.Close() // nothing listens there any more
	out, errOut, code := runCLI(t, "fetch", "--mirror", mirror, "--bin-dir", t.TempDir())
	if code != 2 || out != "" {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	for _, want := range []string{"refused", "rgkit fetch --mirror URL", "rgkit fetch --archive FILE",
		"apt-get install ripgrep", "RGKIT_RG_PATH=/path/to/rg"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if n := strings.Count(errOut, mirror+"/"); n != 1 {
		t.Errorf("the URL appears %d times:\n%s", n, errOut)
	}
	if strings.Contains(errOut, "retrying in 1") {
		t.Errorf("a refused connection was retried with the long backoff:\n%s", errOut)
	}
}

// --timeout bounds the whole download: a server that keeps sending, but
// too slowly to finish, is given up at the deadline.
func TestFetchTimeoutEndsASlowDownload(t *testing.T) {
	linuxAMD64Only(t)
	isolateFetch(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "100000")
		w.WriteHeader(http.StatusOK)
		for {
			if _, err := w.Write(make([]byte, 2000)); err != nil { // 20 kB/s: no stall
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}))
	defer srv.Close()
	out, errOut, code := runCLI(t, "fetch", "--mirror", srv.URL, "--bin-dir", t.TempDir(), "--timeout", "500ms",
		"--sha256", strings.Repeat("ab", 32))
	if code != 2 || out != "" || !strings.Contains(errOut, "not finished within 500ms (--timeout)") {
		t.Errorf("exit %d, stdout %q, stderr %q; want the timeout named", code, out, errOut)
	}

	if _, errOut, code := runCLI(t, "fetch", "--timeout", "-1s"); code != 2 || !strings.Contains(errOut, "--timeout -1s: must not be negative") {
		t.Errorf("negative --timeout: exit %d, stderr %q", code, errOut)
	}
}
