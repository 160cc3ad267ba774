package rgfetch

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"strings"
	"testing"
)

// pinForTest pins digest for (version, triple) for the test's duration, so
// pin-vs-sidecar behaviour can be tested with archives built here.
func pinForTest(t *testing.T, version, triple, digest string) {
	k := pinKey{version, triple}
	if _, exists := pins[k]; exists {
		t.Fatalf("%v is a real pin", k)
	}
	pins[k] = Pin{SHA256: digest}
	t.Cleanup(func() { delete(pins, k) })
}

func TestUnpinnedVersionRefusedWithoutOptIn(t *testing.T) {
	e := newTestEnv(t)
	e.serveFake("99.0.0")
	r := e.resolver()
	r.NoSystem, r.Version = true, "99.0.0"
	_, err := r.Resolve(context.Background())
	var ue *unpinnedError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "--sha256") || !strings.Contains(err.Error(), "--allow-unpinned") {
		t.Fatalf("err = %v, want an unpinnedError naming both ways out", err)
	}
	if n := e.srv.total(); n != 0 {
		t.Errorf("%d requests made for a refused version", n)
	}
}

// With the opt-in, the sidecar's digest is trusted, logged and recorded;
// certutil's CRLF format works (the Windows zip's sidecar).
func TestAllowUnpinnedTrustsSidecar(t *testing.T) {
	skipIfNoShell(t)
	tests := []struct {
		name    string
		sidecar func(asset, digest string) string
	}{
		{"shasum", func(a, d string) string { return d + "  " + a + "\n" }},
		{"certutil", func(a, d string) string {
			return "SHA256 hash of " + a + ":\r\n" + d + "\r\nCertUtil: -hashfile command completed successfully.\r\n"
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newTestEnv(t)
			name, d := e.serveFake("99.0.0")
			e.srv.put(name+".sha256", []byte(tt.sidecar(name, d)))
			r := e.resolver()
			r.NoSystem, r.Version, r.AllowUnpinned = true, "99.0.0", true
			res, err := r.Resolve(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			assertWorks(t, res, "99.0.0")
			if !strings.Contains(e.log.String(), "trusting the release sidecar's SHA-256 "+d) {
				t.Errorf("trust not logged: %q", e.log)
			}
			var st stamp
			data, _ := os.ReadFile(stampPath(e.binDir, "rg"))
			json.Unmarshal(data, &st)
			if st.DigestOrigin != "sidecar" || st.ArchiveSHA256 != d {
				t.Errorf("stamp = %+v, want sidecar origin and digest %s", st, d)
			}
		})
	}
}

// The sidecar detects corruption: an archive that differs from its own
// sidecar is refused.
func TestSidecarMismatchRefused(t *testing.T) {
	e := newTestEnv(t)
	name, _ := e.serveFake("99.0.0")
	e.srv.put(name+".sha256", []byte(strings.Repeat("cd", 32)+"  "+name+"\n"))
	r := e.resolver()
	r.NoSystem, r.Version, r.AllowUnpinned = true, "99.0.0", true
	_, err := r.Resolve(context.Background())
	var ce *checksumError
	if !errors.As(err, &ce) || ce.Origin != "sidecar" {
		t.Fatalf("err = %v, want a checksumError against the sidecar", err)
	}
}

// When a pin exists and the sidecar is fetched too, they must agree:
// disagreement is a SECURITY error and nothing is downloaded.
func TestSidecarDisagreeingWithPinIsSecurityError(t *testing.T) {
	skipIfNoShell(t)
	tests := []struct {
		name     string
		sidecar  func(d string) (body []byte, code int)
		wantErr  bool
		wantHits int
	}{
		{"agrees", func(d string) ([]byte, int) { return []byte(d + "  x\n"), 200 }, false, 1},
		{"missing (13.0.0 has none)", func(d string) ([]byte, int) { return nil, 404 }, false, 1},
		{"disagrees", func(d string) ([]byte, int) { return []byte(strings.Repeat("ef", 32) + "  x\n"), 200 }, true, 0},
		{"malformed", func(d string) ([]byte, int) { return []byte("SHA256\r\n"), 200 }, true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newTestEnv(t)
			name, d := e.serveFake("99.1.0")
			pinForTest(t, "99.1.0", "x86_64-unknown-linux-musl", d)
			body, code := tt.sidecar(d)
			e.srv.fault(name+".sha256", func(w http.ResponseWriter, r *http.Request, n int) bool {
				w.WriteHeader(code)
				w.Write(body)
				return true
			})
			r := e.resolver()
			r.NoSystem, r.Version, r.AllowUnpinned = true, "99.1.0", true
			_, err := r.Resolve(context.Background())
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if tt.name == "disagrees" {
				var ce *checksumError
				if !errors.As(err, &ce) || !ce.Sidecar || !strings.Contains(err.Error(), "SECURITY ERROR") {
					t.Errorf("err = %v, want a sidecar SECURITY error", err)
				}
			}
			if got := e.srv.count(name); got != tt.wantHits {
				t.Errorf("archive requested %d times, want %d", got, tt.wantHits)
			}
		})
	}
}

