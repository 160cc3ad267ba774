package rgfetch

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// releaseBase is where ripgrep's release assets live. The plain download URL
// is used, not api.github.com, so there is no 60-requests-an-hour limit
// (microsoft/vscode-ripgrep#9). GitHub redirects it to
// release-assets.githubusercontent.com (formerly objects.githubusercontent.com);
// both need to be allowed through egress filters.
const releaseBase = "https://github.com/BurntSushi/ripgrep/releases/download"

// Download limits. rg archives are 2-3 MB; the cap only stops a runaway
// server from filling the disk.
const (
	defaultMaxSize = 64 << 20
	// A download must average defaultMinRate bytes a second over every
	// defaultWindow, or it is a stall: a dead connection and one dripping a
	// byte a second are the same to a user waiting for a 2 MB file.
	defaultWindow  = 30 * time.Second
	defaultMinRate = 1000
	// defaultTimeout bounds a whole download, retries included.
	defaultTimeout = 5 * time.Minute
)

// location is where one file comes from: a URL or a local path.
type location struct {
	url  string // http(s)://...
	path string // a local file (file:// mirror or a directory)
}

// String is the location for people: a URL's password is masked, so
// mirror credentials never reach an error, a log, a trace or the stamp.
func (l location) String() string {
	if l.path != "" {
		return l.path
	}
	return redactURL(l.url)
}

// redactURL masks the password of a URL that carries userinfo
// (https://user:xxxxx@host/...). Anything that does not parse is returned
// with everything up to the last '@' before the host masked, since it may
// still hold a secret.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		if i := strings.Index(raw, "://"); i >= 0 {
			rest := raw[i+3:]
			host := rest
			if j := strings.IndexAny(rest, "/?#"); j >= 0 {
				host = rest[:j]
			}
			if at := strings.LastIndex(host, "@"); at >= 0 {
				return raw[:i+3] + "xxxxx" + rest[at:]
			}
		}
		return raw
	}
	if u.User == nil {
		return raw
	}
	return u.Redacted()
}

// locate returns where a release file lives: GitHub's release URL, or the
// same file name under mirror. A local mirror may hold the files flat or in
// GitHub's <version>/ layout; the first that exists wins.
func locate(mirror, version, name string) (location, error) {
	if mirror == "" {
		return location{url: releaseBase + "/" + version + "/" + name}, nil
	}
	u, err := url.Parse(mirror)
	if err == nil && (u.Scheme == "https" || u.Scheme == "http") {
		if u.Scheme == "http" && !isLoopback(u.Hostname()) {
			return location{}, fmt.Errorf("mirror %s: plain http is only allowed to a loopback address; use https", redactURL(mirror))
		}
		return location{url: strings.TrimRight(mirror, "/") + "/" + name}, nil
	}
	dir := mirror
	if err == nil && u.Scheme == "file" {
		dir = u.Path
	} else if err == nil && u.Scheme != "" && len(u.Scheme) > 1 {
		return location{}, fmt.Errorf("mirror %s: unsupported scheme %q (want https://, file:// or a directory)", redactURL(mirror), u.Scheme)
	}
	var tried []string
	for _, p := range []string{filepath.Join(dir, name), filepath.Join(dir, version, name)} {
		if _, err := os.Stat(p); err == nil {
			return location{path: p}, nil
		}
		tried = append(tried, p)
	}
	return location{}, &httpError{URL: "file://" + filepath.ToSlash(tried[0]), StatusCode: http.StatusNotFound}
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// isGitHubHost reports whether a GITHUB_TOKEN may be sent to host.
func isGitHubHost(host string) bool {
	return host == "github.com" || host == "api.github.com"
}

// fetcher downloads one file with retries, hashing the bytes as they are
// written. Its dependencies are fields so tests control time and network.
type fetcher struct {
	client   *http.Client
	getenv   func(string) string
	sleep    func(context.Context, time.Duration) error
	now      func() time.Time
	jitter   func() float64
	retries  int
	window   time.Duration // the throughput rule's window
	minRate  int64         // bytes per second the window must average
	progress io.Writer     // a terminal, or nil for no bar
	log      io.Writer
	triple   string // for error messages
}

// newHTTPClient returns the default client: proxy from the environment,
// bounded connect/TLS/header waits, no transparent decompression (the digest
// is over the bytes as published, not over a decoded stream).
func newHTTPClient() *http.Client {
	d := &net.Dialer{Timeout: 15 * time.Second, KeepAlive: 30 * time.Second}
	return &http.Client{Transport: &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           d.DialContext,
		TLSHandshakeTimeout:   15 * time.Second,
		ResponseHeaderTimeout: 30 * time.Second,
		IdleConnTimeout:       30 * time.Second,
		DisableCompression:    true,
		ForceAttemptHTTP2:     true,
	}}
}

