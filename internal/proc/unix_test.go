//go:build unix

package proc

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rgkit/rgkit/internal/proc/proctest"
)

var fakeEnv = []string{"PATH=/usr/bin:/bin"}

// collectLines is a stdout callback that records every line it reads.
func collectLines(dst *[]string) func(io.Reader) error {
	return func(r io.Reader) error {
		br := bufio.NewReader(r)
		for {
			s, err := br.ReadString('\n')
			if s != "" {
				*dst = append(*dst, strings.TrimSuffix(s, "\n"))
			}
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
		}
	}
}

// pidFrom finds the "pid=N" line a stand-in prints first.
func pidFrom(t *testing.T, lines []string) int {
	t.Helper()
	for _, l := range lines {
		if v, ok := strings.CutPrefix(l, "pid="); ok {
			n, err := strconv.Atoi(v)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatalf("no pid line in %q", lines)
	return 0
}

func TestRunProcTimeoutDeliversPartialOutputAndKillsGroup(t *testing.T) {
	for _, script := range []string{"print-then-hang", "print-then-hang-ignore-term"} {
		t.Run(script, func(t *testing.T) {
			// The deadline "expires" once the stand-in has printed, whatever
			// the machine's load: cancelled with DeadlineExceeded as cause.
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			var lines []string
			collect := collectLines(&lines)
			res, err := Run(ctx, Spec{
				Path: proctest.FakeEngine(t, script), Env: fakeEnv, Grace: 200 * time.Millisecond,
			}, func(r io.Reader) error {
				return collect(&cancelAfter{r: r, want: "line one\n", cancel: func() { cancel(context.DeadlineExceeded) }})
			})
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("err = %v, want one wrapping context.DeadlineExceeded", err)
			}
			if !res.Killed {
				t.Error("Killed = false, want true")
			}
			if len(lines) < 2 || lines[1] != "line one" {
				t.Errorf("partial stdout = %q, want the lines printed before the hang", lines)
			}
			proctest.AssertGroupGone(t, pidFrom(t, lines))
		})
	}
}

// cancelAfter calls cancel once the text read so far contains want.
type cancelAfter struct {
	r      io.Reader
	seen   []byte
	want   string
	cancel func()
	done   bool
}

func (c *cancelAfter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if !c.done {
		c.seen = append(c.seen, p[:n]...)
		if bytes.Contains(c.seen, []byte(c.want)) {
			c.done = true
			c.cancel()
		}
	}
	return n, err
}

func TestRunProcGrandchildHoldingStdoutDoesNotBlock(t *testing.T) {
	var lines []string
	res, err := Run(context.Background(), Spec{
		Path: proctest.FakeEngine(t, "grandchild-holds-stdout"), Env: fakeEnv, Grace: 200 * time.Millisecond,
	}, collectLines(&lines))
	if err != nil {
		t.Fatalf("err = %v", err)
	}
	if res.ExitCode != 0 {
		t.Errorf("ExitCode = %d, want 0", res.ExitCode)
	}
	if len(lines) != 2 || lines[1] != "parent done" {
		t.Errorf("stdout = %q", lines)
	}
	proctest.AssertGroupGone(t, pidFrom(t, lines))
}

func TestRunProcStdoutFloodIsCapped(t *testing.T) {
	const max = 1 << 20
	var n int64
	var first string
	res, err := Run(context.Background(), Spec{
		Path: proctest.FakeEngine(t, "flood-stdout"), Env: fakeEnv, MaxStdout: max, Grace: 200 * time.Millisecond,
	}, func(r io.Reader) error {
		br := bufio.NewReader(r)
		first, _ = br.ReadString('\n')
		m, err := io.Copy(io.Discard, br)
		n = m + int64(len(first))
		return err
	})
	if err != nil {
		t.Fatalf("err = %v", err)
	}
	if !res.StdoutCapped || !res.Killed {
		t.Errorf("StdoutCapped = %v, Killed = %v, want both true", res.StdoutCapped, res.Killed)
	}
	if n != max {
		t.Errorf("callback read %d bytes, want exactly the cap %d", n, max)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(first, "pid=")))
	proctest.AssertGroupGone(t, pid)
}

