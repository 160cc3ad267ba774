// Package version is rgkit's one parser and comparer of tool release
// numbers: ripgrep's own (always MAJOR.MINOR.PATCH, no "v"), the number
// `rg --version` prints, and the leading numbers of git's and grep's
// version strings.
package version

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// V is a release number MAJOR.MINOR.PATCH.
type V struct{ Major, Minor, Patch int }

// String formats v as MAJOR.MINOR.PATCH.
func (v V) String() string { return fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch) }

// Compare returns -1, 0 or +1 as v is older than, equal to or newer than w.
func (v V) Compare(w V) int {
	for _, d := range [...]int{v.Major - w.Major, v.Minor - w.Minor, v.Patch - w.Patch} {
		switch {
		case d < 0:
			return -1
		case d > 0:
			return 1
		}
	}
	return 0
}

// Less reports whether v is older than w.
func (v V) Less(w V) bool { return v.Compare(w) < 0 }

// AtLeast reports whether v >= major.minor.patch.
func (v V) AtLeast(major, minor, patch int) bool {
	return v.Compare(V{major, minor, patch}) >= 0
}

// ErrSyntax is wrapped by Parse's error.
var ErrSyntax = errors.New("want MAJOR.MINOR.PATCH")

// Parse reads a release number written exactly as ripgrep tags its
// releases: three decimal numbers without sign or leading zero, no "v"
// (asset names are built from the same string, and "ripgrep-v15.1.0-..."
// does not exist upstream).
func Parse(s string) (V, error) {
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return V{}, fmt.Errorf("invalid version %q: %w", s, ErrSyntax)
	}
	var n [3]int
	for i, p := range parts {
		if p == "" || (len(p) > 1 && p[0] == '0') || strings.IndexFunc(p, func(r rune) bool { return r < '0' || r > '9' }) >= 0 {
			return V{}, fmt.Errorf("invalid version %q: %w", s, ErrSyntax)
		}
		v, err := strconv.Atoi(p)
		if err != nil {
			return V{}, fmt.Errorf("invalid version %q: %w", s, ErrSyntax)
		}
		n[i] = v
	}
	return V{n[0], n[1], n[2]}, nil
}

// Prefix reads the leading numbers of a tool's version string, such as
// git's "2.39.2.windows.1" or rg's "15.0.0-dev": MAJOR and MINOR must be
// there, a missing PATCH is 0, and whatever follows them is ignored.
func Prefix(s string) (V, bool) {
	var n [3]int
	for i := range n {
		j := 0
		for j < len(s) && j < 9 && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == 0 {
			return V{n[0], n[1], n[2]}, i >= 2
		}
		n[i], _ = strconv.Atoi(s[:j])
		s = s[j:]
		if i < 2 {
			if !strings.HasPrefix(s, ".") {
				return V{n[0], n[1], n[2]}, i >= 1
			}
			s = s[1:]
		}
	}
	return V{n[0], n[1], n[2]}, true
}

// rgVersionRE matches the first line of `rg --version`: "ripgrep 13.0.0",
// "ripgrep 14.1.0 (rev e50df40a19)", "ripgrep 15.0.0-dev". Compiled when
// first used: every program linking this package (cmd/rg too) would pay
// for it at start.
var rgVersionRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^ripgrep (\d+\.\d+\.\d+)\S*`) })

// Ripgrep returns the release number that `rg --version` printed, without
// any suffix ("15.0.0" for "ripgrep 15.0.0-dev").
func Ripgrep(out []byte) (string, error) {
	m := rgVersionRE().FindSubmatch(out)
	if m == nil {
		first, _, _ := strings.Cut(string(out), "\n")
		if len(first) > 80 {
			first = first[:80] + "..."
		}
		return "", fmt.Errorf("not ripgrep: --version printed %q", first)
	}
	return string(m[1]), nil
}
