package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rgkit/rgkit/internal/testtool"
)

// grepIn runs `rgkit grep --backend native args...` in-process in dir with
// stdin (nil: none).
func grepIn(t *testing.T, dir string, stdin io.Reader, args ...string) (string, string, int) {
	t.Helper()
	t.Chdir(dir)
	var out, errOut bytes.Buffer
	code := run(context.Background(), append([]string{"grep", "--backend", "native"}, args...), stdin, &out, &errOut)
	return out.String(), errOut.String(), code
}

func TestGrepSearchesPipedStdin(t *testing.T) {
	dir := diffTree(t)
	t.Run("no path: stdin, printed without a file name", func(t *testing.T) {
		out, errOut, code := grepIn(t, dir, strings.NewReader("a\nb\nab\n"), "a")
		if out != "a\nab\n" || errOut != "" || code != 0 {
			t.Fatalf("got %q %q exit %d; want \"a\\nab\\n\" exit 0", out, errOut, code)
		}
	})
	t.Run("- as a path, beside a file", func(t *testing.T) {
		out, _, code := grepIn(t, dir, strings.NewReader("foo here\n"), "-n", "foo", "-", "a.txt")
		want := "<stdin>:1:foo here\na.txt:2:foo bar\r\na.txt:3:foo\n"
		if out != want || code != 0 {
			t.Fatalf("got %q exit %d; want %q", out, code, want)
		}
	})
}

func TestGrepMissingPathKeepsTheOtherResults(t *testing.T) {
	dir := diffTree(t)
	out, errOut, code := grepIn(t, dir, nil, "-n", "foo", "a.txt", "nope.go")
	if out != "a.txt:2:foo bar\r\na.txt:3:foo\n" {
		t.Errorf("stdout %q: a.txt's matches must stay", out)
	}
	if errOut != "rg: nope.go: No such file or directory (os error 2)\n" || code != 2 {
		t.Errorf("stderr %q exit %d; want rg's message and exit 2", errOut, code)
	}
}

func TestGrepRgFlagErrorsInRgsWords(t *testing.T) {
	dir := diffTree(t)
	for _, tc := range []struct {
		args []string
		want string
		code int
	}{
		{[]string{"-A", "x", "foo"}, "rg: error parsing flag -A: value is not a valid number: invalid digit found in string\n", 2},
		{[]string{"-t", "foo", "foo"}, "rg: unrecognized file type: foo\n", 2},
		{[]string{"--bogus"}, "rg: unrecognized flag --bogus\n", 2},
		{[]string{"-m0", "foo", "a.txt"}, "", 1},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out, errOut, code := grepIn(t, dir, nil, tc.args...)
			if out != "" || errOut != tc.want || code != tc.code {
				t.Errorf("got %q %q exit %d; want stderr %q exit %d", out, errOut, code, tc.want, tc.code)
			}
		})
	}
}

// rgJSONMessage is what a program written for rg's --json reads.
type rgJSONMessage struct {
	Type string `json:"type"`
	Data struct {
		Path  struct{ Text string } `json:"path"`
		Lines struct {
			Text  string `json:"text"`
			Bytes string `json:"bytes"`
		} `json:"lines"`
		LineNumber     int `json:"line_number"`
		AbsoluteOffset int `json:"absolute_offset"`
		Submatches     []struct {
			Match      struct{ Text string } `json:"match"`
			Start, End int
		} `json:"submatches"`
		Stats struct {
			MatchedLines int `json:"matched_lines"`
			Matches      int `json:"matches"`
		} `json:"stats"`
	} `json:"data"`
}

func TestGrepJSONIsRgsSchema(t *testing.T) {
	dir := diffTree(t)
	out, _, code := grepIn(t, dir, nil, "--json", "foo", "a.txt")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var types []string
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var m rgJSONMessage
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		types = append(types, m.Type)
		if m.Type == "match" && m.Data.LineNumber == 2 {
			if m.Data.Lines.Text != "foo bar\r\n" || m.Data.AbsoluteOffset != 12 || m.Data.Submatches[0].Match.Text != "foo" {
				t.Errorf("match %+v", m.Data)
			}
		}
		if m.Type == "summary" && (m.Data.Stats.MatchedLines != 2 || m.Data.Stats.Matches != 2) {
			t.Errorf("summary stats %+v", m.Data.Stats)
		}
	}
	if got := strings.Join(types, ","); got != "begin,match,match,end,summary" {
		t.Errorf("messages %s", got)
	}
}

