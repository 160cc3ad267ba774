package main

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/internal/doctor"
	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/rgfetch"
)

// doctor reports git and grep exactly as the gitgrep and grep engines see
// them (their Available): fake tools on PATH print real --version texts.
func TestDoctorReportsToolsAsTheEnginesSee(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("fake tools are shell scripts")
	}
	tests := []struct {
		name     string
		tool     string // "git" or "grep"
		version  string // its --version output; "" = not installed
		want     doctor.Tool
		errParts []string // when the tool is unavailable to rgkit
	}{
		{"GNU grep", "grep", "grep (GNU grep) 3.8\nCopyright (C) 2022 Free Software Foundation, Inc.",
			doctor.Tool{Version: "3.8", Flavour: "GNU"}, nil},
		{"BSD grep", "grep", "grep (BSD grep, GNU compatible) 2.6.0-FreeBSD",
			doctor.Tool{Version: "2.6.0-FreeBSD", Flavour: "BSD"}, nil},
		{"BusyBox grep is not one rgkit runs", "grep", "BusyBox v1.36.1 (2023-06-01) multi-call binary.",
			doctor.Tool{}, []string{"neither GNU nor BSD", "BusyBox v1.36.1"}},
		{"no grep", "grep", "", doctor.Tool{}, []string{"not on PATH"}},
		{"git", "git", "git version 2.39.5", doctor.Tool{Version: "2.39.5"}, nil},
		{"git too old for gitgrep", "git", "git version 2.10.0", doctor.Tool{}, []string{"2.10.0", "2.15"}},
		{"no git", "git", "", doctor.Tool{}, []string{"not on PATH"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolateFetch(t)
			t.Setenv("RGKIT_OFFLINE", "1")
			bin := t.TempDir()
			t.Setenv("PATH", bin)
			path := filepath.Join(bin, tt.tool)
			if tt.version != "" {
				// --version prints the text; the -P probe fails (exit 1).
				script := "#!/bin/sh\nif [ \"$1\" = --version ]; then printf '" + tt.version + "\\n'; exit 0; fi\nexit 1\n"
				testtool.WriteExecutable(t, path, []byte(script))
			}
			out, errOut, _ := runCLI(t, "doctor", "--json")
			var rep doctor.Report
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("%v: %s %s", err, out, errOut)
			}
			var got doctor.Tool
			for _, tr := range rep.Tools {
				if tr.Name == tt.tool {
					got = tr
				}
			}
			if tt.errParts != nil {
				for _, part := range tt.errParts {
					if !strings.Contains(got.Error, part) {
						t.Errorf("%s report = %+v; want an error saying %q", tt.tool, got, part)
					}
				}
				return
			}
			if got.Error != "" || got.Path != path || got.Version != tt.want.Version || got.Flavour != tt.want.Flavour ||
				got.PCRE == nil || *got.PCRE {
				t.Errorf("%s report = %+v; want %s %s (%s), -P no", tt.tool, got, path, tt.want.Version, tt.want.Flavour)
			}
		})
	}
}

func TestDoctorExplainsTheOverride(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("fake rg is a shell script")
	}
	isolateFetch(t)
	fake := filepath.Join(t.TempDir(), "rg")
	testtool.WriteExecutable(t, fake, fakeRgScript("14.1.1"))
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
	var rep doctor.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("exit %d, %v: %s %s", code, err, out, errOut)
	}
	if len(rep.Rg.Steps) < 2 || rep.Rg.Steps[0].Source != rgfetch.SourceOverride {
		t.Errorf("steps = %+v", rep.Rg.Steps)
	}
	if _, err := exec.LookPath("rg"); err == nil && (rep.Rg.Chosen == nil || rep.Rg.Chosen.Source != rgfetch.SourceSystem) {
		t.Errorf("rg is on PATH but not chosen: %+v", rep.Rg)
	}
	byName := map[string]doctor.Tool{}
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
