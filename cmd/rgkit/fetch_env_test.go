package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/rgfetch"
)

// fetchJSON runs `rgkit fetch --json args...` and decodes the answer.
func fetchJSON(t *testing.T, args ...string) (rgfetch.Resolved, string, int) {
	t.Helper()
	out, errOut, code := runCLI(t, append([]string{"fetch", "--json"}, args...)...)
	var res rgfetch.Resolved
	if code == 0 {
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("stdout is not JSON: %v: %q", err, out)
		}
	} else if out != "" {
		t.Errorf("exit %d with stdout %q; want nothing there", code, out)
	}
	return res, errOut, code
}

// `rgkit fetch` reads its settings from the real environment. PATH holds no
// rg, so only the variables decide. The fake releases are not the real
// 15.2.0 bytes, so --sha256 is given; it does not touch what is tested.
func TestFetchHonoursEnvironmentVariables(t *testing.T) {
	linuxAMD64Only(t)
	tests := []struct {
		name string
		env  map[string]string // $MIRROR, $BIN, $EMPTY, $FAKE expanded
		args []string          // besides --json --sha256
		// wantPath "" means the command must fail (exit 2) with wantErr.
		wantPath   string
		wantSource rgfetch.Source
		wantErr    []string
	}{
		{name: "RGKIT_BIN_DIR and RGKIT_MIRROR as file://",
			env:      map[string]string{"RGKIT_BIN_DIR": "$BIN", "RGKIT_MIRROR": "file://$MIRROR"},
			wantPath: "$BIN/rg", wantSource: rgfetch.SourceDownloaded},
		{name: "RGKIT_MIRROR as a plain directory, default bin dir",
			env:      map[string]string{"RGKIT_MIRROR": "$MIRROR"},
			wantPath: "$HOME/.rgkit/bin/rg", wantSource: rgfetch.SourceDownloaded},
		{name: "--bin-dir and --mirror beat the variables",
			env:      map[string]string{"RGKIT_BIN_DIR": "$EMPTY", "RGKIT_MIRROR": "$EMPTY"},
			args:     []string{"--bin-dir", "$BIN", "--mirror", "$MIRROR"},
			wantPath: "$BIN/rg", wantSource: rgfetch.SourceDownloaded},
		{name: "RGKIT_OFFLINE=1",
			env:     map[string]string{"RGKIT_BIN_DIR": "$BIN", "RGKIT_MIRROR": "$MIRROR", "RGKIT_OFFLINE": "1"},
			wantErr: []string{"offline mode", "apt-get install ripgrep", "RGKIT_MIRROR", "RGKIT_RG_PATH"}},
		{name: "RGKIT_NO_DOWNLOAD=1",
			env:     map[string]string{"RGKIT_BIN_DIR": "$BIN", "RGKIT_MIRROR": "$MIRROR", "RGKIT_NO_DOWNLOAD": "1"},
			wantErr: []string{"downloads disabled (RGKIT_NO_DOWNLOAD"}},
		{name: "RGKIT_RG_PATH wins, even offline",
			env:      map[string]string{"RGKIT_RG_PATH": "$FAKE", "RGKIT_BIN_DIR": "$BIN", "RGKIT_MIRROR": "$MIRROR", "RGKIT_OFFLINE": "1"},
			wantPath: "$FAKE", wantSource: rgfetch.SourceOverride},
		{name: "broken RGKIT_RG_PATH is an error, not a fallback",
			env:     map[string]string{"RGKIT_RG_PATH": "$EMPTY/rg", "RGKIT_BIN_DIR": "$BIN", "RGKIT_MIRROR": "$MIRROR"},
			wantErr: []string{"RGKIT_RG_PATH=", "no such file"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolateFetch(t)
			t.Setenv("PATH", t.TempDir()) // no system rg
			home := os.Getenv("HOME")
			paths := map[string]string{"$MIRROR": t.TempDir(), "$BIN": t.TempDir(), "$EMPTY": t.TempDir(), "$HOME": home}
			paths["$FAKE"] = filepath.Join(t.TempDir(), "rg")
			testtool.WriteExecutable(t, paths["$FAKE"], fakeRgScript("14.1.1"))
			d := packRelease(t, paths["$MIRROR"], "15.2.0", fakeRgScript("15.2.0"))
			expand := func(s string) string {
				for k, p := range paths {
					s = strings.ReplaceAll(s, k, p)
				}
				return s
			}
			for k, v := range tt.env {
				t.Setenv(k, expand(v))
			}
			args := []string{"--sha256", d}
			for _, a := range tt.args {
				args = append(args, expand(a))
			}
			res, errOut, code := fetchJSON(t, args...)
			if tt.wantPath == "" {
				if code != 2 {
					t.Fatalf("exit %d; want 2 (stderr %s)", code, errOut)
				}
				for _, w := range tt.wantErr {
					if !strings.Contains(errOut, w) {
						t.Errorf("stderr lacks %q:\n%s", w, errOut)
					}
				}
				if _, err := os.Stat(filepath.Join(paths["$BIN"], "rg")); !os.IsNotExist(err) {
					t.Errorf("an rg was installed: %v", err)
				}
				return
			}
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if want := expand(tt.wantPath); res.Path != want || res.Source != tt.wantSource {
				t.Fatalf("fetch = %+v; want %s from %s", res, want, tt.wantSource)
			}
			if left, _ := os.ReadDir(paths["$EMPTY"]); len(left) != 0 {
				t.Errorf("%s was written to: %v", paths["$EMPTY"], left)
			}
		})
	}
}

