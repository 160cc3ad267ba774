package rgfetch

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ulikunitz/xz"

	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/platforms"
)

// linuxAMD64 is the target the tests install for: its release asset is
// ripgrep-<ver>-x86_64-unknown-linux-musl.tar.gz.
var linuxAMD64 = platforms.Target{OS: "linux", Arch: "amd64", Libc: platforms.LibcGNU, PageSize: 4096}

// windowsAMD64 gets a .zip asset holding rg.exe. The fake rg.exe is a shell
// script, so the smoke test still runs on the Unix test host.
var windowsAMD64 = platforms.Target{OS: "windows", Arch: "amd64", PageSize: 4096}

func skipIfNoShell(t testing.TB) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("fake rg executables are shell scripts")
	}
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh for the fake rg")
	}
}

// fakeRg is a stand-in executable whose --version reports version.
func fakeRg(version string) []byte {
	return []byte("#!/bin/sh\necho \"ripgrep " + version + "\"\necho\necho \"-SIMD -AVX (compiled)\"\n")
}

// writeFakeRg writes a fake rg into dir and returns its path.
func writeFakeRg(t testing.TB, dir, version string) string {
	t.Helper()
	p := filepath.Join(dir, "rg")
	testtool.WriteExecutable(t, p, fakeRg(version))
	return p
}

// releaseFiles returns the other files of a release archive, so fixtures
// have the real layout, not just the executable.
func releaseFiles(top string) map[string]string {
	return map[string]string{
		top + "/README.md":         "# ripgrep\n",
		top + "/COPYING":           "This project is dual-licensed\n",
		top + "/UNLICENSE":         "This is free and unencumbered software\n",
		top + "/LICENSE-MIT":       "The MIT License (MIT)\n",
		top + "/doc/CHANGELOG.md":  "# changelog\n",
		top + "/doc/rg.1":          ".TH RG 1\n",
		top + "/complete/rg.bash":  "complete -F _rg rg\n",
		top + "/complete/_rg.ps1":  "# powershell\n",
		top + "/complete/rg.fish":  "# fish\n",
		top + "/complete/_rg":      "#compdef rg\n",
		top + "/doc/FAQ.md":        "# FAQ\n",
		top + "/doc/GUIDE.md":      "# guide\n",
		top + "/complete/.keep.md": "",
	}
}