// The pinned digest is used without --sha256, and a pinned digest that the
// archive does not match is refused (the pin is never auto-updated).
func TestPinnedDigestEnforced(t *testing.T) {
	skipIfNoShell(t)
	e := newTestEnv(t)
	name, d := e.serveFake("99.1.0")
	pinForTest(t, "99.1.0", "x86_64-unknown-linux-musl", d)
	r := e.resolver()
	r.NoSystem, r.Version = true, "99.1.0"
	if _, err := r.Resolve(context.Background()); err != nil {
		t.Fatal(err)
	}
	// Same pin, different bytes on the mirror.
	e2 := newTestEnv(t)
	_, other := releaseTarGz(t, "99.1.0", "x86_64-unknown-linux-musl", append(fakeRg("99.1.0"), '#'))
	e2.srv.put(name, other)
	r2 := e2.resolver()
	r2.NoSystem, r2.Version = true, "99.1.0"
	_, err := r2.Resolve(context.Background())
	var ce *checksumError
	if !errors.As(err, &ce) || ce.Expected != d || ce.Origin != "pinned" {
		t.Fatalf("err = %v, want a mismatch against the pin %s", err, d)
	}
}

func TestEmptyInputDigestRefusedAsSHA256(t *testing.T) {
	e := newTestEnv(t)
	e.serveFake("15.2.0")
	r := e.resolver()
	r.NoSystem, r.SHA256 = true, emptySHA256
	_, err := r.Resolve(context.Background())
	if err == nil || !strings.Contains(err.Error(), "empty input") {
		t.Fatalf("err = %v, want the empty-input digest refused", err)
	}
	if n := e.srv.total(); n != 0 {
		t.Errorf("%d requests made", n)
	}
}

// Offline mode opens no socket and names the three ways out.
func TestOfflineFailsFastWithHint(t *testing.T) {
	for _, how := range []string{"field", "env"} {
		t.Run(how, func(t *testing.T) {
			e := newTestEnv(t)
			r := e.resolver()
			r.HTTPClient = &http.Client{Transport: roundTripFunc(func(req *http.Request) (*http.Response, error) {
				t.Errorf("offline resolver made a request to %s", req.URL)
				return nil, errors.New("no")
			})}
			if how == "field" {
				r.Offline = true
			} else {
				e.env["RGKIT_OFFLINE"] = "1"
			}
			_, err := r.Resolve(context.Background())
			if !errors.Is(err, ErrNotInstalled) {
				t.Fatalf("err = %v, want ErrNotInstalled", err)
			}
			for _, want := range []string{"apt-get install ripgrep", "RGKIT_MIRROR", "RGKIT_RG_PATH", "15.2.0", "x86_64-unknown-linux-musl"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("offline error lacks %q: %v", want, err)
				}
			}
		})
	}
}

// A pinned size caps the download: a longer body cannot be the pinned
// asset and is cut off before it is all read.
func TestPinnedSizeCapsTheDownload(t *testing.T) {
	e := newTestEnv(t)
	name, d := e.serveFake("99.1.0")
	k := pinKey{"99.1.0", "x86_64-unknown-linux-musl"}
	pins[k] = Pin{SHA256: d, Size: int64(len(e.srv.files[name]) - 1)}
	t.Cleanup(func() { delete(pins, k) })
	r := e.resolver()
	r.NoSystem, r.Version = true, "99.1.0"
	_, err := r.Resolve(context.Background())
	var se *sizeError
	if !errors.As(err, &se) || se.Limit != int64(len(e.srv.files[name])-1) {
		t.Fatalf("err = %v, want a sizeError at the pinned size", err)
	}
}
