// Package rgfetch finds a working ripgrep or installs one.
//
// A Resolver tries, in order: an explicit override (Resolver.Override or
// RGKIT_RG_PATH), its in-memory cache, the system rg found on PATH (never
// one inside the working directory, and at least MinVersion), the managed
// copy in ~/.<AppName>/bin, and finally a download of the pinned release for
// this platform, verified against a SHA-256 compiled into the binary and
// installed atomically under a cross-process lock. docs/provisioning.md
// tells the full story.
package rgfetch

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/rgkit/rgkit/platforms"
)

// Source says where a resolved rg came from.
type Source int

const (
	SourceNone       Source = iota
	SourceOverride          // Resolver.Override or <APP>_RG_PATH
	SourceCache             // this Resolver's memory of an earlier success
	SourceSystem            // rg on PATH
	SourceManaged           // the copy in the bin dir, installed earlier
	SourceDownloaded        // installed by this call
)

var sourceNames = [...]string{"none", "override", "cache", "system", "managed", "downloaded"}

func (s Source) String() string {
	if s >= 0 && int(s) < len(sourceNames) {
		return sourceNames[s]
	}
	return "Source(?)"
}

// MarshalText makes a Source print as its name in JSON.
func (s Source) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a Source name, so `rgkit fetch --json` output
// round-trips.
func (s *Source) UnmarshalText(b []byte) error {
	for i, n := range sourceNames {
		if n == string(b) {
			*s = Source(i)
			return nil
		}
	}
	return fmt.Errorf("unknown source %q", b)
}

// Resolved is a working rg.
type Resolved struct {
	Path    string `json:"path"`    // absolute
	Version string `json:"version"` // as reported by rg --version
	Source  Source `json:"source"`
	Triple  string `json:"triple,omitempty"` // this platform's release triple for the running version
}

// Resolver finds or installs rg. The zero value works: every empty field
// takes the default its comment names, so embedders set exactly what they
// need. A Resolver must not be copied after first use.
type Resolver struct {
	// AppName names the managed directory (~/.<AppName>/bin) and the
	// environment prefix (<APPNAME>_RG_PATH, ...). Default "rgkit".
	AppName string
	// BinDir is where the managed rg lives. Default <APP>_BIN_DIR, else
	// ~/.<AppName>/bin.
	BinDir string
	// Version is the ripgrep release to install. Default DefaultVersion.
	Version string
	// Mirror replaces GitHub as the download origin: an https:// base URL,
	// http:// to a loopback address, file:///dir or a plain directory; the
	// asset keeps its release file name. Default <APP>_MIRROR. A password
	// in the URL is masked in every message and record.
	Mirror string
	// Override is an rg to use unconditionally. Default <APP>_RG_PATH.
	Override string
	// HTTPClient downloads; default: proxy from the environment, bounded
	// connect/TLS/header waits, no transparent decompression. Whatever client
	// is given, redirects from https to http are refused.
	HTTPClient *http.Client
	// Offline forbids any network access (also <APP>_OFFLINE=1).
	Offline bool
	// NoDownload limits the search to the system and managed rg and fails
	// fast otherwise (also <APP>_NO_DOWNLOAD=1); search engines use it.
	NoDownload bool
	// NoSystem skips the system rg: the caller wants the managed copy.
	NoSystem bool
	// Force reinstalls the managed copy even when it verifies.
	Force bool
	// SHA256 is the archive digest to trust for this run, replacing the pin.
	SHA256 string
	// AllowUnpinned opts in to the release's .sha256 sidecar when no digest
	// is pinned or given (trust on first use; logged and recorded).
	AllowUnpinned bool
	// Timeout bounds a whole download, retries included. Default 5 minutes;
	// negative means no bound beyond the caller's context.
	Timeout time.Duration
	// Progress receives a download progress bar when it is a terminal.
	Progress io.Writer
	// Log receives one-line notes (retries, trusted sidecar digests).
	Log io.Writer
	// MinVersion is the oldest acceptable system rg. Default DefaultMinVersion.
	MinVersion string
	// WorkDir is the directory a system rg must not live in (a planted
	// ./rg or ./bin/rg in a checked-out repository). Default os.Getwd.
	WorkDir string
	// FailureMemory, when positive, remembers a failed download on disk
	// (a marker in the bin dir) for that long, so that many short-lived
	// processes behind a broken network fail at once instead of each
	// waiting out the retries. Force ignores it; a success clears it. 0
	// disables it (the CLI's default).
	FailureMemory time.Duration

	// The fields below are the seams tests use to control the world; each
	// nil or zero value means the production default.

	lookPath       func(file string) (string, error)                // exec.LookPath
	target         platforms.Target                                 // platforms.Detect()
	home           func() (string, error)                           // os.UserHomeDir
	getenv         func(key string) string                          // os.Getenv
	sleep          func(ctx context.Context, d time.Duration) error // a timer honouring ctx
	now            func() time.Time                                 // time.Now
	retries        int                                              // 0: 3 retries; negative: none
	maxSize        int64                                            // archive cap, 64 MiB
	stallWindow    time.Duration                                    // throughput window, 30 s
	minRate        int64                                            // bytes/s over the window, 1000
	versionTimeout time.Duration                                    // each rg --version, 5 s
	versionMemo    *versionMemo                                     // the user cache's memo; tests point it elsewhere
	failureTTL     time.Duration                                    // in-memory failure, 30 s; negative: off
	postInstall    func(ctx context.Context, path string) error     // platforms.PostInstall
	// checkpoint is called at named install steps; tests kill the process
	// there.
	checkpoint func(name string)
	// jitter returns a random number in [0, 1) for retry backoff.
	jitter func() float64
	// createTemp creates the install's temp files in the bin dir; tests
	// hand back files whose writes fail as on a full disk.
	createTemp func(dir, pattern string) (tempFile, error)

	detectOnce sync.Once
	detected   platforms.Target

	mu       sync.Mutex
	cached   *Resolved
	override *overrideMemo
	failErr  error
	failAt   time.Time
	flight   *flight
}

