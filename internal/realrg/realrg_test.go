package realrg

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestPassthroughThatCannotStartSaysWhy: an rg that vanished between the
// lookup and the start is reported, not a silent exit 2.
func TestPassthroughThatCannotStartSaysWhy(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "rg")
	var out, errOut strings.Builder
	code := Exec(t.Context(), missing, []string{"x"}, nil, &out, &errOut)
	if code != 2 || !strings.Contains(errOut.String(), missing) {
		t.Fatalf("exit %d, stderr %q; want 2 and a message naming %s", code, errOut.String(), missing)
	}
}
