package proc

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

const deathChildEnv = "RGKIT_PROC_DEATH_CHILD"

// TestChildDiesWithRgkit: issue 11, item 10. SIGKILL of rgkit (no chance
// to cancel anything) left rg running in its own process group. A child of
// this test binary starts a long "search" through Run and prints its pid;
// the test SIGKILLs that child and waits for the search to be gone.
func TestChildDiesWithRgkit(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(os.Args[0], "-test.run=^TestDeathChild$")
	cmd.Env = append(os.Environ(), deathChildEnv+"=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("child: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "PID ")))
	if err != nil {
		t.Fatalf("child said %q", line)
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) }) // whatever happens, leave nothing behind
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	for range 100 { // the kernel delivers the signal at once; allow a loaded machine 10 s
		if !alive(pid) {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Errorf("the search (pid %d) outlived the SIGKILLed process that started it", pid)
}

// alive reports whether pid exists and is not a zombie.
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(rest, "Z")
}

// TestDeathChild is the child side of TestChildDiesWithRgkit.
func TestDeathChild(t *testing.T) {
	if os.Getenv(deathChildEnv) == "" {
		t.Skip("run by TestChildDiesWithRgkit")
	}
	_, _ = Run(context.Background(), Spec{Path: "/bin/sh", Args: []string{"-c", "echo PID $$; exec sleep 60"}, Env: fakeEnv},
		func(r io.Reader) error {
			line, _ := bufio.NewReader(r).ReadString('\n')
			fmt.Print(line)
			select {} // the parent kills this process
		})
}
