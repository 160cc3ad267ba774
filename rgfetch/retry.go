package rgfetch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Retry policy, after cargo's: the first retry
// waits 0.5-1.5 s, then 3.5 s and 6.5 s (each ±0.5 s), never more than 10 s.
// A Retry-After header on 429/503 replaces the backoff, capped at
// maxRetryAfter so a hostile or confused server cannot park us for hours.
const (
	defaultRetries = 3
	maxBackoff     = 10 * time.Second
	maxRetryAfter  = 60 * time.Second
)

var backoffBase = [...]time.Duration{time.Second, 3500 * time.Millisecond, 6500 * time.Millisecond}

// backoff returns the wait before retry number n (1-based); jitter is a
// random number in [0, 1).
func backoff(n int, jitter float64) time.Duration {
	base := maxBackoff
	if n >= 1 && n <= len(backoffBase) {
		base = backoffBase[n-1]
	}
	d := base + time.Duration((jitter-0.5)*float64(time.Second))
	return min(d, maxBackoff)
}

// parseRetryAfter reads a Retry-After header: delay-seconds or an HTTP-date.
// It reports false for a missing, malformed, negative or past value, in
// which case the normal backoff applies. The result is capped.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	var d time.Duration
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		if secs > int64(maxRetryAfter/time.Second) {
			return maxRetryAfter, true
		}
		d = time.Duration(secs) * time.Second
	} else if t, err := http.ParseTime(v); err == nil {
		d = t.Sub(now)
		if d <= 0 {
			return 0, false
		}
	} else {
		return 0, false
	}
	return min(d, maxRetryAfter), true
}

// errInsecureRedirect refuses a redirect from https to http (or to plain
// http on a non-loopback host): the digest would still catch tampering, but
// the request would leak, and a token could follow it.
var errInsecureRedirect = errors.New("refusing redirect to a non-https URL")

// errTooManyRedirects stops a redirect loop; like net/http, after 10 hops.
var errTooManyRedirects = errors.New("stopped after 10 redirects")

// retryable reports whether another attempt may succeed after err. Digest
// mismatches, 4xx other than 408/429, size-cap violations, certificate
// errors and insecure redirects are final.
func retryable(err error) bool {
	var he *httpError
	if errors.As(err, &he) {
		return he.temporary()
	}
	var se *sizeError
	var we *writeError
	var ce *checksumError
	var ua x509.UnknownAuthorityError
	var hn x509.HostnameError
	var cv *tls.CertificateVerificationError
	var ci x509.CertificateInvalidError
	switch {
	case errors.As(err, &se), errors.As(err, &we), errors.As(err, &ce), errors.As(err, &ua), errors.As(err, &hn),
		errors.As(err, &cv), errors.As(err, &ci), errors.Is(err, errInsecureRedirect), errors.Is(err, errTooManyRedirects):
		return false
	}
	return true
}

// sleepCtx waits d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-t.C:
		return nil
	}
}