// tarEntries writes a tar stream: directories first, then the files in
// the release layout, then the executable.
func tarEntries(t testing.TB, top, exeName string, exe []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, d := range []string{top + "/", top + "/doc/", top + "/complete/"} {
		if err := tw.WriteHeader(&tar.Header{Name: d, Typeflag: tar.TypeDir, Mode: 0o755}); err != nil {
			t.Fatal(err)
		}
	}
	for name, body := range releaseFiles(top) {
		if err := tw.WriteHeader(&tar.Header{Name: name, Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(body))}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(body))
	}
	if err := tw.WriteHeader(&tar.Header{Name: top + "/" + exeName, Typeflag: tar.TypeReg, Mode: 0o755, Size: int64(len(exe))}); err != nil {
		t.Fatal(err)
	}
	tw.Write(exe)
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func gzipBytes(t testing.TB, b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func xzBytes(t testing.TB, b []byte) []byte {
	var buf bytes.Buffer
	// A 64 KiB dictionary: the default 8 MiB one cost most of these
	// tests' time in allocating its tables, for payloads of a few KiB.
	zw, err := xz.WriterConfig{DictCap: 64 << 10}.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	zw.Write(b)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// releaseTarGz builds ripgrep-<ver>-<triple>.tar.gz as the release workflow
// does (tar czf of the top directory).
func releaseTarGz(t testing.TB, version, triple string, exe []byte) (name string, data []byte) {
	top := "ripgrep-" + version + "-" + triple
	return top + ".tar.gz", gzipBytes(t, tarEntries(t, top, "rg", exe))
}

// releaseTarXz is the same layout compressed with xz.
func releaseTarXz(t testing.TB, version, triple string, exe []byte) (string, []byte) {
	top := "ripgrep-" + version + "-" + triple
	return top + ".tar.xz", xzBytes(t, tarEntries(t, top, "rg", exe))
}

// releaseZip builds the Windows asset (7z a of the top directory).
func releaseZip(t testing.TB, version, triple string, exe []byte) (string, []byte) {
	top := "ripgrep-" + version + "-" + triple
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range releaseFiles(top) {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	hdr := &zip.FileHeader{Name: top + "/rg.exe", Method: zip.Deflate}
	hdr.SetMode(0o755)
	w, err := zw.CreateHeader(hdr)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(exe)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return top + ".zip", buf.Bytes()
}

// releaseDeb builds ripgrep_<ver>-1_amd64.deb as cargo-deb does: an ar
// archive of debian-binary, control.tar.gz and data.tar.xz with ./usr/bin/rg.
func releaseDeb(t testing.TB, version string, exe []byte) (string, []byte) {
	var data bytes.Buffer
	tw := tar.NewWriter(&data)
	for _, d := range []string{"./", "./usr/", "./usr/bin/", "./usr/share/", "./usr/share/doc/"} {
		tw.WriteHeader(&tar.Header{Name: d, Typeflag: tar.TypeDir, Mode: 0o755})
	}
	tw.WriteHeader(&tar.Header{Name: "./usr/bin/rg", Typeflag: tar.TypeReg, Mode: 0o755, Size: int64(len(exe))})
	tw.Write(exe)
	tw.Close()
	var control bytes.Buffer
	cw := tar.NewWriter(&control)
	ctl := "Package: ripgrep\nVersion: " + version + "-1\nArchitecture: amd64\n"
	cw.WriteHeader(&tar.Header{Name: "./control", Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(ctl))})
	cw.Write([]byte(ctl))
	cw.Close()

	var ar bytes.Buffer
	ar.WriteString("!<arch>\n")
	member := func(name string, body []byte) {
		fmt.Fprintf(&ar, "%-16s%-12d%-6d%-6d%-8s%-10d`\n", name, 0, 0, 0, "100644", len(body))
		ar.Write(body)
		if len(body)%2 == 1 {
			ar.WriteByte('\n')
		}
	}
	member("debian-binary", []byte("2.0\n"))
	member("control.tar.gz", gzipBytes(t, control.Bytes()))
	member("data.tar.xz", xzBytes(t, data.Bytes()))
	return "ripgrep_" + version + "-1_amd64.deb", ar.Bytes()
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// fault decides how the server answers one request; nil serves the file.
type fault func(w http.ResponseWriter, r *http.Request, n int) bool

// releaseServer is a TLS release host (or mirror) serving files by name,
// counting requests per path, with per-request faults.
type releaseServer struct {
	*httptest.Server
	mu     sync.Mutex
	files  map[string][]byte
	hits   map[string]int
	faults map[string]fault
	auth   []string // Authorization headers seen
}

func newReleaseServer(t testing.TB) *releaseServer {
	rs := &releaseServer{files: map[string][]byte{}, hits: map[string]int{}, faults: map[string]fault{}}
	rs.Server = httptest.NewTLSServer(http.HandlerFunc(rs.serve))
	t.Cleanup(rs.Close)
	return rs
}

func (rs *releaseServer) serve(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, "/")
	rs.mu.Lock()
	rs.hits[name]++
	n := rs.hits[name]
	body, ok := rs.files[name]
	f := rs.faults[name]
	rs.auth = append(rs.auth, r.Header.Get("Authorization"))
	rs.mu.Unlock()
	if f != nil && f(w, r, n) {
		return
	}
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Length", fmt.Sprint(len(body)))
	w.Write(body)
}

func (rs *releaseServer) put(name string, body []byte) {
	rs.mu.Lock()
	rs.files[name] = body
	rs.mu.Unlock()
}

func (rs *releaseServer) fault(name string, f fault) {
	rs.mu.Lock()
	rs.faults[name] = f
	rs.mu.Unlock()
}

func (rs *releaseServer) count(name string) int {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.hits[name]
}

func (rs *releaseServer) total() int {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	n := 0
	for _, v := range rs.hits {
		n += v
	}
	return n
}

// loopbackOnly returns a copy of the server's client that fails any dial
// to a non-loopback address: a test that reaches for the internet fails
// loudly.
func loopbackOnly(t testing.TB, c *http.Client) *http.Client {
	tr := c.Transport.(*http.Transport).Clone()
	d := &net.Dialer{Timeout: 5 * time.Second}
	tr.Proxy = nil
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, _, _ := net.SplitHostPort(addr)
		if !isLoopback(host) {
			t.Errorf("test dialled the network: %s", addr)
			return nil, fmt.Errorf("test network guard: refusing %s", addr)
		}
		return d.DialContext(ctx, network, addr)
	}
	cc := *c
	cc.Transport = tr
	return &cc
}

// sleeps records the waits a Resolver asked for and returns at once, so
// retry tests assert the schedule instead of waiting it out.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.d = append(s.d, d)
	s.mu.Unlock()
	if d > 20*time.Millisecond { // lock polls sleep for real, briefly
		d = time.Millisecond
	}
	return sleepCtx(ctx, d)
}