// withRedirectPolicy returns a shallow copy of c that refuses insecure
// redirects, whatever client the caller injected.
func withRedirectPolicy(c *http.Client) *http.Client {
	cc := *c
	cc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) >= 10 {
			return errTooManyRedirects
		}
		if req.URL.Scheme != "https" && (via[0].URL.Scheme == "https" || !isLoopback(req.URL.Hostname())) {
			return fmt.Errorf("%w: %s -> %s", errInsecureRedirect, via[len(via)-1].URL, req.URL)
		}
		return nil
	}
	return &cc
}

// fetch copies the file at loc into dst (truncated first) and returns the
// SHA-256 of the bytes and their count. Network sources are retried; each
// attempt starts from an empty file. A host that cannot be reached at all
// (its name does not resolve, or nothing listens) gets one quick retry, not
// the long backoff meant for a busy server: a machine without network
// should hear about its ways out at once.
func (f *fetcher) fetch(ctx context.Context, loc location, dst resettable, limit int64) (string, int64, error) {
	if loc.path != "" {
		return copyLocal(loc.path, dst, limit)
	}
	shown := redactURL(loc.url)
	for attempt := 1; ; attempt++ {
		if err := resetFile(dst); err != nil {
			return "", 0, err
		}
		sum, n, err := f.once(ctx, loc.url, dst, limit)
		if err == nil {
			return sum, n, nil
		}
		if ctx.Err() != nil {
			return "", 0, &Error{Op: "download", URL: shown, Triple: f.triple, Err: context.Cause(ctx)}
		}
		unreachable := isUnreachable(err)
		retries := f.retries
		if unreachable {
			retries = min(retries, 1)
		}
		if !retryable(err) || attempt > retries {
			var he *httpError
			if errors.As(err, &he) && !he.temporary() {
				return "", 0, err // already names URL, triple and status
			}
			if unreachable {
				return "", 0, &Error{Op: "download", URL: shown, Triple: f.triple, Attempts: attempt, Err: &unreachableError{err: err}}
			}
			return "", 0, &Error{Op: "download", URL: shown, Triple: f.triple, Attempts: attempt, Err: err}
		}
		wait := backoff(attempt, f.jitter())
		if unreachable {
			wait = quickRetry
		}
		var he *httpError
		if errors.As(err, &he) && he.retryAfter > 0 {
			wait = he.retryAfter
		}
		if dl, ok := ctx.Deadline(); ok && f.now().Add(wait).After(dl) {
			return "", 0, &Error{Op: "download", URL: shown, Triple: f.triple, Attempts: attempt,
				Err: fmt.Errorf("%w (next retry in %s would pass the deadline)", err, wait.Round(time.Millisecond))}
		}
		if f.log != nil {
			note := err
			if unreachable {
				note = &unreachableError{err: err} // the final error names the URL
			}
			fmt.Fprintf(f.log, "rgfetch: %v; retrying in %s\n", note, wait.Round(time.Millisecond))
		}
		if err := f.sleep(ctx, wait); err != nil {
			return "", 0, &Error{Op: "download", URL: shown, Triple: f.triple, Attempts: attempt, Err: err}
		}
	}
}

// quickRetry is the wait before the single retry of an unreachable host: a
// blip in name resolution or a restarting proxy gets a second chance, a
// machine that is simply offline does not wait long.
const quickRetry = 250 * time.Millisecond

// isUnreachable reports whether err says the host could not be reached at
// all: its name does not resolve, or the connection was refused.
func isUnreachable(err error) bool {
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return true
	}
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ENETUNREACH) || errors.Is(err, syscall.EHOSTUNREACH)
}

// unreachableError keeps the network error but drops the URL net/http puts
// in front of it: the surrounding *Error names the URL once.
type unreachableError struct{ err error }

func (e *unreachableError) Error() string {
	var ue *url.Error
	if errors.As(e.err, &ue) {
		return ue.Err.Error()
	}
	return e.err.Error()
}

func (e *unreachableError) Unwrap() error { return e.err }

func (e *unreachableError) Is(target error) bool { return target == ErrUnreachable }