func TestGrepHonoursRipgrepConfigPath(t *testing.T) {
	dir := diffTree(t)
	cfg := filepath.Join(t.TempDir(), "rgrc")
	if err := os.WriteFile(cfg, []byte("# case-insensitive by default\n--ignore-case\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("RIPGREP_CONFIG_PATH", cfg)
	t.Run("the config's flags come first", func(t *testing.T) {
		out, _, _ := grepIn(t, dir, nil, "-c", "FOO", "words.txt")
		if out != "6\n" {
			t.Errorf("-c FOO with --ignore-case from the config: %q, want 6", out)
		}
	})
	t.Run("the command line overrides them", func(t *testing.T) {
		out, _, _ := grepIn(t, dir, nil, "-s", "-c", "FOO", "words.txt")
		if out != "1\n" {
			t.Errorf("-s after the config's -i: %q, want 1", out)
		}
	})
	t.Run("--no-config ignores the file", func(t *testing.T) {
		out, _, _ := grepIn(t, dir, nil, "--no-config", "-c", "FOO", "words.txt")
		if out != "1\n" {
			t.Errorf("--no-config: %q, want 1", out)
		}
	})
}

func TestVersion(t *testing.T) {
	t.Run("grep --version", func(t *testing.T) {
		// rg 15's own answer where it is installed, else the library's:
		// either way the first line is what tools gate on.
		var out, errOut bytes.Buffer
		if code := run(context.Background(), []string{"grep", "--version"}, nil, &out, &errOut); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
		if first, _, _ := strings.Cut(out.String(), "\n"); first != "ripgrep 15.2.0" && !strings.HasPrefix(first, "ripgrep 15.2.0 (rev ") {
			t.Errorf("rgkit grep --version's first line is %q, want ripgrep 15.2.0", first)
		}
	})
	for _, args := range [][]string{{"--version"}, {"version"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := run(context.Background(), args, nil, &out, &errOut); code != 0 {
				t.Fatalf("exit %d: %s", code, errOut.String())
			}
			lines := strings.Split(out.String(), "\n")
			if len(lines) < 3 || !strings.HasPrefix(lines[0], "rgkit ") || !strings.HasPrefix(lines[1], "go") || !strings.HasPrefix(lines[2], "rg: ") {
				t.Errorf("version output %q: want rgkit's version, the Go version and the rg", out.String())
			}
		})
	}
}

// TestGrepInstalledAsRg runs rgkit under the name rg on a PATH with no
// other rg: it must answer as rg does and never execute itself again.
func TestGrepInstalledAsRg(t *testing.T) {
	bin := rgkitBin(t)
	dir := diffTree(t)
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	for _, how := range []string{"symlink", "copy"} {
		t.Run(how, func(t *testing.T) {
			binDir := t.TempDir()
			rg := filepath.Join(binDir, "rg")
			if how == "symlink" {
				err = os.Symlink(bin, rg)
			} else {
				testtool.WriteExecutable(t, rg, data)
			}
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, rg, "-n", "foo", "a.txt")
			cmd.Dir = dir
			cmd.Env = []string{"PATH=" + binDir, "HOME=" + t.TempDir()}
			out, err := cmd.Output()
			if ctx.Err() != nil {
				t.Fatal("rgkit as rg did not finish: it ran itself")
			}
			if err != nil || string(out) != "2:foo bar\r\n3:foo\n" {
				t.Fatalf("rg -n foo a.txt: %q, %v", out, err)
			}
		})
	}
}

// TestGrepClosedStdoutExitsZero is `rgkit grep … | head -1` under
// pipefail: rgkit ends quietly with exit 0 when its reader goes away, not
// by SIGPIPE (rg 15.2.0 exits 0 too in a parallel search, 1 for this one
// file: a known difference, docs/cli.md).
func TestGrepClosedStdoutExitsZero(t *testing.T) {
	bin := rgkitBin(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "big.txt"), bytes.Repeat([]byte("foo line\n"), 200000), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "grep", "--backend", "native", "foo", "big.txt")
	cmd.Dir = dir
	if errOut, code := testtool.RunUntilFirstLine(t, cmd); code != 0 || errOut != "" {
		t.Fatalf("rgkit grep with its reader gone: exit %d, stderr %q; rg exits 0", code, errOut)
	}
}

func TestGrepFormatRgkitJSONKeepsTheCompactSchema(t *testing.T) {
	dir := diffTree(t)
	out, _, code := grepIn(t, dir, nil, "--format", "rgkit-json", "-n", "foo", "a.txt")
	want := `{"type":"match","path":"a.txt","line":2,"column":1,"text":"foo bar","submatches":[{"start":0,"end":3}]}` + "\n" +
		`{"type":"match","path":"a.txt","line":3,"column":1,"text":"foo","submatches":[{"start":0,"end":3}]}` + "\n"
	if code != 0 || !strings.HasPrefix(out, want) || !strings.Contains(out, `"type":"summary","backend":"native","matches":2,"files":1`) {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
}

// TestGrepPCRE2RunsOnAnyRg: with an rg older than 15 (no passthrough) -P
// runs on the library's ripgrep engine, whose rg has PCRE2, and on the
// native engine's PCRE2 emulation; both print rg 15's bytes.
func TestGrepPCRE2RunsOnAnyRg(t *testing.T) {
	rg := testtool.Need(t, "rg")
	if out, err := exec.Command(rg, "--pcre2-version").Output(); err != nil || !strings.Contains(string(out), "PCRE2") {
		testtool.Missing(t, "rg on PATH has no PCRE2")
	}
	dir := diffTree(t)
	t.Setenv("RGKIT_RG_PATH", rg)
	t.Chdir(dir)
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"grep", "-P", "-n", "fo(?=o )", "words.txt"}, nil, &out, &errOut)
	if code != 0 || out.String() != "3:bar foo baz\n" {
		t.Errorf("-P look-ahead through rg: %q %q exit %d", out.String(), errOut.String(), code)
	}
	out.Reset()
	errOut.Reset()
	code = run(context.Background(), []string{"grep", "--backend", "native", "-P", "-n", "fo(?=o )", "words.txt"}, nil, &out, &errOut)
	if code != 0 || out.String() != "3:bar foo baz\n" {
		t.Errorf("-P look-ahead on the native engine: %q %q exit %d", out.String(), errOut.String(), code)
	}
}
