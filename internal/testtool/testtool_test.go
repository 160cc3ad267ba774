package testtool

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
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

// TestReferenceRgPath: the reference rg is $RGKIT_REFERENCE_RG when set
// (exactly the wanted release), else the rg on PATH when it is the wanted
// MAJOR.MINOR; any other rg is no reference, and the reason names it.
func TestReferenceRgPath(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	fake := func(v string) string {
		dir := t.TempDir()
		p := dir + "/rg"
		WriteExecutable(t, p, []byte("#!/bin/sh\necho 'ripgrep "+v+" (rev 1)'\n"))
		return p
	}
	r15, r151, r14 := fake("15.2.0"), fake("15.2.1"), fake("14.1.1")
	dirOf := func(p string) string { return strings.TrimSuffix(p, "/rg") }
	for _, tt := range []struct {
		name, env, path, want, errHas string
	}{
		{"env exact", r15, dirOf(r14), r15, ""},
		{"env other release", r151, dirOf(r15), "", "not the reference 15.2.0"},
		{"path same minor", "", dirOf(r151), r151, ""},
		{"path older", "", dirOf(r14), "", "ripgrep 14.1.1, not the reference"},
		{"none", "", t.TempDir(), "", "not on PATH"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(ReferenceRgEnv, tt.env)
			t.Setenv("PATH", tt.path)
			got, err := ReferenceRgPath("15.2.0")
			if got != tt.want || (tt.errHas == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.errHas)) {
				t.Errorf("ReferenceRgPath = %q, %v; want %q and an error holding %q", got, err, tt.want, tt.errHas)
			}
		})
	}
}

func TestWriteTreeAndRun(t *testing.T) {
	dir := t.TempDir()
	WriteTree(t, dir, map[string]string{"a/b/c.txt": "hello\n", "d.txt": ""})
	sh := Need(t, "sh")
	out, errOut, code := Run(t, exec.Command(sh, "-c", "cat "+filepath.Join(dir, "a", "b", "c.txt")+"; echo oops >&2; test -f "+filepath.Join(dir, "d.txt")+" && exit 3"))
	if out != "hello\n" || errOut != "oops\n" || code != 3 {
		t.Errorf("stdout %q, stderr %q, exit %d; want the file, oops and 3", out, errOut, code)
	}
}

// An executable written while other goroutines fork and exec runs at once:
// no "text file busy", however the forks fall.
func TestWriteExecutableRunsWhileOthersFork(t *testing.T) {
	Need(t, "sh")
	stop := make(chan struct{})
	var forks sync.WaitGroup
	for range 4 {
		forks.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
					exec.Command("true").Run()
				}
			}
		})
	}
	defer func() { close(stop); forks.Wait() }()
	dir := t.TempDir()
	for i := range 100 {
		p := filepath.Join(dir, fmt.Sprintf("s%d.sh", i))
		WriteExecutable(t, p, []byte(fmt.Sprintf("#!/bin/sh\necho %d\n", i)))
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o755 {
			t.Fatalf("%s: %v, mode %v; want 0755", p, err, fi.Mode())
		}
		out, err := exec.Command(p).Output()
		if err != nil || string(out) != fmt.Sprintf("%d\n", i) {
			t.Fatalf("running %s: %q, %v", p, out, err)
		}
	}
}