// flight is one resolution shared by every concurrent caller.
type flight struct {
	done    chan struct{}
	res     Resolved
	err     error
	waiters int
	cancel  context.CancelFunc
}

// Resolve returns a working rg, installing it if needed. Concurrent calls
// share one resolution. A success is remembered for the Resolver's
// lifetime; a failure for FailureTTL. A caller whose ctx ends stops waiting;
// the shared resolution is cancelled once nobody waits for it.
func (r *Resolver) Resolve(ctx context.Context) (Resolved, error) {
	if r.overridePath() == "" && !r.Force {
		r.mu.Lock()
		if r.cached != nil {
			res := *r.cached
			r.mu.Unlock()
			res.Source = SourceCache
			return res, nil
		}
		r.mu.Unlock()
	}
	s := r.settings()
	if s.override != "" {
		res, err := r.resolveOverride(ctx, s)
		if err != nil {
			return res, err
		}
		return s.withTriple(res), nil
	}
	r.mu.Lock()
	if r.cached != nil && !s.force {
		res := *r.cached
		r.mu.Unlock()
		res.Source = SourceCache
		return res, nil
	}
	if r.failErr != nil && s.failureTTL > 0 && s.now().Sub(r.failAt) < s.failureTTL {
		err := r.failErr
		r.mu.Unlock()
		return Resolved{}, err
	}
	f := r.flight
	if f == nil {
		fctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		f = &flight{done: make(chan struct{}), cancel: cancel}
		r.flight = f
		go r.run(fctx, f, s)
	}
	f.waiters++
	r.mu.Unlock()

	select {
	case <-f.done:
		return f.res, f.err
	case <-ctx.Done():
		r.mu.Lock()
		f.waiters--
		if f.waiters == 0 {
			// Nobody waits any more: stop the work, and let the next caller
			// start afresh instead of joining a cancelled flight.
			f.cancel()
			if r.flight == f {
				r.flight = nil
			}
		}
		r.mu.Unlock()
		return Resolved{}, context.Cause(ctx)
	}
}

// Locate is Resolve reduced to the path, so a Resolver plugs in wherever a
// locator func(ctx) (string, error) is wanted (ripgrep.New(r.Locate)).
// The error is Resolve's: with NoDownload or Offline, a missing rg matches
// ErrNotInstalled, which search engines read as "unavailable".
func (r *Resolver) Locate(ctx context.Context) (string, error) {
	res, err := r.Resolve(ctx)
	if err != nil {
		return "", err
	}
	return res.Path, nil
}

// run performs a shared resolution and publishes its outcome.
func (r *Resolver) run(ctx context.Context, f *flight, s settings) {
	res, err := r.resolve(ctx, s, nil)
	r.mu.Lock()
	defer r.mu.Unlock()
	f.res, f.err = res, err
	switch {
	case err == nil:
		c := res
		r.cached, r.failErr = &c, nil
	case ctx.Err() == nil: // a real failure, not everyone giving up
		r.failErr, r.failAt = err, s.now()
	}
	if r.flight == f {
		r.flight = nil
	}
	f.cancel()
	close(f.done)
}

// resolve walks the steps after the override and memory cache. tr, when
// non-nil, receives each step's verdict.
func (r *Resolver) resolve(ctx context.Context, s settings, tr *Trace) (Resolved, error) {
	if tr == nil {
		tr = &Trace{}
	}
	if res, ok := r.trySystem(ctx, s, tr); ok {
		return s.withTriple(res), nil
	}
	if res, ok := r.tryManaged(ctx, s, tr); ok {
		return res, nil
	}
	res, err := r.download(ctx, s, tr)
	if err != nil {
		err = withRejections(err, tr)
	}
	return res, err
}

// withTriple fills in the release triple of this platform for an rg that
// did not come from a release archive (the system's or an override), so
// every Resolved says which release asset matches it.
func (s settings) withTriple(res Resolved) Resolved {
	if res.Triple != "" {
		return res
	}
	if t, err := s.target.Triple(res.Version); err == nil {
		res.Triple = t
	} else if t, err := s.target.Triple(s.version); err == nil {
		res.Triple = t
	}
	return res
}

// withRejections appends the candidates that were found but refused to a
// failure, so "no rg" never hides "your rg 11.0.0 is too old".
func withRejections(err error, tr *Trace) error {
	var notes []string
	for _, st := range tr.Steps {
		if st.Verdict == VerdictRejected && st.Source != SourceDownloaded {
			notes = append(notes, fmt.Sprintf("%s rg %s: %s", st.Source, st.Path, st.Reason))
		}
	}
	if len(notes) == 0 {
		return err
	}
	return fmt.Errorf("%w (also considered and refused: %s)", err, strings.Join(notes, "; "))
}
