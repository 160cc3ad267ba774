package testtool

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// ReferenceMajor is the rg release line whose answers are the reference
// (search.Reference names the exact version).
const ReferenceMajor = "15."

// ReferenceRg returns the path of the reference ripgrep (15.x): the binary
// RGKIT_REFERENCE_RG names, else the rg on PATH when it is 15.x. Tests that
// compare an answer with rg's use it, so an older rg on PATH (the ripgrep
// engine's binary in the version matrix) never becomes the yardstick.
// Without it the test is skipped with the reason, or failed under
// RGKIT_REQUIRE_TOOLS=1. scripts/reference-rg.sh fetches one.
func ReferenceRg(t testing.TB) string {
	t.Helper()
	p, err := referenceRg()
	if err != nil {
		Missing(t, err.Error())
	}
	return p
}

var referenceRg = sync.OnceValues(func() (string, error) {
	p := os.Getenv("RGKIT_REFERENCE_RG")
	from := "RGKIT_REFERENCE_RG"
	if p == "" {
		var err error
		if p, err = exec.LookPath("rg"); err != nil {
			return "", fmt.Errorf("no reference rg: set RGKIT_REFERENCE_RG to an rg %sx (scripts/reference-rg.sh 15.2.0 fetches one) or put one first on PATH", ReferenceMajor)
		}
		from = "rg on PATH"
	}
	out, err := exec.Command(p, "--version").Output()
	first, _, _ := strings.Cut(string(out), "\n")
	if err != nil || !strings.HasPrefix(first, "ripgrep "+ReferenceMajor) {
		return "", fmt.Errorf("%s (%s) is %q, not the reference ripgrep %sx: set RGKIT_REFERENCE_RG (scripts/reference-rg.sh 15.2.0)", from, p, first, ReferenceMajor)
	}
	return p, nil
})
