package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	t.Parallel()
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	cases := []struct {
		name     string
		version  string
		settings []debug.BuildSetting
		want     string
	}{
		{"a release", "v1.2.3", nil, "v1.2.3"},
		{"a pseudo-version from VCS", "v0.0.0-20261201120000-0123456789ab+dirty", nil, "v0.0.0-20261201120000-0123456789ab+dirty"},
		{"devel with a clean revision", "(devel)", vcs("0123456789abcdef0123", "false"), "devel+0123456789ab"},
		{"devel with local changes", "(devel)", vcs("0123456789abcdef0123", "true"), "devel+0123456789ab+dirty"},
		{"a short revision", "(devel)", vcs("abc", "false"), "devel+abc"},
		{"devel without VCS", "(devel)", nil, "devel"},
		{"no version at all", "", nil, "devel"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			bi := &debug.BuildInfo{Main: debug.Module{Path: "github.com/rgkit/rgkit", Version: tc.version}, Settings: tc.settings}
			if got := fromBuildInfo(bi); got != tc.want {
				t.Errorf("got %q; want %q", got, tc.want)
			}
		})
	}
}

// In a test binary the main module is the one under test, so Version is
// never empty.
func TestVersionIsNeverEmpty(t *testing.T) {
	if v := Version(); v == "" {
		t.Fatal("empty version")
	}
}
