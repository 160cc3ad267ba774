package rgfetch

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// DefaultMinVersion is the oldest system rg accepted: 13.0.0 is what Debian
// 12 and Ubuntu 22.04 ship, and it has every flag the backends pass.
const DefaultMinVersion = "13.0.0"

// semver is a release number major.minor.patch; ripgrep uses no pre-release
// tags on its releases.
type semver [3]int

var semverRE = regexp.MustCompile(`^(\d+)\.(\d+)\.(\d+)$`)

func parseSemver(s string) (semver, error) {
	m := semverRE.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return semver{}, fmt.Errorf("invalid version %q: want MAJOR.MINOR.PATCH", s)
	}
	var v semver
	for i := range v {
		n, err := strconv.Atoi(m[i+1])
		if err != nil {
			return semver{}, fmt.Errorf("invalid version %q: %v", s, err)
		}
		v[i] = n
	}
	return v, nil
}

func (v semver) less(w semver) bool {
	for i := range v {
		if v[i] != w[i] {
			return v[i] < w[i]
		}
	}
	return false
}

// rgVersionRE matches the first line of `rg --version`: "ripgrep 13.0.0",
// "ripgrep 14.1.0 (rev e50df40a19)", "ripgrep 15.0.0-dev".
var rgVersionRE = regexp.MustCompile(`(?m)^ripgrep (\d+\.\d+\.\d+)\S*`)

// ParseRgVersion returns the release number printed by `rg --version`.
func ParseRgVersion(out []byte) (string, error) {
	m := rgVersionRE.FindSubmatch(out)
	if m == nil {
		first, _, _ := strings.Cut(string(out), "\n")
		if len(first) > 80 {
			first = first[:80] + "..."
		}
		return "", fmt.Errorf("not ripgrep: --version printed %q", first)
	}
	return string(m[1]), nil
}
