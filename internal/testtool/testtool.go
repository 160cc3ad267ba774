// Package testtool is how a test says it needs an external program (rg,
// git, grep, mkfifo): without it the test is skipped with the reason, except
// under RGKIT_REQUIRE_TOOLS=1 (CI), where a missing tool fails the test so
// that a broken runner cannot turn the suite green by skipping it.
package testtool

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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

// FullEnv names the variable that runs the long differential suites at
// their full size. By default they run a smaller sample (each says which in
// its doc comment) so that go test ./... stays quick on a small machine; CI
// runs them once more with RGKIT_TEST_FULL=1.
const FullEnv = "RGKIT_TEST_FULL"

// Full reports whether RGKIT_TEST_FULL=1 is set.
func Full() bool { return os.Getenv(FullEnv) == "1" }

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

// ReferenceVersion is the ripgrep release whose answers are the
// reference: search.ReferenceVersion (a test holds the two together; this
// package cannot import search, whose own tests import it).
const ReferenceVersion = "15.2.0"

// ReferenceRgEnv names the variable holding the path of the reference rg
// when it is not the rg first on PATH: PATH=/opt/rg14:$PATH
// RGKIT_REFERENCE_RG=/opt/rg15/rg runs the ripgrep engine with rg 14 and
// compares it with rg 15.2.0. scripts/reference-rg.sh 15.2.0 fetches one.
const ReferenceRgEnv = "RGKIT_REFERENCE_RG"

// ReferenceRgPath finds the reference rg without a test: $RGKIT_REFERENCE_RG,
// else the rg on PATH; either must report version want (MAJOR.MINOR.PATCH;
// any patch level of want's MAJOR.MINOR is accepted for the PATH default).
// The error says why there is none.
func ReferenceRgPath(want string) (string, error) {
	p, fromEnv := os.Getenv(ReferenceRgEnv), true
	if p == "" {
		fromEnv = false
		var err error
		if p, err = exec.LookPath("rg"); err != nil {
			return "", fmt.Errorf("no reference rg %s: %s is unset and rg is not on PATH (scripts/reference-rg.sh %s fetches one)", want, ReferenceRgEnv, want)
		}
	}
	out, err := exec.Command(p, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("reference rg %s --version: %v", p, err)
	}
	got := strings.Fields(string(out) + " ? ?")[1]
	mm := want[:strings.LastIndexByte(want, '.')+1]
	switch {
	case got == want, !fromEnv && strings.HasPrefix(got, mm):
		return p, nil
	case fromEnv:
		return "", fmt.Errorf("%s=%s is ripgrep %s, not the reference %s", ReferenceRgEnv, p, got, want)
	}
	return "", fmt.Errorf("the rg on PATH (%s) is ripgrep %s, not the reference %s; set %s to a ripgrep %s binary (scripts/reference-rg.sh %s fetches one)", p, got, want, ReferenceRgEnv, want, want)
}

var referenceRg = sync.OnceValues(func() (string, error) { return ReferenceRgPath(ReferenceVersion) })

// ReferenceRg returns the path of the reference rg (ReferenceVersion) for
// a test that compares an answer with rg's, so that an older rg on PATH
// (the ripgrep engine's binary in the version matrix) never becomes the
// yardstick. Without it the test is skipped with the reason, or failed
// under RGKIT_REQUIRE_TOOLS=1.
func ReferenceRg(t testing.TB) string {
	t.Helper()
	p, err := referenceRg()
	if err != nil {
		Missing(t, err.Error())
	}
	return p
}

// Run runs cmd (Stdout and Stderr unset) and returns what it wrote and its
// exit status; a command that could not run at all fails the test.
func Run(t testing.TB, cmd *exec.Cmd) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatalf("%s: %v", cmd, err)
		}
	}
	return out.String(), errOut.String(), cmd.ProcessState.ExitCode()
}

var (
	jsonElapsed  = regexp.MustCompile(`"(elapsed|elapsed_total)":\{[^}]*\}`)
	statsSeconds = regexp.MustCompile(`(?m)^[0-9.]+ seconds( spent searching| total)?\r?$`)
)

// NormalizeTimings replaces what differs between two runs of rg's output
// by timing alone: JSON's "elapsed" and "elapsed_total", --stats' seconds.
func NormalizeTimings(s string) string {
	s = jsonElapsed.ReplaceAllString(s, `"$1":T`)
	return statsSeconds.ReplaceAllString(s, "T seconds$1")
}

// WriteTree writes files (slash-separated path: content) beneath dir,
// creating directories as needed.
func WriteTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// StartPiped starts cmd with pipes on its stdin and stdout (Stdin and
// Stdout unset), for a test that writes and reads as the process runs.
func StartPiped(t testing.TB, cmd *exec.Cmd) (stdin io.WriteCloser, stdout io.ReadCloser) {
	t.Helper()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err = cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return stdin, stdout
}

// RunUntilFirstLine starts cmd (Stdout and Stderr unset), reads one line
// of its output and closes the pipe, as `cmd | head -1` does, and returns
// what it wrote on stderr and its exit status (-1 when a signal ended it).
func RunUntilFirstLine(t testing.TB, cmd *exec.Cmd) (stderr string, code int) {
	t.Helper()
	var errOut strings.Builder
	cmd.Stderr = &errOut
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := bufio.NewReader(out).ReadString('\n'); err != nil {
		t.Fatalf("%s: no first line: %v", cmd, err)
	}
	out.Close()
	cmd.Wait()
	return errOut.String(), cmd.ProcessState.ExitCode()
}
