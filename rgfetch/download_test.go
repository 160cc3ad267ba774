package rgfetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeAsset is the asset the download tests fetch.
const fakeAsset = "ripgrep-15.2.0-x86_64-unknown-linux-musl.tar.gz"

// truncate answers with the full Content-Length but only half the body,
// then drops the connection.
func truncate(body []byte) fault {
	return func(w http.ResponseWriter, r *http.Request, n int) bool {
		w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		w.WriteHeader(http.StatusOK)
		w.Write(body[:len(body)/2])
		w.(http.Flusher).Flush()
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			conn.Close()
		}
		return true
	}
}

// status answers the first k requests with code (and optional headers).
func status(k, code int, hdr ...string) fault {
	return func(w http.ResponseWriter, r *http.Request, n int) bool {
		if n > k {
			return false
		}
		for i := 0; i+1 < len(hdr); i += 2 {
			w.Header().Set(hdr[i], hdr[i+1])
		}
		w.WriteHeader(code)
		return true
	}
}

func TestDownloadFaults(t *testing.T) {
	skipIfNoShell(t)
	tests := []struct {
		name string
		// setup installs faults; it gets the served archive.
		setup func(e *testEnv, body []byte)
		// retries overrides Resolver.Retries (0: default 3).
		retries int
		// wantErr is a substring of the error, "" for success.
		wantErr string
		// wantHits is how many times the archive was requested.
		wantHits int
		// wantSleeps are the retry waits asked for.
		wantSleeps []time.Duration
		// maxSize overrides Resolver.MaxSize.
		maxSize int64
	}{
		{
			name:     "truncated body every time fails after the retries",
			setup:    func(e *testEnv, b []byte) { e.srv.fault(fakeAsset, truncate(b)) },
			wantErr:  "after 4 attempt(s)",
			wantHits: 4, wantSleeps: []time.Duration{time.Second, 3500 * time.Millisecond, 6500 * time.Millisecond},
		},
		{
			name: "truncated once then complete succeeds from an empty temp file",
			setup: func(e *testEnv, b []byte) {
				tr := truncate(b)
				e.srv.fault(fakeAsset, func(w http.ResponseWriter, r *http.Request, n int) bool { return n == 1 && tr(w, r, n) })
			},
			wantHits: 2, wantSleeps: []time.Duration{time.Second},
		},
		{
			name:     "500 then success",
			setup:    func(e *testEnv, b []byte) { e.srv.fault(fakeAsset, status(1, 500)) },
			wantHits: 2, wantSleeps: []time.Duration{time.Second},
		},
		{
			name:     "502 and 503 then success",
			setup:    func(e *testEnv, b []byte) { e.srv.fault(fakeAsset, status(2, 503)) },
			wantHits: 3, wantSleeps: []time.Duration{time.Second, 3500 * time.Millisecond},
		},
		{
			name:     "429 with Retry-After seconds is honoured",
			setup:    func(e *testEnv, b []byte) { e.srv.fault(fakeAsset, status(1, 429, "Retry-After", "2")) },
			wantHits: 2, wantSleeps: []time.Duration{2 * time.Second},
		},
		{
			name:     "429 with a huge Retry-After is capped",
			setup:    func(e *testEnv, b []byte) { e.srv.fault(fakeAsset, status(1, 429, "Retry-After", "99999")) },
			wantHits: 2, wantSleeps: []time.Duration{maxRetryAfter},
		},
		{
			name:     "429 with a negative Retry-After uses the backoff",
			setup:    func(e *testEnv, b []byte) { e.srv.fault(fakeAsset, status(1, 429, "Retry-After", "-1")) },
			wantHits: 2, wantSleeps: []time.Duration{time.Second},
		},
		{
			name:    "404 is not retried",
			setup:   func(e *testEnv, b []byte) { e.srv.fault(fakeAsset, status(99, 404)) },
			wantErr: "HTTP 404", wantHits: 1,
		},
		{
			name:    "403 is not retried",
			setup:   func(e *testEnv, b []byte) { e.srv.fault(fakeAsset, status(99, 403)) },
			wantErr: "HTTP 403", wantHits: 1,
		},
		{
			name: "Content-Length over the cap is refused before reading",
			setup: func(e *testEnv, b []byte) {
				e.srv.fault(fakeAsset, func(w http.ResponseWriter, r *http.Request, n int) bool {
					w.Header().Set("Content-Length", fmt.Sprint(int64(10)<<30))
					w.WriteHeader(200)
					return true
				})
			},
			wantErr: "exceeds the", wantHits: 1,
		},
		{
			name: "a body longer than the cap without Content-Length is cut at cap+1",
			setup: func(e *testEnv, b []byte) {
				e.srv.fault(fakeAsset, func(w http.ResponseWriter, r *http.Request, n int) bool {
					w.WriteHeader(200)
					for range 8 {
						w.Write(make([]byte, 1<<20)) // 8 MiB, chunked
					}
					return true
				})
			},
			maxSize: 1 << 20,
			wantErr: "exceeds the", wantHits: 1,
		},
		{
			name: "Content-Encoding gzip is not decoded: the digest is over the raw bytes",
			setup: func(e *testEnv, b []byte) {
				e.srv.fault(fakeAsset, func(w http.ResponseWriter, r *http.Request, n int) bool {
					w.Header().Set("Content-Encoding", "gzip")
					w.Header().Set("Content-Type", "application/gzip")
					w.Write(b)
					return true
				})
			},
			wantHits: 1,
		},
		{
			name:    "no retries configured",
			setup:   func(e *testEnv, b []byte) { e.srv.fault(fakeAsset, status(1, 500)) },
			retries: -1,
			wantErr: "HTTP 500", wantHits: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newTestEnv(t)
			name, d := e.serveFake("15.2.0")
			tt.setup(e, e.srv.files[name])
			r := e.resolver()
			r.NoSystem, r.SHA256, r.retries, r.maxSize = true, d, tt.retries, tt.maxSize
			res, err := r.Resolve(context.Background())
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				assertWorks(t, res, "15.2.0")
			} else {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
				}
				if !strings.Contains(err.Error(), e.srv.URL+"/"+fakeAsset) || !strings.Contains(err.Error(), "x86_64-unknown-linux-musl") {
					t.Errorf("error does not name the URL and triple: %v", err)
				}
				if _, err := os.Stat(filepath.Join(e.binDir, "rg")); !os.IsNotExist(err) {
					t.Errorf("rg installed after a failed download")
				}
			}
			if got := e.srv.count(fakeAsset); got != tt.wantHits {
				t.Errorf("archive requested %d times, want %d", got, tt.wantHits)
			}
			var retries []time.Duration
			for _, d := range e.sleeps.list() {
				if d > 100*time.Millisecond { // lock polls are shorter
					retries = append(retries, d)
				}
			}
			if fmt.Sprint(retries) != fmt.Sprint(tt.wantSleeps) {
				t.Errorf("retry waits = %v, want %v", retries, tt.wantSleeps)
			}
			assertNoTemps(t, e.binDir)
		})
	}
}

