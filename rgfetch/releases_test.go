package rgfetch

import (
	"strings"
	"testing"

	"github.com/rgkit/rgkit/internal/version"
)

func TestPinsAreWellFormed(t *testing.T) {
	seen := map[string]pinKey{}
	for k, p := range pins {
		if _, err := version.Parse(k.version); err != nil {
			t.Errorf("%v: %v", k, err)
		}
		if got, err := NormalizeSHA256(p.SHA256); err != nil || got != p.SHA256 {
			t.Errorf("%v: pin %q is not a lowercase SHA-256 (%v)", k, p.SHA256, err)
		}
		// The same digest under two labels is how stale pin tables show
		// (BurntSushi's tap labelled 14.0.0 hashes as 13.0.0).
		if other, dup := seen[p.SHA256]; dup {
			t.Errorf("digest %s pinned for both %v and %v", p.SHA256, k, other)
		}
		seen[p.SHA256] = k
	}
}

func TestDefaultVersionIsPinnedForTheMainPlatforms(t *testing.T) {
	for _, triple := range []string{
		"x86_64-unknown-linux-musl", "aarch64-unknown-linux-gnu", "x86_64-apple-darwin",
		"aarch64-apple-darwin", "x86_64-pc-windows-msvc", "aarch64-pc-windows-msvc", "aarch64-unknown-linux-musl",
	} {
		if _, ok := LookupPin(DefaultVersion, triple); !ok {
			t.Errorf("no pin for the default version %s on %s", DefaultVersion, triple)
		}
	}
}

// Grade C digests (single source) must not be pinned: installing them needs
// --sha256 or --allow-unpinned.
func TestGradeCDigestsAreNotPinned(t *testing.T) {
	for _, k := range []pinKey{
		{"14.0.0", "x86_64-apple-darwin"},
		{"14.0.0", "x86_64-unknown-linux-musl"},
		{"15.1.0", "i686-unknown-linux-gnu"},
		{"15.2.0", "i686-pc-windows-msvc"},
	} {
		if _, ok := pins[k]; ok {
			t.Errorf("%v has a single source (grade C) but is pinned", k)
		}
	}
}

func TestNormalizeSHA256(t *testing.T) {
	good := "1C9297BE4A084EEA7ECAEDF93EB03D058D6FAAE29BBC57ECDAF5063921491599"
	tests := []struct {
		name, in, want, errHas string
	}{
		{"uppercase is lowered", good, strings.ToLower(good), ""},
		{"surrounding space trimmed", " " + strings.ToLower(good) + "\n", strings.ToLower(good), ""},
		{"empty input digest refused", emptySHA256, "", "empty input"},
		{"empty input digest refused in uppercase", strings.ToUpper(emptySHA256), "", "empty input"},
		{"too short", good[:63], "", "64 hex"},
		{"not hex", strings.Repeat("g", 64), "", "64 hex"},
		{"empty", "", "", "64 hex"},
		{"sha256: prefix is not a digest", "sha256:" + good[:57], "", "64 hex"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := NormalizeSHA256(tt.in)
			if tt.errHas != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errHas) {
					t.Fatalf("NormalizeSHA256(%q) = %q, %v; want error containing %q", tt.in, got, err, tt.errHas)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("NormalizeSHA256(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
}
