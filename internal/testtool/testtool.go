// Package testtool is how a test says it needs an external program (rg,
// git, grep, mkfifo): without it the test is skipped with the reason, except
// under RGKIT_REQUIRE_TOOLS=1 (CI), where a missing tool fails the test so
// that a broken runner cannot turn the suite green by skipping it.
package testtool

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// Need returns the absolute path of the program name found on PATH. When it
// is missing the test is skipped, or failed under RGKIT_REQUIRE_TOOLS=1.
func Need(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		Missing(t, name+" not on PATH: "+err.Error())
	}
	return p
}

// Missing skips the test for why, or fails it under RGKIT_REQUIRE_TOOLS=1.
func Missing(t testing.TB, why string) {
	t.Helper()
	if Required() {
		t.Fatalf("RGKIT_REQUIRE_TOOLS=1: %s", why)
	}
	t.Skip(why)
}

// Required reports whether RGKIT_REQUIRE_TOOLS=1 is set.
func Required() bool { return os.Getenv("RGKIT_REQUIRE_TOOLS") == "1" }

var goroot = sync.OnceValues(func() (string, error) {
	gocmd, err := exec.LookPath("go")
	if err != nil {
		return "", err
	}
	out, err := exec.Command(gocmd, "env", "GOROOT").Output()
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
})

// GOROOTDir is `go env GOROOT`: the Go tree the tests search as a large
// real corpus (runtime.GOROOT is deprecated and empty in a trimmed binary).
func GOROOTDir() (string, error) { return goroot() }

// GOROOT is GOROOTDir for a test, which is skipped (or failed under
// RGKIT_REQUIRE_TOOLS=1) when the go command cannot say.
func GOROOT(t testing.TB) string {
	t.Helper()
	dir, err := goroot()
	if err != nil || dir == "" {
		Missing(t, fmt.Sprintf("go env GOROOT: %v", err))
	}
	return dir
}
