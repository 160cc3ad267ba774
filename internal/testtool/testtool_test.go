package testtool

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestNeedFindsATool: the go command runs this test, so it is on PATH or
// in GOROOT/bin; sh is the tool looked up here.
func TestNeedFindsATool(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	if p := Need(t, "sh"); !strings.HasPrefix(p, "/") {
		t.Errorf("Need(sh) = %q, want an absolute path", p)
	}
}

// TestMissingToolSkipsOrFails runs this test binary again as a child, with
// and without RGKIT_REQUIRE_TOOLS=1, asking for a tool that does not exist.
func TestMissingToolSkipsOrFails(t *testing.T) {
	if os.Getenv("TESTTOOL_CHILD") == "1" {
		Need(t, "rgkit-no-such-tool")
		return
	}
	for _, tt := range []struct {
		require string
		want    string
		fails   bool
	}{{"", "--- SKIP", false}, {"1", "--- FAIL", true}} {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestMissingToolSkipsOrFails$", "-test.v")
		cmd.Env = append(os.Environ(), "TESTTOOL_CHILD=1", "RGKIT_REQUIRE_TOOLS="+tt.require)
		out, err := cmd.CombinedOutput()
		if (err != nil) != tt.fails || !strings.Contains(string(out), tt.want) {
			t.Errorf("RGKIT_REQUIRE_TOOLS=%q: err %v, output:\n%s\nwant %s", tt.require, err, out, tt.want)
		}
	}
}
