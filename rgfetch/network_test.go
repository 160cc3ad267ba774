package rgfetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// refusedPort returns a loopback address nothing listens on: a port the
// kernel handed out and that was closed again.
func refusedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// nxdomainServer is a loopback DNS server that answers every query with
// NXDOMAIN, and a client whose resolver asks it: Go's own resolver then
// reports the real "no such host", without this machine's DNS settings.
func nxdomainClient(t *testing.T) *http.Client {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	go func() {
		buf := make([]byte, 1500)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			if n < 12 {
				continue
			}
			q := buf[:n]
			end := 12 // the question: labels up to the root, then type and class
			for end < n && q[end] != 0 {
				end += int(q[end]) + 1
			}
			end += 5
			if end > n {
				continue
			}
			resp := append([]byte{q[0], q[1], 0x81, 0x83, 0, 1, 0, 0, 0, 0, 0, 0}, q[12:end]...)
			pc.WriteTo(resp, from)
		}
	}()
	res := &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", pc.LocalAddr().String())
	}}
	d := &net.Dialer{Timeout: 5 * time.Second, Resolver: res}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
}

// A machine without network learns it at once, with every way out, and the
// URL it could not reach once: no three retries over ten seconds.
func TestUnreachableHostFailsFastWithWaysOut(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		mirror func(t *testing.T) string
		client func(t *testing.T) *http.Client
		cause  string
	}{
		{"connection refused", func(t *testing.T) string { return "http://" + refusedPort(t) + "/rel" },
			func(t *testing.T) *http.Client { return &http.Client{} }, "refused"},
		{"name does not resolve", func(t *testing.T) string { return "https://nonexistent.invalid/rel" },
			nxdomainClient, "no such host"},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newTestEnv(t)
			r := e.resolver()
			r.NoSystem, r.Mirror, r.HTTPClient = true, tt.mirror(t), tt.client(t)
			_, err := r.Resolve(context.Background())
			if !errors.Is(err, ErrUnreachable) {
				t.Fatalf("err = %v, want ErrUnreachable", err)
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.cause) {
				t.Errorf("the error does not say %q:\n%s", tt.cause, msg)
			}
			for _, way := range []string{"rgkit fetch --mirror URL", "rgkit fetch --archive FILE",
				"sudo apt-get install ripgrep", "RGKIT_RG_PATH=/path/to/rg"} {
				if !strings.Contains(msg, way) {
					t.Errorf("the error lacks the way out %q:\n%s", way, msg)
				}
			}
			url := r.Mirror + "/ripgrep-" + DefaultVersion + "-x86_64-unknown-linux-musl.tar.gz"
			if n := strings.Count(msg, url); n != 1 {
				t.Errorf("the URL appears %d times, want once:\n%s", n, msg)
			}
			s := e.sleeps.list()
			if len(s) > 1 || len(s) == 1 && s[0] > time.Second {
				t.Errorf("waits before giving up: %v; want at most one quick retry", s)
			}
		})
	}
}