func (s *sleeps) list() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}

// testEnv is an isolated world for one Resolver: its own home, bin dir,
// environment, release server and a PATH with no rg.
type testEnv struct {
	t       testing.TB
	home    string
	binDir  string
	env     map[string]string
	srv     *releaseServer
	sleeps  *sleeps
	log     *bytes.Buffer
	lookups atomic.Int32
}

func newTestEnv(t testing.TB) *testEnv {
	t.Helper()
	home := t.TempDir()
	return &testEnv{t: t, home: home, binDir: filepath.Join(home, ".rgkit", "bin"), env: map[string]string{},
		srv: newReleaseServer(t), sleeps: &sleeps{}, log: &bytes.Buffer{}}
}

// resolver returns a Resolver wired to the test world, downloading from
// the TLS server as a mirror.
func (e *testEnv) resolver() *Resolver {
	return &Resolver{
		home:   func() (string, error) { return e.home, nil },
		getenv: func(k string) string { return e.env[k] },
		lookPath: func(string) (string, error) {
			e.lookups.Add(1)
			return "", fmt.Errorf("rg: %w", os.ErrNotExist)
		},
		Mirror:     e.srv.URL,
		HTTPClient: loopbackOnly(e.t, e.srv.Client()),
		target:     linuxAMD64,
		WorkDir:    e.t.TempDir(),
		sleep:      e.sleeps.sleep,
		Log:        e.log,
		jitter:     func() float64 { return 0.5 },
		// The memo of rg versions lives in the test's home, not the
		// user's cache directory.
		versionMemo: &versionMemo{path: filepath.Join(e.home, ".cache", "rgkit", "rg-versions")},
	}
}

// serveFake publishes a fake rg release for version on the linux target
// and returns the asset name and its digest.
func (e *testEnv) serveFake(version string) (string, string) {
	name, data := releaseTarGz(e.t, version, "x86_64-unknown-linux-musl", fakeRg(version))
	e.srv.put(name, data)
	return name, sha256Hex(data)
}

// assertWorks runs the resolved rg and checks the version it reports.
func assertWorks(t testing.TB, res Resolved, version string) {
	t.Helper()
	v, err := rgVersion(context.Background(), res.Path, 5*time.Second, sleepCtx)
	if err != nil {
		t.Fatalf("resolved rg %s does not run: %v", res.Path, err)
	}
	if v != version {
		t.Fatalf("resolved rg %s reports %s, want %s", res.Path, v, version)
	}
}

// assertNoTemps checks no install temp file is left in dir.
func assertNoTemps(t testing.TB, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), tempPrefix) {
			t.Errorf("temp file left behind: %s", e.Name())
		}
	}
}

// tarHeader is one entry for tarWith.
type tarHeader struct {
	name, link string
	body       []byte
}

// tarWith builds a tar stream from raw entries (links when link is set).
func tarWith(t testing.TB, hs ...tarHeader) []byte {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, h := range hs {
		hdr := &tar.Header{Name: h.name, Mode: 0o755, Typeflag: tar.TypeReg, Size: int64(len(h.body))}
		if h.link != "" {
			hdr.Typeflag, hdr.Linkname, hdr.Size = tar.TypeSymlink, h.link, 0
		}
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		tw.Write(h.body)
	}
	tw.Close()
	return buf.Bytes()
}

// asErr is errors.As for tests.
func asErr[T error](err error, target *T) bool { return errors.As(err, target) }