func TestRunProcStderrIsCappedAndExitCodeKept(t *testing.T) {
	var lines []string
	res, err := Run(context.Background(), Spec{
		Path: proctest.FakeEngine(t, "flood-stderr"), Env: fakeEnv, MaxStderr: 1000,
	}, collectLines(&lines))
	if err != nil {
		t.Fatalf("err = %v", err)
	}
	if len(res.Stderr) != 1000+len(cutMark) || !strings.Contains(string(res.Stderr), cutMark) {
		t.Errorf("len(Stderr) = %d, want 1000 and the cut mark", len(res.Stderr))
	}
	if res.ExitCode != 3 || res.Killed {
		t.Errorf("ExitCode = %d, Killed = %v; want 3, false", res.ExitCode, res.Killed)
	}
	if len(lines) != 1 || lines[0] != "ok" {
		t.Errorf("stdout = %q, want [ok]", lines)
	}
}

func TestRunProcEnvironmentIsExactlyTheSpec(t *testing.T) {
	t.Setenv("RIPGREP_CONFIG_PATH", "/tmp/evil")
	var lines []string
	_, err := Run(context.Background(), Spec{
		Path: proctest.FakeEngine(t, "print-env-args"), Env: []string{"PATH=/usr/bin:/bin", "ONLY=this"},
		Args: []string{"-e", "--pre=x", "a b"},
	}, collectLines(&lines))
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(lines, "\n")
	if strings.Contains(got, "RIPGREP_CONFIG_PATH") {
		t.Errorf("the parent's environment leaked into the child:\n%s", got)
	}
	if !strings.Contains(got, "ONLY=this") {
		t.Errorf("spec environment missing:\n%s", got)
	}
	if !strings.HasSuffix(got, "--args--\n-e\n--pre=x\na b") {
		t.Errorf("arguments not passed verbatim (no shell):\n%s", got)
	}
}

func TestRunProcReaderReturningEarlyStopsTheProcess(t *testing.T) {
	errEnough := errors.New("enough")
	var first string
	res, err := Run(context.Background(), Spec{
		Path: proctest.FakeEngine(t, "flood-stdout"), Env: fakeEnv, Grace: 200 * time.Millisecond,
	}, func(r io.Reader) error {
		first, _ = bufio.NewReader(r).ReadString('\n')
		return errEnough
	})
	if !errors.Is(err, errEnough) {
		t.Fatalf("err = %v, want the callback's error", err)
	}
	if !res.Killed {
		t.Error("Killed = false")
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(first, "pid=")))
	proctest.AssertGroupGone(t, pid)
}

// TestRunProcReaderStoppingAfterTheExitIsNoFailure: a reader that stops
// early after the child has exited (rg reading a --pre command's output
// stops at a NUL) cancels a process that is gone; that is no failure. It
// was reported as "exec: canceling Cmd: no such process" (the group kill
// found nothing), and rg --pre printed a failed preprocessor.
func TestRunProcReaderStoppingAfterTheExitIsNoFailure(t *testing.T) {
	t.Parallel()
	spec := Spec{Path: "/bin/sh", Args: []string{"-c", "printf 'a\\000b'"}}
	// Which comes first, the exit or the stop, is the scheduler's choice:
	// enough runs see both.
	for i := range 200 {
		_, err := Run(context.Background(), spec, func(r io.Reader) error {
			if _, err := r.Read(make([]byte, 1)); err != nil {
				return err
			}
			if i%2 == 0 {
				time.Sleep(time.Millisecond) // the child may have exited by now
			}
			return nil // stop early: the rest is unread
		})
		if err != nil {
			t.Fatalf("run %d, a reader stopping early: %v", i, err)
		}
	}
}