// slowServer sends body one byte every gap, flushing each.
func slowServer(t *testing.T, body []byte, gap time.Duration) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		w.WriteHeader(http.StatusOK)
		for i := range body {
			if _, err := w.Write(body[i : i+1]); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(gap):
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// A server dripping one byte every 100 ms never goes silent, so an idle
// timer would wait forever; the throughput rule gives up on it.
func TestDrippingServerIsAStall(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	_, d := e.serveFake(DefaultVersion)
	srv := slowServer(t, make([]byte, 100000), 100*time.Millisecond)
	r := e.resolver()
	r.NoSystem, r.SHA256, r.retries = true, d, -1
	r.Mirror, r.HTTPClient = srv.URL, loopbackOnly(t, srv.Client())
	r.stallWindow, r.minRate = 400*time.Millisecond, 100 // at most ~4 bytes per window arrive; 40 are needed
	r.Timeout = -1
	_, err := r.Resolve(context.Background())
	if !errors.Is(err, ErrStalled) {
		t.Fatalf("err = %v, want ErrStalled", err)
	}
	if !strings.Contains(err.Error(), "below the minimum") {
		t.Errorf("the error does not explain the rule: %v", err)
	}
	assertNoTemps(t, e.binDir)
}

// A download that keeps above the minimum rate but would take too long in
// total ends at the overall timeout, retries included.
func TestOverallTimeoutEndsASlowDownload(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	_, d := e.serveFake(DefaultVersion)
	srv := slowServer(t, make([]byte, 100000), 100*time.Millisecond)
	r := e.resolver()
	r.NoSystem, r.SHA256 = true, d
	r.Mirror, r.HTTPClient = srv.URL, loopbackOnly(t, srv.Client())
	r.stallWindow, r.minRate = time.Second, 1 // the dripping rate passes
	r.Timeout = 700 * time.Millisecond
	_, err := r.Resolve(context.Background())
	if !errors.Is(err, ErrTimeout) || errors.Is(err, ErrStalled) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	if !strings.Contains(err.Error(), "--timeout") {
		t.Errorf("the error does not name the flag: %v", err)
	}
	assertNoTemps(t, e.binDir)
}

// A mirror's password never shows: not in a 404, a checksum error, a
// retry note, a trace or the stamp.
func TestMirrorPasswordNeverShown(t *testing.T) {
	t.Parallel()
	const secret = "s3cretpw"
	e := newTestEnv(t)
	name, d := e.serveFake(DefaultVersion)
	mirror := strings.Replace(e.srv.URL, "https://", "https://user:"+secret+"@", 1)

	check := func(t *testing.T, what, text string) {
		t.Helper()
		if strings.Contains(text, secret) {
			t.Errorf("%s shows the password:\n%s", what, text)
		}
	}
	t.Run("404", func(t *testing.T) {
		r := e.resolver()
		r.NoSystem, r.Mirror, r.Version, r.SHA256 = true, mirror, "15.0.0", d
		_, err := r.Resolve(context.Background())
		if !errors.Is(err, ErrNotFound) {
			t.Fatalf("err = %v, want ErrNotFound", err)
		}
		check(t, "the 404 error", err.Error())
		check(t, "Explain", fmt.Sprint(r.Explain(context.Background())))
	})
	t.Run("checksum", func(t *testing.T) {
		r := e.resolver()
		r.NoSystem, r.Mirror, r.SHA256 = true, mirror, strings.Repeat("ab", 32)
		_, err := r.Resolve(context.Background())
		if !errors.Is(err, ErrChecksum) {
			t.Fatalf("err = %v, want ErrChecksum", err)
		}
		check(t, "the checksum error", err.Error())
	})
	t.Run("retry note", func(t *testing.T) {
		e.srv.fault(name, status(1, http.StatusServiceUnavailable))
		r := e.resolver()
		r.NoSystem, r.Mirror, r.SHA256, r.Force = true, mirror, d, true
		if _, err := r.Resolve(context.Background()); err != nil {
			t.Fatal(err)
		}
		check(t, "the log", e.log.String())
		stamp, err := os.ReadFile(filepath.Join(e.binDir, ".rg.stamp"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(stamp), "user:xxxxx@") {
			t.Errorf("the stamp does not record the redacted mirror: %s", stamp)
		}
		check(t, "the stamp", string(stamp))
	})
}

func TestRedactURL(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"https://u:pw@h/x":       "https://u:xxxxx@h/x",
		"https://h/x":            "https://h/x",
		"https://u@h/x":          "https://u@h/x",
		"https://u:p%zz@h/x y":   "https://xxxxx@h/x y",
		"/plain/dir":             "/plain/dir",
		"http://a:b@127.0.0.1:9": "http://a:xxxxx@127.0.0.1:9",
	} {
		if got := redactURL(in); got != want {
			t.Errorf("redactURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// Each kind of failure matches its sentinel, and no message names a Go
// identifier: users read flags and variables.
func TestErrorsMatchTheirSentinelsAndNameNoGoFields(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		setup    func(r *Resolver)
		sentinel error
	}{
		{"offline", func(r *Resolver) { r.Offline = true }, ErrOffline},
		{"offline is also not installed", func(r *Resolver) { r.Offline = true }, ErrNotInstalled},
		{"no download", func(r *Resolver) { r.NoDownload = true }, ErrOffline},
		{"unpinned", func(r *Resolver) { r.Version = "99.0.0" }, ErrUnpinned},
		{"not found", func(r *Resolver) { r.Version, r.SHA256 = "15.0.0", strings.Repeat("ab", 32) }, ErrNotFound},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newTestEnv(t)
			r := e.resolver()
			r.NoSystem = true
			tt.setup(r)
			_, err := r.Resolve(context.Background())
			if !errors.Is(err, tt.sentinel) {
				t.Fatalf("err = %v, want %v", err, tt.sentinel)
			}
			if strings.Contains(err.Error(), "Resolver.") {
				t.Errorf("the message names a Go field: %v", err)
			}
		})
	}
}
