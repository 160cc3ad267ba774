package platforms

import (
	"fmt"

	"github.com/rgkit/rgkit/internal/version"
)

// parseVersion parses a ripgrep release number "MAJOR.MINOR.PATCH". A
// leading "v" is refused rather than stripped: asset names are built from
// the same string.
func parseVersion(s string) (version.V, error) {
	v, err := version.Parse(s)
	if err != nil {
		return version.V{}, fmt.Errorf("platforms: invalid ripgrep version %q: want MAJOR.MINOR.PATCH without a \"v\"", s)
	}
	return v, nil
}