func TestRunProcRefusesRelativeAndMissingBinaries(t *testing.T) {
	cases := map[string]string{
		"relative": "rg",
		"dot":      "./rg",
		"missing":  filepath.Join(t.TempDir(), "no-such-rg"),
	}
	for name, path := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Run(context.Background(), Spec{Path: path}, func(r io.Reader) error {
				_, err := io.Copy(io.Discard, r)
				return err
			})
			if !errors.Is(err, ErrUnavailable) {
				t.Errorf("err = %v, want ErrUnavailable", err)
			}
		})
	}
}

// TestStderrKeepsTheReasonAfterALongEcho: issue 11, item 10. git echoes
// the whole pattern before saying what is wrong with it; a stderr cap that
// kept only the first bytes cut the reason off. The cap now keeps the start
// and the end.
func TestStderrKeepsTheReasonAfterALongEcho(t *testing.T) {
	t.Parallel()
	sh := "/bin/sh"
	script := `printf 'fatal: command line, %s' "$(head -c 200000 /dev/zero | tr '\0' a)" >&2; echo ": Invalid regular expression" >&2`
	res, err := Run(context.Background(), Spec{Path: sh, Args: []string{"-c", script}, Env: fakeEnv, MaxStderr: 4 << 10},
		func(r io.Reader) error { _, err := io.Copy(io.Discard, r); return err })
	if err != nil {
		t.Fatal(err)
	}
	got := string(res.Stderr)
	if !strings.HasPrefix(got, "fatal: command line, aaa") || !strings.HasSuffix(got, "aaa: Invalid regular expression\n") || !strings.Contains(got, cutMark) {
		t.Errorf("stderr %d bytes: starts %q, ends %q; want the start, a cut mark and the reason", len(got), got[:min(40, len(got))], got[max(0, len(got)-60):])
	}
	if len(got) > 4<<10+len(cutMark) {
		t.Errorf("stderr kept %d bytes, cap 4 KiB", len(got))
	}
	if b := Brief(res.Stderr); !strings.HasSuffix(b, "Invalid regular expression") || len(b) > 2100 {
		t.Errorf("Brief: %d bytes ending %q", len(b), b[max(0, len(b)-40):])
	}
}

func TestCappedBufferKeepsHeadAndTail(t *testing.T) {
	t.Parallel()
	for _, chunk := range []int{1, 3, 7, 100} {
		c := &cappedBuffer{max: 10}
		var all []byte
		for i := range 50 {
			b := bytes.Repeat([]byte{byte('a' + i%26)}, chunk)
			all = append(all, b...)
			c.Write(b)
		}
		want := string(all[:5]) + cutMark + string(all[len(all)-5:])
		if got := string(c.bytes()); got != want {
			t.Errorf("chunks of %d: %q, want %q", chunk, got, want)
		}
	}
	c := &cappedBuffer{max: 10}
	c.Write([]byte("short"))
	if got := string(c.bytes()); got != "short" {
		t.Errorf("under the cap: %q", got)
	}
}

// TestRunProcCallbackReadsThePipe: the callback reads the child's pipe
// itself (os/exec hands it over through ReadFrom), not a copy of it.
func TestRunProcCallbackReadsThePipe(t *testing.T) {
	var direct bool
	var lines []string
	collect := collectLines(&lines)
	_, err := Run(context.Background(), Spec{Path: proctest.FakeEngine(t, "print-env-args"), Env: fakeEnv}, func(r io.Reader) error {
		if src, ok := r.(*stdoutReader); ok {
			_, viaPipe := src.r.(*io.PipeReader)
			direct = !viaPipe
		}
		return collect(r)
	})
	if err != nil {
		t.Fatal(err)
	}
	if !direct {
		t.Error("the callback reads a copy of the output, not the pipe")
	}
	if len(lines) == 0 {
		t.Error("no output")
	}
}
