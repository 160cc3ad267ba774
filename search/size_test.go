package search

import (
	"strings"
	"testing"
)

// TestParseFileSize: issue 11, item 10. "99999999999G" overflowed into a
// negative limit; it is refused, as rg refuses it ("size too big").
func TestParseFileSize(t *testing.T) {
	t.Parallel()
	good := map[string]int64{"0": 0, "512": 512, "512K": 512 << 10, "10m": 10 << 20, "1G": 1 << 30, "8589934591G": 8589934591 << 30}
	for in, want := range good {
		if got, err := ParseFileSize(in); err != nil || got != want {
			t.Errorf("ParseFileSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for in, msg := range map[string]string{
		"99999999999G":         "size too big",
		"8589934592G":          "size too big",
		"99999999999999999999": "size too big",
		"":                     "invalid size",
		"1T":                   "want digits",
		"-1":                   "want digits",
		"+1K":                  "want digits",
		"1.5M":                 "want digits",
	} {
		if got, err := ParseFileSize(in); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("ParseFileSize(%q) = %d, %v; want an error saying %q", in, got, err, msg)
		}
	}
}
