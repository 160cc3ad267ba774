package rgfetch

import (
	"net/http"
	"testing"
	"time"
)

// The schedule follows cargo: ~1 s ± 0.5, 3.5 s, 6.5 s,
// then the 10 s cap.
func TestBackoffSchedule(t *testing.T) {
	tests := []struct {
		n      int
		jitter float64
		want   time.Duration
	}{
		{1, 0, 500 * time.Millisecond},
		{1, 0.5, time.Second},
		{1, 0.999999, 1500 * time.Millisecond},
		{2, 0.5, 3500 * time.Millisecond},
		{3, 0.5, 6500 * time.Millisecond},
		{4, 0.5, 10 * time.Second},
		{9, 0.99, 10 * time.Second},
	}
	for _, tt := range tests {
		got := backoff(tt.n, tt.jitter).Round(time.Millisecond)
		if got != tt.want {
			t.Errorf("backoff(%d, %v) = %s, want %s", tt.n, tt.jitter, got, tt.want)
		}
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC)
	tests := []struct {
		name, header string
		want         time.Duration
		ok           bool
	}{
		{"seconds", "2", 2 * time.Second, true},
		{"zero seconds", "0", 0, true},
		{"http date", now.Add(7 * time.Second).Format(http.TimeFormat), 7 * time.Second, true},
		{"negative falls back to backoff", "-1", 0, false},
		{"past date falls back to backoff", now.Add(-time.Minute).Format(http.TimeFormat), 0, false},
		{"huge is capped", "99999", maxRetryAfter, true},
		{"far date is capped", now.Add(48 * time.Hour).Format(http.TimeFormat), maxRetryAfter, true},
		{"garbage falls back", "soon", 0, false},
		{"absent", "", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := parseRetryAfter(tt.header, now)
			if got != tt.want || ok != tt.ok {
				t.Fatalf("parseRetryAfter(%q) = %s, %v; want %s, %v", tt.header, got, ok, tt.want, tt.ok)
			}
		})
	}
}
