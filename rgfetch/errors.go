package rgfetch

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// The errors a caller can test for with errors.Is. Every failure rgfetch
// returns wraps at most one of them; the message itself names the URL,
// platform and digests concerned.
var (
	// ErrNotInstalled: no usable rg was found and the resolver was not
	// allowed to download one (NoDownload or Offline). Search engines treat
	// it as "ripgrep unavailable" and fall back.
	ErrNotInstalled = errors.New("no usable rg found")
	// ErrOffline: a download was needed but offline mode or NoDownload
	// forbids it. It also matches ErrNotInstalled.
	ErrOffline = errors.New("downloads are disabled")
	// ErrChecksum: a SECURITY error. The bytes received do not have the
	// trusted digest, or the release sidecar contradicts the pin. Nothing
	// was installed.
	ErrChecksum = errors.New("checksum mismatch")
	// ErrNotFound: the release asset does not exist at the origin (HTTP 404
	// or a mirror directory without it).
	ErrNotFound = errors.New("release asset not found")
	// ErrUnpinned: no digest is known for the asset and the caller neither
	// gave one nor opted in to the release sidecar.
	ErrUnpinned = errors.New("no pinned digest")
	// ErrUnreachable: the release host's name does not resolve or nothing
	// accepts the connection: the machine is probably offline.
	ErrUnreachable = errors.New("release host unreachable")
	// ErrStalled: the download fell below the minimum throughput.
	ErrStalled = errors.New("download stalled")
	// ErrTimeout: the download did not finish within the overall timeout.
	ErrTimeout = errors.New("download timed out")
	// ErrRecentFailure: failure memory (Resolver.FailureMemory) recorded a
	// failed download a moment ago, so no new attempt was made.
	ErrRecentFailure = errors.New("download failed recently")
)

