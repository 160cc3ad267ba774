package platforms

import (
	"fmt"
	"strconv"
	"strings"
)

// version is a ripgrep release number. ripgrep tags have no "v" prefix and
// always three numeric parts ("13.0.0", "15.1.0").
type version struct{ major, minor, patch int }

// parseVersion parses "MAJOR.MINOR.PATCH". A leading "v" is refused rather
// than stripped: asset names are built from the same string, and
// "ripgrep-v15.1.0-..." does not exist upstream.
func parseVersion(s string) (version, error) {
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return version{}, fmt.Errorf("platforms: invalid ripgrep version %q: want MAJOR.MINOR.PATCH without a \"v\"", s)
	}
	var n [3]int
	for i, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 || p == "" || (len(p) > 1 && p[0] == '0') || p[0] == '+' {
			return version{}, fmt.Errorf("platforms: invalid ripgrep version %q: want MAJOR.MINOR.PATCH without a \"v\"", s)
		}
		n[i] = v
	}
	return version{n[0], n[1], n[2]}, nil
}

// atLeast reports whether v >= major.minor.patch.
func (v version) atLeast(major, minor, patch int) bool {
	if v.major != major {
		return v.major > major
	}
	if v.minor != minor {
		return v.minor > minor
	}
	return v.patch >= patch
}
