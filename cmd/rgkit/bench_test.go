package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/bench"
)

// benchTree is a small tree every engine can search.
func benchTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a.go":       "package a\n\nfunc ReadAt() error { return ErrUnexpectedEOF }\nx1 = 2\n",
		"sub/b.go":   "package sub\n\nfunc WriteTo() {}\n// err handling\n",
		"sub/c.txt":  "HTTP and http\n",
		".gitignore": "ignored.txt\n",
	})
	return dir
}

// benchRg is the rg the bench tests compare with: rg 15.2.0 where the
// reference build is installed, else rg on PATH; the test skips without one
// unless RGKIT_REQUIRE_TOOLS=1.
func benchRg(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"/opt/rgref/15/rg", "rg"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	if os.Getenv("RGKIT_REQUIRE_TOOLS") == "1" {
		t.Fatal("no rg to compare with, and RGKIT_REQUIRE_TOOLS=1")
	}
	t.Skip("no rg on PATH to compare with")
	return ""
}

// TestBenchRunsTheSuiteAndReportsAgreement runs the default suite once per
// engine and task (no warm-up): the report's shape and the agreement line
// do not depend on how many rounds are timed.
func TestBenchRunsTheSuiteAndReportsAgreement(t *testing.T) {
	dir := benchTree(t)
	rg := benchRg(t)
	svg := filepath.Join(t.TempDir(), "chart.svg")
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"bench", "--runs", "1", "--warmup", "0", "--rg", rg, "--format", "markdown", "--svg", svg, dir}, nil, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
	}
	for _, want := range []string{"| task | engine | median |", "| | native |", "| | rg |", "rare literal `ErrUnexpectedEOF`", "list files",
		"×rg is against the rg row: rg ", "(" + rg + ") run directly",
		"gitgrep: unavailable (not inside a git work tree)",
		"agreement: every engine found the same matches on every task"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if b, err := os.ReadFile(svg); err != nil || !strings.Contains(string(b), "<svg") {
		t.Errorf("--svg wrote %d bytes, err %v", len(b), err)
	}
}

func TestBenchJSONHasOneResultPerEngineAndPattern(t *testing.T) {
	dir := benchTree(t)
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"bench", "--runs", "1", "--rg", "", "--format", "json", "-e", "func", "-e", "ErrUnexpectedEOF", "--backends", "native", dir}, nil, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var rep struct {
		Results []struct {
			Task    string `json:"task"`
			Engine  string `json:"engine"`
			Runs    int    `json:"runs"`
			Matches int    `json:"matches"`
		} `json:"results"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out.String())
	}
	if len(rep.Results) != 2 || rep.Results[0].Matches != 2 || rep.Results[1].Matches != 1 || rep.Results[0].Runs != 1 {
		t.Errorf("results = %+v, want func: 2 matches, ErrUnexpectedEOF: 1", rep.Results)
	}
}

func TestBenchRefusesBadInputWithExitTwo(t *testing.T) {
	dir := benchTree(t)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"bench", "--format", "xml", dir}, "unknown format"},
		{[]string{"bench", "--backends", "nosuch", dir}, `unknown engine "nosuch"`},
		{[]string{"bench", "--rg", "", "-e", "a(", dir}, "invalid pattern"}, // --rg "": no rg needed to refuse the pattern
		{[]string{"bench", filepath.Join(dir, "missing")}, "needs a directory"},
		{[]string{"bench", "--runs", "0", dir}, "--runs must be at least 1"},
		{[]string{"bench", "--scale", "cubic", dir}, `unknown scale "cubic" (want auto, linear or log)`},
		{[]string{"bench", "--rg", filepath.Join(dir, "no-rg"), dir}, "not found"},
		{[]string{"bench", "--rg", filepath.Join(dir, "a.go"), dir}, "not found"}, // not executable
	}
	for _, c := range cases {
		var out, errOut bytes.Buffer
		if code := run(context.Background(), c.args, nil, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, errOut.String(), c.want)
		}
	}
}

func TestBenchExitsThreeWhenEnginesDisagree(t *testing.T) {
	agree := &bench.Report{}
	if err := disagreementExit(agree); err != nil {
		t.Errorf("agreeing engines: %v, want exit 0", err)
	}
	differ := &bench.Report{Disagreements: []bench.Disagreement{{Task: "t", Engine: "grep", Reference: "ripgrep", MissingCount: 1}}}
	var ee *exitError
	if err := disagreementExit(differ); !errors.As(err, &ee) || ee.code != 3 || !errors.Is(err, bench.ErrDisagree) {
		t.Errorf("disagreeing engines: %v, want exit 3 wrapping ErrDisagree", err)
	}
}

// On a machine without rg, bench measures the engines it has and says the
// rg row is missing, in the table and in JSON; an --rg named explicitly
// that cannot run is still an error (TestBenchRefusesBadInputWithExitTwo).
func TestBenchWithoutRgMeasuresWithoutTheBaseline(t *testing.T) {
	dir := benchTree(t)
	t.Setenv("PATH", t.TempDir()) // no rg, git or grep
	t.Setenv("RGKIT_RG_PATH", "")
	for _, format := range []string{"table", "json"} {
		var out, errOut bytes.Buffer
		code := run(context.Background(), []string{"bench", "--runs", "1", "--warmup", "0", "--format", format, "-e", "func", "--backends", "native", dir}, nil, &out, &errOut)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", format, code, errOut.String())
		}
		if !strings.Contains(out.String(), "no rg row") || !strings.Contains(out.String(), "native") {
			t.Errorf("%s: the report does not say the rg row is missing:\n%s", format, out.String())
		}
		if format == "json" {
			var rep struct {
				Unavailable []struct{ Engine, Reason string } `json:"unavailable"`
				Results     []struct{ Engine string }         `json:"results"`
			}
			if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
				t.Fatal(err)
			}
			if len(rep.Unavailable) == 0 || rep.Unavailable[0].Engine != "rg" || len(rep.Results) != 1 || rep.Results[0].Engine != "native" {
				t.Errorf("unavailable %+v, results %+v; want rg unavailable and one native result", rep.Unavailable, rep.Results)
			}
		}
	}
}