// A wrong digest is a SECURITY error naming URL, both digests and origin;
// it is not retried and nothing is installed; an earlier rg stays.
func TestWrongDigestInstallsNothing(t *testing.T) {
	skipIfNoShell(t)
	e := newTestEnv(t)
	name, good := e.serveFake("15.2.0")
	bad := strings.Repeat("ab", 32)
	os.MkdirAll(e.binDir, 0o755)
	old := writeFakeRg(t, e.binDir, "14.0.0")

	r := e.resolver()
	r.NoSystem, r.SHA256 = true, bad
	_, err := r.Resolve(context.Background())
	var ce *checksumError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want *checksumError", err)
	}
	for _, want := range []string{"SECURITY ERROR", bad, good, e.srv.URL + "/" + name, "--sha256"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
	if n := e.srv.count(name); n != 1 {
		t.Errorf("archive requested %d times; a digest mismatch must not be retried", n)
	}
	if got, _ := os.ReadFile(old); string(got) != string(fakeRg("14.0.0")) {
		t.Errorf("the old rg was changed")
	}
	assertNoTemps(t, e.binDir)
}

// A stalled server (headers sent, then silence) is abandoned by the idle
// timeout rather than hanging.
func TestStalledServerTimesOut(t *testing.T) {
	e := newTestEnv(t)
	_, d := e.serveFake("15.2.0")
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	e.srv.fault(fakeAsset, func(w http.ResponseWriter, r *http.Request, n int) bool {
		w.Header().Set("Content-Length", "1000000")
		w.WriteHeader(200)
		w.Write([]byte("partial"))
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-release:
		}
		return true
	})
	r := e.resolver()
	r.NoSystem, r.SHA256, r.retries, r.stallWindow = true, d, -1, 100*time.Millisecond
	_, err := r.Resolve(context.Background())
	if !errors.Is(err, ErrStalled) {
		t.Fatalf("err = %v, want the stall timeout", err)
	}
	assertNoTemps(t, e.binDir)
}

// An https download redirected to plain http is refused before the http
// server is contacted.
func TestRedirectToPlainHTTPRefused(t *testing.T) {
	e := newTestEnv(t)
	_, d := e.serveFake("15.2.0")
	plainHits := 0
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { plainHits++ }))
	defer plain.Close()
	e.srv.fault(fakeAsset, func(w http.ResponseWriter, r *http.Request, n int) bool {
		http.Redirect(w, r, plain.URL+"/"+fakeAsset, http.StatusFound)
		return true
	})
	r := e.resolver()
	r.NoSystem, r.SHA256 = true, d
	_, err := r.Resolve(context.Background())
	if !errors.Is(err, errInsecureRedirect) {
		t.Fatalf("err = %v, want an insecure-redirect refusal", err)
	}
	if plainHits != 0 || e.srv.count(fakeAsset) != 1 {
		t.Errorf("plain server hits %d, https hits %d; want 0 and 1 (no retry)", plainHits, e.srv.count(fakeAsset))
	}
}

