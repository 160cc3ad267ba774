package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/rgfetch"
)

func TestGrepFlavour(t *testing.T) {
	tests := []struct {
		out, version, flavour string
	}{
		{"grep (GNU grep) 3.8\nCopyright (C) 2022 Free Software Foundation, Inc.\n", "3.8", "GNU"},
		{"grep (BSD grep, GNU compatible) 2.6.0-FreeBSD\n", "2.6.0-FreeBSD", "BSD"},
		{"BusyBox v1.36.1 (2023-06-01) multi-call binary.\n", "", "BusyBox"},
		{"something else\n", "", "unknown (something else)"},
	}
	for _, tt := range tests {
		v, f := grepFlavour([]byte(tt.out))
		if v != tt.version || f != tt.flavour {
			t.Errorf("grepFlavour(%q) = %q, %q; want %q, %q", tt.out, v, f, tt.version, tt.flavour)
		}
	}
}

func TestDoctorExplainsTheOverride(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("fake rg is a shell script")
	}
	isolateFetch(t)
	fake := filepath.Join(t.TempDir(), "rg")
	os.WriteFile(fake, fakeRgScript("14.1.1"), 0o755)
	t.Setenv("RGKIT_RG_PATH", fake)
	out, errOut, code := runCLI(t, "doctor")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"platform:", runtime.GOOS + "/" + runtime.GOARCH, "release triple:", fake + " 14.1.1 (override)",
		"override", "chosen", "git", "grep", "RGKIT_RG_PATH=" + fake} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor output lacks %q:\n%s", want, out)
		}
	}
}

func TestDoctorJSONReportsToolsAndSteps(t *testing.T) {
	isolateFetch(t)
	t.Setenv("RGKIT_OFFLINE", "1")
	out, errOut, code := runCLI(t, "doctor", "--json")
	var rep doctorReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("exit %d, %v: %s %s", code, err, out, errOut)
	}
	if len(rep.Rg.Steps) < 2 || rep.Rg.Steps[0].Source != rgfetch.SourceOverride {
		t.Errorf("steps = %+v", rep.Rg.Steps)
	}
	if _, err := exec.LookPath("rg"); err == nil && (rep.Rg.Chosen == nil || rep.Rg.Chosen.Source != rgfetch.SourceSystem) {
		t.Errorf("rg is on PATH but not chosen: %+v", rep.Rg)
	}
	byName := map[string]toolReport{}
	for _, tr := range rep.Tools {
		byName[tr.Name] = tr
	}
	if _, err := exec.LookPath("git"); err == nil {
		if g := byName["git"]; g.Version == "" || g.PCRE == nil {
			t.Errorf("git report = %+v", g)
		}
	}
	if p, err := exec.LookPath("grep"); err == nil {
		v, _ := exec.Command(p, "--version").Output()
		if g := byName["grep"]; strings.Contains(string(v), "GNU grep") && (g.Flavour != "GNU" || g.Version == "" || g.PCRE == nil) {
			t.Errorf("grep report = %+v", g)
		}
	}
}

// With no rg anywhere and downloads off, doctor says so and exits 1.
func TestDoctorExitsOneWhenNoRgCanBeHad(t *testing.T) {
	isolateFetch(t)
	t.Setenv("RGKIT_OFFLINE", "1")
	t.Setenv("PATH", t.TempDir())
	out, _, code := runCLI(t, "doctor")
	if code != 1 || !strings.Contains(out, "unavailable") || !strings.Contains(out, "offline mode") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}
