//go:build unix

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rgkit/rgkit/internal/testtool"
)

// TestSignalEndsTheSearchAsRg15: SIGTERM or SIGINT ends a running search
// at once, by the signal, as it ends rg 15.2.0 (neither catches them). The
// search reads stdin, held open, so it is running whenever the signal
// arrives.
func TestSignalEndsTheSearchAsRg15(t *testing.T) {
	t.Parallel()
	rg, bin := testtool.ReferenceRg(t), buildRg(t, "")
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		for _, b := range []struct{ name, path string }{{"rg 15.2.0", rg}, {"cmd/rg", bin}} {
			t.Run(sig.String()+"/"+b.name, func(t *testing.T) {
				t.Parallel()
				cmd := exec.Command(b.path, "foo", "-")
				in, err := cmd.StdinPipe()
				if err != nil {
					t.Fatal(err)
				}
				defer in.Close()
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				if _, err := in.Write([]byte("foo\n")); err != nil {
					t.Fatal(err)
				}
				time.Sleep(100 * time.Millisecond) // (started and reading; the bound below is what fails)
				if err := cmd.Process.Signal(sig); err != nil {
					t.Fatal(err)
				}
				st := waitBounded(t, cmd, 5*time.Second)
				if ws, ok := st.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != sig {
					t.Errorf("%s after %v: %v, want ended by the signal", b.name, sig, st)
				}
			})
		}
	}
}

// TestSignalStopsThePreprocessor: a --pre program runs in its own process
// group, where a terminal's ^C does not reach it, so SIGTERM or SIGINT to
// cmd/rg must end that program and what it started too, and cmd/rg with
// it. (Linux's parent-death signal reaches only the program itself, not
// the sleep its shell started.)
func TestSignalStopsThePreprocessor(t *testing.T) {
	t.Parallel()
	bin := buildRg(t, "")
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			pidFile := filepath.Join(dir, "pid")
			pre := filepath.Join(dir, "pre.sh")
			script := "#!/bin/sh\nsleep 60 &\necho $! > " + pidFile + ".tmp && mv " + pidFile + ".tmp " + pidFile + "\nwait\n"
			testtool.WriteTree(t, dir, map[string]string{"pre.sh": script, "a.txt": "foo\n"})
			if err := os.Chmod(pre, 0o755); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(bin, "--pre", pre, "foo", "a.txt")
			cmd.Dir = dir
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			pid := 0
			for deadline := time.Now().Add(10 * time.Second); pid == 0; {
				if b, err := os.ReadFile(pidFile); err == nil {
					pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
				} else if time.Now().After(deadline) {
					cmd.Process.Kill()
					t.Fatal("the preprocessor never started")
				} else {
					time.Sleep(10 * time.Millisecond)
				}
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			waitBounded(t, cmd, 5*time.Second)
			for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
				err := syscall.Kill(pid, 0)
				if errors.Is(err, syscall.ESRCH) {
					break
				}
				if time.Now().After(deadline) {
					syscall.Kill(pid, syscall.SIGKILL)
					t.Fatalf("the preprocessor's child (pid %d) outlived cmd/rg's %v", pid, sig)
				}
			}
		})
	}
}

// waitBounded waits for cmd, failing (and killing it) after limit: a
// liveness bound, not a measure of speed.
func waitBounded(t *testing.T, cmd *exec.Cmd, limit time.Duration) *os.ProcessState {
	t.Helper()
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
		return cmd.ProcessState
	case <-time.After(limit):
		cmd.Process.Kill()
		<-done
		t.Fatalf("still running %v after the signal", limit)
		return nil
	}
}
