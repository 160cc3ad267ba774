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
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
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
	defaultMaxSize      = 64 << 20
	defaultStallTimeout = 30 * time.Second
)

// location is where one file comes from: a URL or a local path.
type location struct {
	url  string // http(s)://...
	path string // a local file (file:// mirror or a directory)
}

func (l location) String() string {
	if l.path != "" {
		return l.path
	}
	return l.url
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
			return location{}, fmt.Errorf("mirror %s: plain http is only allowed to a loopback address; use https", mirror)
		}
		return location{url: strings.TrimRight(mirror, "/") + "/" + name}, nil
	}
	dir := mirror
	if err == nil && u.Scheme == "file" {
		dir = u.Path
	} else if err == nil && u.Scheme != "" && len(u.Scheme) > 1 {
		return location{}, fmt.Errorf("mirror %s: unsupported scheme %q (want https://, file:// or a directory)", mirror, u.Scheme)
	}
	var tried []string
	for _, p := range []string{filepath.Join(dir, name), filepath.Join(dir, version, name)} {
		if _, err := os.Stat(p); err == nil {
			return location{path: p}, nil
		}
		tried = append(tried, p)
	}
	return location{}, &HTTPError{URL: "file://" + filepath.ToSlash(tried[0]), StatusCode: http.StatusNotFound}
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
	stall    time.Duration
	progress io.Writer // a terminal, or nil for no bar
	log      io.Writer
	triple   string // for error messages
}

// newHTTPClient returns the default client: proxy from the environment,
// bounded connect/TLS/header waits, no transparent decompression (the digest
// is over the raw bytes: reliability.md A6).
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
// attempt starts from an empty file.
func (f *fetcher) fetch(ctx context.Context, loc location, dst resettable, limit int64) (string, int64, error) {
	if loc.path != "" {
		return copyLocal(loc.path, dst, limit)
	}
	for attempt := 1; ; attempt++ {
		if err := resetFile(dst); err != nil {
			return "", 0, err
		}
		sum, n, err := f.once(ctx, loc.url, dst, limit)
		if err == nil {
			return sum, n, nil
		}
		if ctx.Err() != nil {
			return "", 0, fmt.Errorf("download %s (%s): %w", loc.url, f.triple, context.Cause(ctx))
		}
		if !retryable(err) || attempt > f.retries {
			var he *HTTPError
			if errors.As(err, &he) && !he.temporary() {
				return "", 0, err // already names URL, triple and status
			}
			return "", 0, &DownloadError{URL: loc.url, Triple: f.triple, Attempts: attempt, Err: err}
		}
		wait := backoff(attempt, f.jitter())
		var he *HTTPError
		if errors.As(err, &he) && he.retryAfter > 0 {
			wait = he.retryAfter
		}
		if dl, ok := ctx.Deadline(); ok && f.now().Add(wait).After(dl) {
			return "", 0, &DownloadError{URL: loc.url, Triple: f.triple, Attempts: attempt,
				Err: fmt.Errorf("%w (next retry in %s would pass the deadline)", err, wait.Round(time.Millisecond))}
		}
		if f.log != nil {
			fmt.Fprintf(f.log, "rgfetch: %v; retrying in %s\n", err, wait.Round(time.Millisecond))
		}
		if err := f.sleep(ctx, wait); err != nil {
			return "", 0, fmt.Errorf("download %s (%s): %w", loc.url, f.triple, err)
		}
	}
}

// once is one HTTP attempt.
func (f *fetcher) once(ctx context.Context, rawURL string, dst io.Writer, limit int64) (string, int64, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	// The stall timer covers the wait for headers and every gap between
	// reads; a server dripping bytes keeps resetting it, which is fine:
	// the caller's deadline bounds the total.
	stall := time.AfterFunc(f.stall, func() { cancel(errStalled) })
	defer stall.Stop()

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
		he := &HTTPError{URL: rawURL, Triple: f.triple, StatusCode: resp.StatusCode}
		if d, ok := parseRetryAfter(resp.Header.Get("Retry-After"), f.now()); ok {
			he.retryAfter = d
		}
		return "", 0, he
	}
	if resp.ContentLength > limit {
		return "", 0, &SizeError{URL: rawURL, Limit: limit, Size: resp.ContentLength}
	}
	h := sha256.New()
	w := io.MultiWriter(localWriter{dst}, h)
	if bar := f.bar(resp.ContentLength, rawURL); bar != nil {
		defer bar.Finish()
		w = io.MultiWriter(w, bar)
	}
	body := &stallReader{r: resp.Body, timer: stall, d: f.stall}
	n, err := io.Copy(w, io.LimitReader(body, limit+1))
	if err != nil {
		return "", n, stallCause(ctx, err)
	}
	if n > limit {
		return "", n, &SizeError{URL: rawURL, Limit: limit, Size: -1}
	}
	if resp.ContentLength >= 0 && n != resp.ContentLength {
		return "", n, fmt.Errorf("%s: body is %d bytes, Content-Length said %d: %w", rawURL, n, resp.ContentLength, io.ErrUnexpectedEOF)
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// bar returns a progress bar when progress output goes to a terminal.
func (f *fetcher) bar(size int64, rawURL string) *progressbar.ProgressBar {
	file, ok := f.progress.(*os.File)
	if !ok || !term.IsTerminal(int(file.Fd())) {
		return nil
	}
	return progressbar.NewOptions64(size,
		progressbar.OptionSetWriter(file),
		progressbar.OptionSetDescription("downloading "+rawURL[strings.LastIndex(rawURL, "/")+1:]),
		progressbar.OptionShowBytes(true),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
}

// stallCause turns the cancellation caused by the stall timer into
// errStalled, so the error says what happened.
func stallCause(ctx context.Context, err error) error {
	if errors.Is(context.Cause(ctx), errStalled) {
		return errStalled
	}
	return err
}

// stallReader pushes the stall deadline back on every read that made progress.
type stallReader struct {
	r     io.Reader
	timer *time.Timer
	d     time.Duration
}

func (s *stallReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if n > 0 {
		s.timer.Reset(s.d)
	}
	return n, err
}

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
		return "", 0, &SizeError{URL: path, Limit: limit, Size: fi.Size()}
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(localWriter{dst}, h), io.LimitReader(src, limit+1))
	if err != nil {
		return "", n, fmt.Errorf("copy %s: %w", path, err)
	}
	if n > limit {
		return "", n, &SizeError{URL: path, Limit: limit, Size: -1}
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
		err = &WriteError{Err: err}
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