// A mirror never receives GITHUB_TOKEN; github.com does, and the default
// URL is the releases/download one (no API, no rate limit).
func TestGitHubTokenOnlyToGitHub(t *testing.T) {
	skipIfNoShell(t)
	e := newTestEnv(t)
	e.env["GITHUB_TOKEN"] = "secret-token"
	_, d := e.serveFake("15.2.0")
	r := e.resolver()
	r.NoSystem, r.SHA256 = true, d
	if _, err := r.Resolve(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, a := range e.srv.auth {
		if a != "" {
			t.Errorf("mirror received Authorization %q", a)
		}
	}

	// The GitHub request is answered by a RoundTripper: no network.
	var seen *http.Request
	body := e.srv.files[fakeAsset]
	r2 := e.resolver()
	r2.Mirror, r2.NoSystem, r2.SHA256, r2.BinDir = "", true, d, t.TempDir()
	r2.HTTPClient = &http.Client{Transport: roundTripFunc(func(req *http.Request) (*http.Response, error) {
		seen = req
		return &http.Response{StatusCode: 200, ContentLength: int64(len(body)), Body: io.NopCloser(strings.NewReader(string(body))), Request: req}, nil
	})}
	if _, err := r2.Resolve(context.Background()); err != nil {
		t.Fatal(err)
	}
	if want := "https://github.com/BurntSushi/ripgrep/releases/download/15.2.0/" + fakeAsset; seen.URL.String() != want {
		t.Errorf("requested %s, want %s", seen.URL, want)
	}
	if got := seen.Header.Get("Authorization"); got != "Bearer secret-token" {
		t.Errorf("github.com got Authorization %q", got)
	}
	if got := seen.Header.Get("Accept-Encoding"); got != "identity" {
		t.Errorf("Accept-Encoding = %q, want identity", got)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// The default client honours HTTPS_PROXY: the request goes to the proxy.
func TestDefaultClientUsesProxyFromEnvironment(t *testing.T) {
	c := newHTTPClient()
	tr := c.Transport.(*http.Transport)
	if tr.Proxy == nil || !tr.DisableCompression || tr.ResponseHeaderTimeout == 0 || tr.TLSHandshakeTimeout == 0 {
		t.Fatalf("default transport = %+v; want proxy from env, no compression, timeouts", tr)
	}
}

func TestMirrorLocations(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.tar.gz"), nil, 0o644)
	tests := []struct {
		mirror, want, errHas string
	}{
		{"", releaseBase + "/15.2.0/a.tar.gz", ""},
		{"https://mirror.example/rg/", "https://mirror.example/rg/a.tar.gz", ""},
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080/a.tar.gz", ""},
		{"http://localhost:8080/x", "http://localhost:8080/x/a.tar.gz", ""},
		{"http://mirror.example", "", "loopback"},
		{"ftp://mirror.example", "", "unsupported scheme"},
		{"file://" + filepath.ToSlash(dir), filepath.Join(dir, "a.tar.gz"), ""},
		{dir, filepath.Join(dir, "a.tar.gz"), ""},
		{filepath.Join(dir, "missing"), "", "404"},
	}
	for _, tt := range tests {
		loc, err := locate(tt.mirror, "15.2.0", "a.tar.gz")
		if tt.errHas != "" {
			if err == nil || !strings.Contains(err.Error(), tt.errHas) {
				t.Errorf("locate(%q) = %v, %v; want error with %q", tt.mirror, loc, err, tt.errHas)
			}
			continue
		}
		if err != nil || loc.String() != tt.want {
			t.Errorf("locate(%q) = %v, %v; want %s", tt.mirror, loc, err, tt.want)
		}
	}
}

// A redirect loop stops after 10 hops and an
// untrusted certificate is final, not retried as "spurious".
func TestRedirectLoopAndBadCertificateAreFinal(t *testing.T) {
	t.Run("redirect loop", func(t *testing.T) {
		e := newTestEnv(t)
		_, d := e.serveFake("15.2.0")
		e.srv.fault(fakeAsset, func(w http.ResponseWriter, r *http.Request, n int) bool {
			http.Redirect(w, r, "/"+fakeAsset+"?hop="+fmt.Sprint(n), http.StatusFound)
			return true
		})
		r := e.resolver()
		r.NoSystem, r.SHA256 = true, d
		_, err := r.Resolve(context.Background())
		if err == nil || !strings.Contains(err.Error(), "10 redirects") {
			t.Fatalf("err = %v, want the redirect limit", err)
		}
		if n := e.srv.count(fakeAsset); n != 10 {
			t.Errorf("%d requests; want 10 (one attempt, no retry)", n)
		}
	})
	t.Run("untrusted certificate", func(t *testing.T) {
		e := newTestEnv(t)
		_, d := e.serveFake("15.2.0")
		r := e.resolver()
		r.NoSystem, r.SHA256 = true, d
		r.HTTPClient = &http.Client{} // system roots: the test CA is unknown
		_, err := r.Resolve(context.Background())
		if err == nil || !strings.Contains(err.Error(), "certificate") {
			t.Fatalf("err = %v, want a certificate error", err)
		}
		if n := len(e.sleeps.list()); n != 0 {
			t.Errorf("a certificate error was retried (%d waits)", n)
		}
	})
}