// Error is a failed download: what was being done, from where, for which
// platform, and after how many attempts.
type Error struct {
	Op       string // "download"
	URL      string // with any password masked
	Triple   string
	Attempts int // 0 when not counted
	Err      error

	hint string // ways out, on lines of their own
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", e.Op, e.URL)
	if e.Triple != "" {
		fmt.Fprintf(&b, " (%s)", e.Triple)
	}
	if e.Attempts > 0 {
		fmt.Fprintf(&b, " failed after %d attempt(s)", e.Attempts)
	}
	fmt.Fprintf(&b, ": %v", e.Err)
	if e.hint != "" {
		b.WriteString(e.hint)
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// checksumError carries both digests of a mismatch.
type checksumError struct {
	URL      string // where the archive (or sidecar) came from
	Triple   string
	Expected string // the trusted digest
	Actual   string // the digest of what was received, or the sidecar's
	Origin   string // what Expected came from: "pinned", "--sha256", "sidecar"
	Sidecar  bool   // true when a sidecar contradicted the pin
}

func (e *checksumError) Error() string {
	if e.Sidecar {
		return fmt.Sprintf("SECURITY ERROR: the release sidecar %s (%s) says SHA-256 %s, but the pinned digest is %s; refusing to install",
			e.URL, e.Triple, e.Actual, e.Expected)
	}
	return fmt.Sprintf("SECURITY ERROR: checksum mismatch for %s (%s): expected SHA-256 %s (%s), got %s; nothing was installed",
		e.URL, e.Triple, e.Expected, e.Origin, e.Actual)
}

func (e *checksumError) Is(target error) bool { return target == ErrChecksum }

// httpError is a response with a status other than 200.
type httpError struct {
	URL        string
	Triple     string
	StatusCode int

	retryAfter time.Duration // from a Retry-After header, 0 if none
}

func (e *httpError) Error() string {
	msg := fmt.Sprintf("GET %s (%s): HTTP %d %s", e.URL, e.Triple, e.StatusCode, http.StatusText(e.StatusCode))
	if e.StatusCode == http.StatusNotFound {
		msg += ": no such asset (is this version released for this platform, and does the mirror hold it?)"
	}
	return msg
}

func (e *httpError) Is(target error) bool {
	return target == ErrNotFound && e.StatusCode == http.StatusNotFound
}

// temporary reports whether retrying may help: server errors, 408 and 429.
func (e *httpError) temporary() bool {
	return e.StatusCode >= 500 || e.StatusCode == http.StatusTooManyRequests || e.StatusCode == http.StatusRequestTimeout
}

// sizeError reports an archive larger than the cap or than its pinned size.
type sizeError struct {
	URL   string
	Limit int64
	Size  int64 // -1 when the stream was cut at the limit
}

func (e *sizeError) Error() string {
	if e.Size < 0 {
		return fmt.Sprintf("%s: body exceeds the %d-byte limit", e.URL, e.Limit)
	}
	return fmt.Sprintf("%s: size %d bytes exceeds the %d-byte limit", e.URL, e.Size, e.Limit)
}

// unpinnedError refuses a version/triple with no compiled-in digest when the
// caller neither gave one nor opted in to the release sidecar.
type unpinnedError struct {
	Version, Triple, Asset string
}

func (e *unpinnedError) Error() string {
	return fmt.Sprintf("no pinned SHA-256 for ripgrep %s (%s, %s): pass the digest with --sha256, "+
		"or opt in to the release's .sha256 sidecar with --allow-unpinned",
		e.Version, e.Triple, e.Asset)
}

func (e *unpinnedError) Is(target error) bool { return target == ErrUnpinned }

// offlineError says a download was needed but the network is off limits.
// It matches ErrOffline and ErrNotInstalled.
type offlineError struct {
	Version, Triple string
	Reason          string // "offline mode" or "downloads disabled"
	hint            string // waysOut
}

func (e *offlineError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "no usable rg found and %s forbids downloading ripgrep %s", e.Reason, e.Version)
	if e.Triple != "" {
		fmt.Fprintf(&b, " (%s)", e.Triple)
	}
	b.WriteString(e.hint)
	return b.String()
}

func (e *offlineError) Is(target error) bool {
	return target == ErrNotInstalled || target == ErrOffline
}

// waysOut lists, one command a line, every way to get rg without reaching
// the release host: a mirror, an archive fetched elsewhere, the operating
// system's package, or an rg already on disk.
func (s settings) waysOut(asset string) string {
	if asset == "" {
		asset = "the release archive"
	}
	type way struct{ cmd, why string }
	var ways []way
	if s.app == "rgkit" {
		ways = append(ways,
			way{"rgkit fetch --mirror URL", "a mirror (https:// URL or directory) holding " + asset + "; or set " + s.envPrefix + "_MIRROR=URL"},
			way{"rgkit fetch --archive FILE", asset + ", downloaded on another machine"})
	} else {
		ways = append(ways, way{s.envPrefix + "_MIRROR=URL", "set it to a mirror (https:// URL or directory) holding " + asset})
	}
	pkgs := osPackages(s.target.OS)
	why := "the operating system's package"
	if len(pkgs) > 1 {
		why += " (or: " + strings.Join(pkgs[1:], ", ") + ")"
	}
	ways = append(ways, way{pkgs[0], why}, way{s.envPrefix + "_RG_PATH=/path/to/rg", "use an rg you already have"})
	width := 0
	for _, w := range ways {
		width = max(width, len(w.cmd))
	}
	var b strings.Builder
	b.WriteString("\nways out:")
	for _, w := range ways {
		fmt.Fprintf(&b, "\n  %-*s  %s", width, w.cmd, w.why)
	}
	return b.String()
}

// osPackages are the commands that install ripgrep from the operating
// system's own package manager.
func osPackages(goos string) []string {
	switch goos {
	case "darwin":
		return []string{"brew install ripgrep"}
	case "windows":
		return []string{"winget install BurntSushi.ripgrep.MSVC", "choco install ripgrep"}
	case "freebsd":
		return []string{"pkg install ripgrep"}
	default:
		return []string{"sudo apt-get install ripgrep", "sudo dnf install ripgrep"}
	}
}

// smokeTestError reports an installed candidate that did not run, or did
// not report the expected version.
type smokeTestError struct {
	Path, Want, Got string
	Err             error
}

func (e *smokeTestError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("smoke test of the new rg failed: %v", e.Err) // Err names the command
	}
	return fmt.Sprintf("smoke test %s --version: reports %s, want %s", e.Path, e.Got, e.Want)
}

func (e *smokeTestError) Unwrap() error { return e.Err }

// lockError reports that another process held the install lock until the
// caller's context ended.
type lockError struct {
	Path string
	Err  error
}

func (e *lockError) Error() string {
	return fmt.Sprintf("another rg install is in progress (lock %s): %v", e.Path, e.Err)
}

func (e *lockError) Unwrap() error { return e.Err }

// writeError is a failure to write a download to the local disk (ENOSPC,
// EDQUOT, EIO). It is never retried.
type writeError struct {
	Err error
}

func (e *writeError) Error() string { return "writing to the local disk: " + e.Err.Error() }

func (e *writeError) Unwrap() error { return e.Err }
