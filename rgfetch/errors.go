package rgfetch

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// ErrNotInstalled reports that no usable rg was found and the resolver was
// not allowed to download one (NoDownload or Offline). Search engines treat
// it as "ripgrep unavailable" and fall back.
var ErrNotInstalled = errors.New("no usable rg found")

// ChecksumError is a SECURITY error: the bytes received do not have the
// digest we trusted (the pin, --sha256, or the sidecar), or the sidecar
// disagrees with the pin. Nothing was installed and the digest is never
// updated automatically.
type ChecksumError struct {
	URL      string // where the archive (or sidecar) came from
	Triple   string
	Expected string // the trusted digest
	Actual   string // the digest of what was received, or the sidecar's
	Origin   string // what Expected came from: "pinned", "--sha256", "sidecar"
	Sidecar  bool   // true when a sidecar contradicted the pin
}

func (e *ChecksumError) Error() string {
	if e.Sidecar {
		return fmt.Sprintf("SECURITY ERROR: the release sidecar %s (%s) says SHA-256 %s, but the pinned digest is %s; refusing to install",
			e.URL, e.Triple, e.Actual, e.Expected)
	}
	return fmt.Sprintf("SECURITY ERROR: checksum mismatch for %s (%s): expected SHA-256 %s (%s), got %s; nothing was installed",
		e.URL, e.Triple, e.Expected, e.Origin, e.Actual)
}

// HTTPError is a response with a status other than 200.
type HTTPError struct {
	URL        string
	Triple     string
	StatusCode int

	retryAfter time.Duration // from a Retry-After header, 0 if none
}

func (e *HTTPError) Error() string {
	msg := fmt.Sprintf("GET %s (%s): HTTP %d %s", e.URL, e.Triple, e.StatusCode, http.StatusText(e.StatusCode))
	if e.StatusCode == http.StatusNotFound {
		msg += ": no such asset (is this version released for this platform, and does the mirror hold it?)"
	}
	return msg
}

// temporary reports whether retrying may help: server errors, 408 and 429.
func (e *HTTPError) temporary() bool {
	return e.StatusCode >= 500 || e.StatusCode == http.StatusTooManyRequests || e.StatusCode == http.StatusRequestTimeout
}

// SizeError reports an archive larger than the cap or than its pinned size.
type SizeError struct {
	URL   string
	Limit int64
	Size  int64 // -1 when the stream was cut at the limit
}

func (e *SizeError) Error() string {
	if e.Size < 0 {
		return fmt.Sprintf("%s: body exceeds the %d-byte limit", e.URL, e.Limit)
	}
	return fmt.Sprintf("%s: size %d bytes exceeds the %d-byte limit", e.URL, e.Size, e.Limit)
}

// DownloadError wraps the last failure after every attempt was used.
type DownloadError struct {
	URL      string
	Triple   string
	Attempts int
	Err      error
}

func (e *DownloadError) Error() string {
	return fmt.Sprintf("download %s (%s) failed after %d attempt(s): %v", e.URL, e.Triple, e.Attempts, e.Err)
}

func (e *DownloadError) Unwrap() error { return e.Err }

// UnpinnedError refuses a version/triple with no compiled-in digest when the
// caller neither gave one nor opted in to the release sidecar.
type UnpinnedError struct {
	Version, Triple, Asset string
}

func (e *UnpinnedError) Error() string {
	return fmt.Sprintf("no pinned SHA-256 for ripgrep %s (%s, %s): pass the digest with --sha256 (Resolver.SHA256), "+
		"or opt in to the release's .sha256 sidecar with --allow-unpinned (Resolver.AllowUnpinned)",
		e.Version, e.Triple, e.Asset)
}

// OfflineError says a download was needed but the network is off limits.
// It matches ErrNotInstalled.
type OfflineError struct {
	Version, Triple string
	Reason          string // "offline mode" or "downloads disabled"
	EnvPrefix       string // "RGKIT"
}

func (e *OfflineError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "no usable rg found and %s forbids downloading ripgrep %s", e.Reason, e.Version)
	if e.Triple != "" {
		fmt.Fprintf(&b, " (%s)", e.Triple)
	}
	fmt.Fprintf(&b, "; ways out: install rg with the system package manager (apt-get install ripgrep, brew install ripgrep, ...), "+
		"set %[1]s_MIRROR to a directory or URL holding the release archive, or set %[1]s_RG_PATH to an rg binary", e.EnvPrefix)
	return b.String()
}

func (e *OfflineError) Is(target error) bool { return target == ErrNotInstalled }

// SmokeTestError reports an installed candidate that did not run, or did not
// report the expected version.
type SmokeTestError struct {
	Path, Want, Got string
	Err             error
}

func (e *SmokeTestError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("smoke test of the new rg failed: %v", e.Err) // Err names the command
	}
	return fmt.Sprintf("smoke test %s --version: reports %s, want %s", e.Path, e.Got, e.Want)
}

func (e *SmokeTestError) Unwrap() error { return e.Err }

// LockError reports that another process held the install lock until the
// caller's context ended.
type LockError struct {
	Path string
	Err  error
}

func (e *LockError) Error() string {
	return fmt.Sprintf("another rg install is in progress (lock %s): %v", e.Path, e.Err)
}

func (e *LockError) Unwrap() error { return e.Err }

// WriteError is a failure to write a download to the local disk (ENOSPC,
// EDQUOT, EIO). It is never retried.
type WriteError struct {
	Err error
}

func (e *WriteError) Error() string { return "writing to the local disk: " + e.Err.Error() }

func (e *WriteError) Unwrap() error { return e.Err }
