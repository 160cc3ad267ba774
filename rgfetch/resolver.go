// Package rgfetch finds a working ripgrep or installs one.
//
// A Resolver tries, in order: an explicit override (Resolver.Override or
// RGKIT_RG_PATH), its in-memory cache, the system rg found on PATH (never
// one inside the working directory, and at least MinVersion), the managed
// copy in ~/.<AppName>/bin, and finally a download of the pinned release for
// this platform, verified against a SHA-256 compiled into the binary and
// installed atomically under a cross-process lock. See the README section
// "Provisioning ripgrep" for the full story.
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
	Triple  string `json:"triple,omitempty"` // release triple; "" for a system or override rg
}

// Resolver finds or installs rg. The zero value works: every empty field
// takes the default its comment names, so tests and embedders override
// exactly what they need. A Resolver must not be copied after first use.
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
	// asset keeps its release file name. Default <APP>_MIRROR.
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
	// Progress receives a download progress bar when it is a terminal.
	Progress io.Writer
	// Log receives one-line notes (retries, trusted sidecar digests).
	Log io.Writer
	// LookPath finds the system rg. Default exec.LookPath.
	LookPath func(file string) (string, error)
	// MinVersion is the oldest acceptable system rg. Default DefaultMinVersion.
	MinVersion string
	// Target is the platform to install for. Default platforms.Detect().
	Target platforms.Target
	// Home returns the home directory. Default os.UserHomeDir.
	Home func() (string, error)
	// Getenv reads the environment. Default os.Getenv.
	Getenv func(key string) string
	// WorkDir is the directory a system rg must not live in (a planted
	// ./rg or ./bin/rg in a checked-out repository). Default os.Getwd.
	WorkDir string
	// Sleep waits between retries and lock polls. Default: a timer that
	// honours ctx.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock for Retry-After dates and the failure TTL.
	Now func() time.Time
	// Retries is how many times a failed download is retried. 0 means the
	// default (3); negative means none.
	Retries int
	// MaxSize caps the archive size. Default 64 MiB.
	MaxSize int64
	// StallTimeout abandons a download that receives nothing for this long.
	// Default 30 s.
	StallTimeout time.Duration
	// VersionTimeout bounds each `rg --version` run. Default 5 s.
	VersionTimeout time.Duration
	// FailureTTL is how long a failed resolution is remembered before the
	// next call tries again. Default 30 s; negative disables it.
	FailureTTL time.Duration
	// FailureMemory, when positive, remembers a failed download on disk
	// (a marker in the bin dir) for that long, so that many short-lived
	// processes behind a broken network fail at once instead of each
	// waiting out the retries (gemini-cli#25323). Force ignores it; a
	// success clears it. 0 disables it (the CLI's default).
	FailureMemory time.Duration
	// PostInstall runs on the new binary before its smoke test. Default
	// platforms.PostInstall (codesign and quarantine removal on macOS).
	PostInstall func(ctx context.Context, path string) error

	// checkpoint is called at named install steps; tests kill the process
	// there. nil in production.
	checkpoint func(name string)
	// jitter returns a random number in [0, 1) for retry backoff.
	jitter func() float64
	// createTemp creates the install's temp files in the bin dir. Default
	// os.CreateTemp; tests hand back files whose writes fail as on a full
	// disk.
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
		return r.resolveOverride(ctx, s)
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
		return res, nil
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

// withRejections appends the candidates that were found but refused to a
// failure, so "no rg" never hides "your rg 11.0.0 is too old"
// (gemini-cli#26193).
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
