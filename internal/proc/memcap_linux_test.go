package proc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rgkit/rgkit/internal/testtool"
)

// Issue 11, item 1: rg's memory grew with one long line whatever rgkit's
// caps (6.4 GB for a 50 MB line), because nothing bounded the child itself.
// The children here are this test binary, re-executed as a program that
// allocates and touches memory until it is stopped (or until maxAlloc).

const (
	memChildEnv = "RGKIT_PROC_MEM_CHILD"
	memCap      = 128 << 20
	// memSlack is what the child may pass the cap by before the kill lands:
	// the growth between two samples (5 ms) and the Go runtime.
	memSlack = 64 << 20
)

// runMemChild runs the allocating child with the given mode and cap.
func runMemChild(t *testing.T, mode string, maxMemory int64, stdin io.Reader, stdout func(io.Reader) error) (Result, error) {
	t.Helper()
	if stdout == nil {
		stdout = func(r io.Reader) error { _, err := io.Copy(io.Discard, r); return err }
	}
	return Run(context.Background(), Spec{
		Path:      os.Args[0],
		Args:      []string{"-test.run=^TestMemChild$"},
		Env:       []string{memChildEnv + "=" + mode},
		MaxMemory: maxMemory,
		Stdin:     stdin,
	}, stdout)
}

func TestMemoryCap(t *testing.T) {
	t.Run("a child allocating past the cap is killed and reported as capped", func(t *testing.T) {
		t.Parallel()
		// Without a cap the child allocates 4 GiB (over a gigabyte a second).
		res, err := runMemChild(t, "grow", memCap, nil, nil)
		if !errors.Is(err, ErrMemoryCap) {
			t.Fatalf("err = %v, want ErrMemoryCap (exit %d, stderr %s)", err, res.ExitCode, res.Stderr)
		}
		if !res.MemoryCapped || !res.Killed {
			t.Errorf("MemoryCapped = %v, Killed = %v; want both", res.MemoryCapped, res.Killed)
		}
		if want := "needed more than 128 MiB of memory"; !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
		if res.PeakRSS < memCap || res.PeakRSS > memCap+memSlack {
			t.Errorf("peak resident set %d MiB, want between the cap (%d MiB) and the cap + %d MiB",
				res.PeakRSS>>20, memCap>>20, memSlack>>20)
		}
		t.Logf("peak %d MiB", res.PeakRSS>>20)
	})
	t.Run("a child staying under the cap runs to the end", func(t *testing.T) {
		t.Parallel()
		res, err := runMemChild(t, "small", memCap, nil, nil)
		if err != nil || res.ExitCode != 0 || res.MemoryCapped {
			t.Fatalf("err %v, exit %d, MemoryCapped %v; want a clean run\n%s", err, res.ExitCode, res.MemoryCapped, res.Stderr)
		}
	})
	t.Run("a crash is not reported as memory", func(t *testing.T) {
		t.Parallel()
		sh := testtool.Need(t, "sh")
		res, err := Run(context.Background(), Spec{Path: sh, Args: []string{"-c", "kill -ABRT $$"}, MaxMemory: memCap},
			func(r io.Reader) error { _, err := io.Copy(io.Discard, r); return err })
		if err != nil || res.MemoryCapped || res.ExitCode != -1 {
			t.Fatalf("err %v, exit %d, MemoryCapped %v; want a signalled exit, no error, not capped", err, res.ExitCode, res.MemoryCapped)
		}
	})
	t.Run("RLIMIT_DATA backs the cap up", func(t *testing.T) {
		t.Parallel()
		// The child prints its pid and waits for its stdin to close, so
		// its limits can be read while it runs.
		stdinR, stdinW := io.Pipe()
		var limits string
		_, err := runMemChild(t, "wait", memCap, stdinR, func(r io.Reader) error {
			defer stdinW.Close()
			line, err := bufio.NewReader(r).ReadString('\n')
			if err != nil {
				return fmt.Errorf("child said %q: %w", line, err)
			}
			b, err := os.ReadFile("/proc/" + strings.TrimSpace(line) + "/limits")
			limits = string(b)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		want := strconv.Itoa(memCap * dataLimitFactor)
		for _, l := range strings.Split(limits, "\n") {
			if strings.HasPrefix(l, "Max data size") {
				if f := strings.Fields(l); len(f) < 5 || f[3] != want || f[4] != want {
					t.Errorf("child's limit: %q, want soft and hard %s", l, want)
				}
				return
			}
		}
		t.Fatalf("no data size limit in\n%s", limits)
	})
}

// TestMemChild is the child side of TestMemoryCap.
func TestMemChild(t *testing.T) {
	mode := os.Getenv(memChildEnv)
	switch mode {
	case "":
		t.Skip("run by TestMemoryCap and TestChildPeakRSSSeesTheChildsOwnMemory")
	case "grow", "small":
		total := 4 << 30
		if mode == "small" {
			total = 16 << 20
		}
		var held [][]byte
		for n := 0; n < total; n += 1 << 20 {
			b := make([]byte, 1<<20)
			for i := 0; i < len(b); i += 4096 {
				b[i] = 1
			}
			held = append(held, b)
		}
		fmt.Println(len(held))
	case "wait":
		fmt.Println(os.Getpid())
		_, _ = io.Copy(io.Discard, os.Stdin)
	case "hold":
		// 64 MB resident for a moment (TestChildPeakRSSSeesTheChildsOwnMemory).
		b := make([]byte, 64<<20)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		time.Sleep(100 * time.Millisecond)
		fmt.Println(b[len(b)-4096])
	}
}
