package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// TestPassthroughBecomesRg: with rg 15 on PATH, `rgkit grep` replaces
// itself by rg (one process, the same pid), so rg gets the terminal's
// signals and its exit status reaches the shell untouched.
func TestPassthroughBecomesRg(t *testing.T) {
	t.Parallel()
	rg := rg15(t)
	bin := rgkitBin(t)
	cmd := exec.Command(bin, "grep", "needle")
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(rg)+string(os.PathListSeparator)+os.Getenv("PATH"))
	stdin, err := cmd.StdinPipe() // held open: the search waits on stdin
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	want, err := filepath.EvalSymlinks(rg)
	if err != nil {
		t.Fatal(err)
	}
	exe := "/proc/" + strconv.Itoa(cmd.Process.Pid) + "/exe"
	var got string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if got, _ = os.Readlink(exe); got == want {
			break
		}
	}
	if got != want {
		t.Fatalf("the process started as rgkit runs %q, want rg itself (%s)", got, want)
	}
	if _, err := stdin.Write([]byte("hay\nneedle\n")); err != nil {
		t.Fatal(err)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("rg exited with %v", err)
	}
}