// An embedder's AppName reads its own prefix: MYAGENT_BIN_DIR, not
// RGKIT_BIN_DIR, and ~/.myagent/bin by default.
func TestAppNamePrefixReadsItsOwnVariables(t *testing.T) {
	linuxAMD64Only(t)
	isolateFetch(t)
	t.Setenv("PATH", t.TempDir())
	mirror, mine, theirs := t.TempDir(), t.TempDir(), t.TempDir()
	d := packRelease(t, mirror, "15.2.0", fakeRgScript("15.2.0"))
	t.Setenv("RGKIT_BIN_DIR", theirs)
	t.Setenv("MYAGENT_BIN_DIR", mine)
	t.Setenv("MYAGENT_MIRROR", mirror)
	r := &rgfetch.Resolver{AppName: "myagent", SHA256: d}
	path, err := r.Locate(t.Context())
	if err != nil || path != filepath.Join(mine, "rg") {
		t.Fatalf("Locate = %q, %v; want %s", path, err, filepath.Join(mine, "rg"))
	}
	if left, _ := os.ReadDir(theirs); len(left) != 0 {
		t.Errorf("RGKIT_BIN_DIR was used by app myagent: %v", left)
	}
	t.Setenv("MYAGENT_BIN_DIR", "")
	r = &rgfetch.Resolver{AppName: "myagent", SHA256: d}
	path, err = r.Locate(t.Context())
	if want := filepath.Join(os.Getenv("HOME"), ".myagent", "bin", "rg"); err != nil || path != want {
		t.Fatalf("Locate = %q, %v; want %s", path, err, want)
	}
}

// countingMirror serves a directory over plain HTTP on loopback (allowed
// for mirrors) and counts the requests for each file.
func countingMirror(t *testing.T, dir string) (url string, hits func(name string) int64) {
	t.Helper()
	counts := map[string]*atomic.Int64{}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		counts[e.Name()] = &atomic.Int64{}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/")
		c, ok := counts[name]
		if !ok {
			http.NotFound(w, r)
			return
		}
		c.Add(1)
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		defer f.Close()
		fi, _ := f.Stat()
		w.Header().Set("Content-Length", strconv.FormatInt(fi.Size(), 10))
		io.Copy(w, f)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func(name string) int64 {
		if c, ok := counts[name]; ok {
			return c.Load()
		}
		return 0
	}
}

// `rgkit fetch --force` downloads again and replaces an intact managed
// copy; without --force it is reused and nothing is downloaded.
func TestFetchForceRedownloadsAnIntactCopy(t *testing.T) {
	linuxAMD64Only(t)
	isolateFetch(t)
	t.Setenv("PATH", t.TempDir())
	mirror, bin := t.TempDir(), t.TempDir()
	d := packRelease(t, mirror, "15.2.0", fakeRgScript("15.2.0"))
	const asset = "ripgrep-15.2.0-x86_64-unknown-linux-musl.tar.gz"
	url, hits := countingMirror(t, mirror)
	t.Setenv("RGKIT_MIRROR", url)
	t.Setenv("RGKIT_BIN_DIR", bin)

	steps := []struct {
		args       []string
		wantSource rgfetch.Source
		wantHits   int64
		replaced   bool // the binary is a new file
	}{
		{nil, rgfetch.SourceDownloaded, 1, true},
		{nil, rgfetch.SourceManaged, 1, false},
		{[]string{"--force"}, rgfetch.SourceDownloaded, 2, true},
		{nil, rgfetch.SourceManaged, 2, false},
	}
	rg := filepath.Join(bin, "rg")
	var before os.FileInfo
	for i, st := range steps {
		res, errOut, code := fetchJSON(t, append([]string{"--sha256", d}, st.args...)...)
		if code != 0 {
			t.Fatalf("step %d %v: exit %d: %s", i, st.args, code, errOut)
		}
		if res.Source != st.wantSource || res.Path != rg || hits(asset) != st.wantHits {
			t.Fatalf("step %d %v: %+v after %d downloads; want %s and %d", i, st.args, res, hits(asset), st.wantSource, st.wantHits)
		}
		after, err := os.Stat(rg)
		if err != nil {
			t.Fatal(err)
		}
		if before != nil && os.SameFile(before, after) == st.replaced {
			t.Errorf("step %d %v: binary replaced = %v, want %v", i, st.args, !os.SameFile(before, after), st.replaced)
		}
		before = after
		assertNoTempFiles(t, bin)
	}
}

// assertNoTempFiles checks an install left no .rg-*.tmp behind.
func assertNoTempFiles(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temp file left in %s: %s", dir, e.Name())
		}
	}
}
