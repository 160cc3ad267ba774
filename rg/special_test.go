package rg_test

import (
	"bytes"
	"context"
	"io"
	"os/exec"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/rg"
)

// runRg runs the reference rg 15.2.0 with args (no config file).
func runRg(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(testtool.ReferenceRg(t), args...)
	cmd.Env = []string{"PATH=/nonexistent"}
	return testtool.Run(t, cmd)
}

// runLib runs package rg's default Program with args (no config file).
func runLib(args ...string) (stdout, stderr string, code int) {
	var out, errOut bytes.Buffer
	p := rg.Program{Getenv: func(string) string { return "" }}
	code = p.Main(context.Background(), args, nil, &out, &errOut)
	return out.String(), errOut.String(), code
}

// TestHelpIsRg15s holds -h and --help to rg 15.2.0's bytes. The lines that
// differ on purpose: the first (rg's has its git revision: "ripgrep 15.2.0
// (rev e89fff89ac)"), the second (rg's author; here what this program is),
// and the RGKIT section appended after rg's text (the flags refused, and
// --backend and --format).
func TestHelpIsRg15s(t *testing.T) {
	t.Parallel()
	for _, flag := range []string{"-h", "--help"} {
		t.Run(flag, func(t *testing.T) {
			t.Parallel()
			want, _, wantCode := runRg(t, flag)
			got, gotErr, gotCode := runLib(flag)
			if gotCode != wantCode || gotErr != "" {
				t.Fatalf("exit %d, stderr %q; rg: exit %d", gotCode, gotErr, wantCode)
			}
			wantLines := strings.SplitAfter(want, "\n")
			gotLines := strings.SplitAfter(got, "\n")
			if !strings.HasPrefix(wantLines[0], "ripgrep 15.2.0 (rev ") || gotLines[0] != "ripgrep 15.2.0\n" {
				t.Errorf("first line: got %q, rg %q", gotLines[0], wantLines[0])
			}
			if !strings.HasPrefix(gotLines[1], "rgkit ") {
				t.Errorf("second line %q: want what this program is", gotLines[1])
			}
			body := strings.Join(wantLines[2:], "")
			rest, ok := strings.CutPrefix(strings.Join(gotLines[2:], ""), body)
			if !ok {
				for i := 2; i < len(wantLines) && i < len(gotLines); i++ {
					if wantLines[i] != gotLines[i] {
						t.Fatalf("line %d differs from rg 15.2.0's:\n got %q\nwant %q", i+1, gotLines[i], wantLines[i])
					}
				}
				t.Fatalf("rg's %d lines are not all there (got %d)", len(wantLines), len(gotLines))
			}
			if !strings.HasPrefix(rest, "\nRGKIT:\n") || !strings.Contains(rest, "--generate") || !strings.Contains(rest, "--backend=ENGINE") {
				t.Errorf("after rg's text: %q, want the RGKIT section", rest)
			}
		})
	}
}

// kind names which special output a run printed, so that runs of rg and
// of the library can be compared where the exact bytes differ on purpose.
func kind(out string) string {
	switch {
	case strings.Contains(out, "\nUSAGE:\n    rg"):
		return "--help"
	case strings.Contains(out, "\nUSAGE:\n  rg"):
		return "-h"
	case strings.Contains(out, "\nfeatures:"):
		return "--version"
	case strings.HasPrefix(out, "ripgrep ") && strings.Count(out, "\n") == 1:
		return "-V"
	case strings.HasPrefix(out, "PCRE2 "):
		return "--pcre2-version"
	}
	return out
}

// TestSpecialModesChooseAsRg15 checks which of help and version rg 15.2.0
// prints when several are given, or mixed with search flags and with bad
// flags, and that the library chooses the same with the same exit status
// and error.
func TestSpecialModesChooseAsRg15(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"-h"}, {"--help"}, {"-V"}, {"--version"},
		{"-h", "--help"}, {"--help", "-h"}, {"-V", "--version"}, {"--version", "-V"},
		{"-h", "-V"}, {"-V", "-h"}, {"--version", "--help"}, {"-hV"}, {"-Vh"}, {"-nh"},
		{"--files", "-h"}, {"--type-list", "-V"}, {"-c", "pattern", "--version"},
		{"-h", "--no-config"}, {"--pcre2-version"}, {"-V", "--pcre2-version"}, {"--pcre2-version", "-V"},
		{"--foo", "-h"}, {"-h", "--foo"}, {"-V", "-C"}, {"-h", "--context=x"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			t.Parallel()
			wantOut, wantErr, wantCode := runRg(t, args...)
			gotOut, gotErr, gotCode := runLib(args...)
			if kind(gotOut) != kind(wantOut) || gotErr != wantErr || gotCode != wantCode {
				t.Errorf("got %s, stderr %q, exit %d; rg 15.2.0: %s, stderr %q, exit %d", kind(gotOut), gotErr, gotCode, kind(wantOut), wantErr, wantCode)
			}
		})
	}
}

// TestVersionOutput is rg's --version layout: "ripgrep 15.2.0" first
// (tools gate on it), what this program is, the features line (+pcre2:
// -P runs on the regexp2 emulation), and PCRE2's line, which says it is
// emulated; -V is the first line alone, and --pcre2-version is PCRE2's
// line with exit 0, as an rg with PCRE2 does.
func TestVersionOutput(t *testing.T) {
	t.Parallel()
	out, _, code := runLib("--version")
	lines := strings.Split(out, "\n")
	if code != 0 || len(lines) != 7 || lines[0] != "ripgrep 15.2.0" || !strings.Contains(lines[1], "pure-Go implementation of ripgrep 15.2.0") ||
		lines[2] != "" || lines[3] != "features:+pcre2" || lines[4] != "" || !strings.HasPrefix(lines[5], "PCRE2 10.45 is emulated with github.com/dlclark/regexp2/v2") {
		t.Errorf("--version: exit %d\n%s", code, out)
	}
	if out, _, code := runLib("-V"); out != "ripgrep 15.2.0\n" || code != 0 {
		t.Errorf("-V: %q exit %d", out, code)
	}
	if out, _, code := runLib("--pcre2-version"); out != lines[5]+"\n" || code != 0 {
		t.Errorf("--pcre2-version: %q exit %d", out, code)
	}
	t.Run("Program.Version says what the program is", func(t *testing.T) {
		p := rg.Program{Version: func(_ context.Context, w io.Writer) { io.WriteString(w, "an embedding program\n") }}
		var out bytes.Buffer
		p.Main(context.Background(), []string{"--version", "--backend", "native"}, nil, &out, io.Discard)
		want := "ripgrep 15.2.0\nan embedding program\n\nfeatures:+pcre2\n\n" + lines[5] + "\n"
		if out.String() != want {
			t.Errorf("got %q, want %q", out.String(), want)
		}
	})
}
