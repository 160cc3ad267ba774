//go:build !wasip1

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
)

// TestPreprocessorAsRg15: cmd/rg runs the --pre command a user names, as
// rg 15 does (it refused it before, as a program that starts none): the
// command's output is searched, --pre-glob limits it, and a command that
// cannot start or fails is reported in rg's words; the same bytes, stderr
// and exit status as rg 15.2.0.
func TestPreprocessorAsRg15(t *testing.T) {
	t.Parallel()
	rg, bin := testtool.ReferenceRg(t), buildRg(t, "")
	dir := t.TempDir()
	testtool.WriteTree(t, dir, map[string]string{
		"a.txt": "hello foo\nbar\n", "b.md": "FOO upper\n", "sub/c.txt": "no match\nfoo again\n",
		"up.sh": "#!/bin/sh\ntr a-z A-Z\n", "fail.sh": "#!/bin/sh\necho broken >&2\nexit 3\n",
	})
	for _, f := range []string{"up.sh", "fail.sh"} {
		if err := os.Chmod(filepath.Join(dir, f), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	up, fail := filepath.Join(dir, "up.sh"), filepath.Join(dir, "fail.sh")
	for _, args := range [][]string{
		{"--pre", "cat", "-n", "foo"},
		{"--pre", up, "FOO"},
		{"--pre", up, "--pre-glob", "*.md", "-c", "FOO"},
		{"--pre", up, "--pre-glob", "!*.md", "-l", "FOO"},
		{"--pre", fail, "foo", "a.txt"},
		{"--pre", filepath.Join(dir, "missing"), "foo", "a.txt"},
	} {
		args := append([]string{"--sort", "path"}, args...)
		want := runIn(t, dir, rg, args)
		got := runIn(t, dir, bin, args)
		if got != want {
			t.Errorf("rg %q:\ncmd/rg %s\nrg 15  %s", args, got, want)
		}
	}
}

// TestHostnameBinAsRg15: --hostname-bin's program gives --hyperlink-format
// its {host} (it was refused); when it cannot run, fails or prints
// nothing, the system's host name serves, as in rg 15.2.0.
func TestHostnameBinAsRg15(t *testing.T) {
	t.Parallel()
	rg, bin := testtool.ReferenceRg(t), buildRg(t, "")
	dir := t.TempDir()
	testtool.WriteTree(t, dir, map[string]string{
		"a.txt":     "hello foo\n",
		"host.sh":   "#!/bin/sh\necho '  box.example  '\n",
		"fail.sh":   "#!/bin/sh\necho other.example\nexit 3\n",
		"silent.sh": "#!/bin/sh\n",
	})
	for _, f := range []string{"host.sh", "fail.sh", "silent.sh"} {
		if err := os.Chmod(filepath.Join(dir, f), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, prog := range []string{"host.sh", "fail.sh", "silent.sh", "missing"} {
		for _, format := range []string{"default", "kitty", "file://{host}/x{path}"} {
			args := []string{"--hostname-bin", filepath.Join(dir, prog), "--hyperlink-format", format, "--color=always", "-n", "foo", "a.txt"}
			if want, got := runIn(t, dir, rg, args), runIn(t, dir, bin, args); got != want {
				t.Errorf("rg %q:\ncmd/rg %s\nrg 15  %s", args, got, want)
			}
		}
	}
}

// runIn runs bin with args in dir and renders what it printed and its exit
// status.
func runIn(t *testing.T, dir, bin string, args []string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	out, errOut, code := testtool.Run(t, cmd)
	return "stdout " + out + "\nstderr " + errOut + "\nexit " + strconv.Itoa(code)
}
