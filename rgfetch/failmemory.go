package rgfetch

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// failureMarker is the on-disk memory of a failed download.
type failureMarker struct {
	At    time.Time `json:"at"`
	URL   string    `json:"url"`
	Error string    `json:"error"`
}

// recentFailureError reports a download that failed recently in some
// process; it is returned without touching the network.
type recentFailureError struct {
	Marker    string // the marker file
	At        time.Time
	URL, Last string
	Until     time.Time
}

func (e *recentFailureError) Error() string {
	return fmt.Sprintf("downloading %s failed at %s (%s); not retrying until %s: fix the network or set a mirror, "+
		"then delete %s or fetch with --force", e.URL, e.At.Format(time.RFC3339), e.Last, e.Until.Format(time.RFC3339), e.Marker)
}

// Is makes a remembered failure match ErrRecentFailure.
func (e *recentFailureError) Is(target error) bool { return target == ErrRecentFailure }

func (s settings) failureMarkerPath() string {
	return filepath.Join(s.binDir, "."+s.target.ExeName()+".failed")
}

// recentFailure returns a *recentFailureError when failure memory is on and
// a download failed within it.
func (s settings) recentFailure() error {
	if s.failureMemory <= 0 || s.force {
		return nil
	}
	path := s.failureMarkerPath()
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var m failureMarker
	if json.Unmarshal(data, &m) != nil {
		return nil
	}
	until := m.At.Add(s.failureMemory)
	if now := s.now(); now.Before(m.At) || !now.Before(until) {
		return nil
	}
	return &recentFailureError{Marker: path, At: m.At, URL: m.URL, Last: m.Error, Until: until}
}

// rememberFailure records a network failure (retries exhausted, a stall,
// a server error), or clears the record after a success. Security and
// configuration errors are not remembered: they are fast and must be seen.
func (s settings) rememberFailure(p plan, err error) {
	if s.failureMemory <= 0 || s.binDir == "" {
		return
	}
	path := s.failureMarkerPath()
	if err == nil {
		os.Remove(path)
		return
	}
	var de *Error
	var he *httpError
	if !errors.As(err, &de) && !(errors.As(err, &he) && he.temporary()) && !errors.Is(err, ErrStalled) {
		return
	}
	data, _ := json.Marshal(failureMarker{At: s.now().UTC(), URL: p.loc.String(), Error: err.Error()})
	os.WriteFile(path, data, 0o644)
}