// once is one HTTP attempt.
func (f *fetcher) once(ctx context.Context, rawURL string, dst io.Writer, limit int64) (string, int64, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	// The throughput rule covers the wait for headers and the body alike:
	// every window must bring at least minRate bytes a second on average,
	// so both silence and a server dripping a byte at a time are given up
	// on (the caller's overall timeout bounds the rest).
	meter := newThroughput(f.window, f.minRate, cancel)
	defer meter.stop()
	shown := redactURL(rawURL)

	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return "", 0, err
	}
	req.Header.Set("User-Agent", "rgkit-rgfetch")
	// Asking for identity ourselves also stops net/http from decoding gzip
	// behind our back on an injected client.
	req.Header.Set("Accept-Encoding", "identity")
	if tok := f.getenv("GITHUB_TOKEN"); tok != "" && req.URL.Scheme == "https" && isGitHubHost(req.URL.Hostname()) {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	resp, err := f.client.Do(req)
	if err != nil {
		return "", 0, stallCause(ctx, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		he := &httpError{URL: shown, Triple: f.triple, StatusCode: resp.StatusCode}
		if d, ok := parseRetryAfter(resp.Header.Get("Retry-After"), f.now()); ok {
			he.retryAfter = d
		}
		return "", 0, he
	}
	if resp.ContentLength > limit {
		return "", 0, &sizeError{URL: shown, Limit: limit, Size: resp.ContentLength}
	}
	h := sha256.New()
	w := io.MultiWriter(localWriter{dst}, h)
	if bar := newProgressBar(f.progress, rawURL[strings.LastIndex(rawURL, "/")+1:], resp.ContentLength, f.now); bar != nil {
		defer bar.Finish()
		w = io.MultiWriter(w, bar)
	}
	n, err := io.Copy(w, io.LimitReader(meterReader{resp.Body, meter}, limit+1))
	if err != nil {
		return "", n, stallCause(ctx, err)
	}
	if n > limit {
		return "", n, &sizeError{URL: shown, Limit: limit, Size: -1}
	}
	if resp.ContentLength >= 0 && n != resp.ContentLength {
		return "", n, fmt.Errorf("%s: body is %d bytes, Content-Length said %d: %w", shown, n, resp.ContentLength, io.ErrUnexpectedEOF)
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// stallCause turns the cancellation caused by the throughput rule into
// its own error, so the message says what happened.
func stallCause(ctx context.Context, err error) error {
	if c := context.Cause(ctx); errors.Is(c, ErrStalled) {
		return c
	}
	return err
}

// throughput enforces the minimum rate: at the end of each window it
// compares the bytes counted in it with rate × window and cancels the
// attempt when they fall short.
type throughput struct {
	mu     sync.Mutex
	n      int64 // bytes in the current window
	window time.Duration
	rate   int64
	timer  *time.Timer
	cancel context.CancelCauseFunc
}

func newThroughput(window time.Duration, rate int64, cancel context.CancelCauseFunc) *throughput {
	t := &throughput{window: window, rate: rate, cancel: cancel}
	t.timer = time.AfterFunc(window, t.check)
	return t
}

func (t *throughput) add(n int) {
	t.mu.Lock()
	t.n += int64(n)
	t.mu.Unlock()
}

func (t *throughput) check() {
	t.mu.Lock()
	got := t.n
	t.n = 0
	t.mu.Unlock()
	need := max(1, int64(float64(t.rate)*t.window.Seconds()))
	if got < need {
		t.cancel(&stallError{got: got, window: t.window, rate: t.rate})
		return
	}
	t.timer.Reset(t.window)
}

func (t *throughput) stop() { t.timer.Stop() }

// meterReader counts what the body delivers.
type meterReader struct {
	r io.Reader
	m *throughput
}

func (m meterReader) Read(p []byte) (int, error) {
	n, err := m.r.Read(p)
	m.m.add(n)
	return n, err
}

// stallError says how little arrived; it matches ErrStalled.
type stallError struct {
	got    int64
	window time.Duration
	rate   int64
}

func (e *stallError) Error() string {
	if e.got == 0 {
		return fmt.Sprintf("download stalled: nothing received in %s", e.window)
	}
	return fmt.Sprintf("download stalled: %d bytes received in %s, below the minimum of %s/s", e.got, e.window, humanBytes(e.rate))
}

func (e *stallError) Is(target error) bool { return target == ErrStalled }

// copyLocal copies a file from a local mirror, hashing it; no retries.
func copyLocal(path string, dst resettable, limit int64) (string, int64, error) {
	if err := resetFile(dst); err != nil {
		return "", 0, err
	}
	src, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer src.Close()
	fi, err := src.Stat()
	if err != nil {
		return "", 0, err
	}
	if !fi.Mode().IsRegular() {
		return "", 0, fmt.Errorf("%s: not a regular file", path)
	}
	if fi.Size() > limit {
		return "", 0, &sizeError{URL: path, Limit: limit, Size: fi.Size()}
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(localWriter{dst}, h), io.LimitReader(src, limit+1))
	if err != nil {
		return "", n, fmt.Errorf("copy %s: %w", path, err)
	}
	if n > limit {
		return "", n, &sizeError{URL: path, Limit: limit, Size: -1}
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// localWriter marks the download target's write errors as local: a full
// disk or a failing device is not a network fault, and downloading again
// would fail the same way after using the bandwidth.
type localWriter struct{ w io.Writer }

func (l localWriter) Write(p []byte) (int, error) {
	n, err := l.w.Write(p)
	if err != nil {
		err = &writeError{Err: err}
	}
	return n, err
}

// resettable is a download target that a retry can empty: an *os.File or
// a memFile.
type resettable interface {
	io.Writer
	Truncate(size int64) error
	Seek(offset int64, whence int) (int64, error)
}

// resetFile empties f and rewinds it, so a retry never appends to the bytes
// of a failed attempt.
func resetFile(f resettable) error {
	if err := f.Truncate(0); err != nil {
		return err
	}
	_, err := f.Seek(0, io.SeekStart)
	return err
}

// defaultJitter is the jitter source of a fetcher nobody configured.
func defaultJitter() float64 { return rand.Float64() }
