package preproc

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
)

// script writes an executable shell script and returns its path.
func script(t *testing.T, body string) string {
	t.Helper()
	testtool.Need(t, "sh")
	p := filepath.Join(t.TempDir(), "pre.sh")
	testtool.WriteExecutable(t, p, []byte("#!/bin/sh\n"+body))
	return p
}

func input(t *testing.T, text string) *os.File {
	t.Helper()
	p := filepath.Join(t.TempDir(), "in.txt")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// The command gets the path as its one argument and the file as stdin;
// its stdout is what is read. Failures are worded as rg words them.
func TestStartRunsTheCommandAsRgDoes(t *testing.T) {
	t.Parallel()
	div := strings.Repeat("-", 79)
	for _, tt := range []struct {
		name, body, out, err string
	}{
		{"output", "echo \"arg=$1\"; tr a-z A-Z\n", "arg=dir/f.txt\nHELLO\n", ""},
		{"failure with stderr", "echo partial; echo \"cannot read $1\" >&2; exit 3\n", "partial\n",
			"preprocessor command failed: '\"CMD\" \"dir/f.txt\"': \n" + div + "\ncannot read dir/f.txt\n" + div},
		{"failure without stderr", "exit 1\n", "", "preprocessor command failed: '\"CMD\" \"dir/f.txt\"': <stderr is empty>"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cmd := script(t, tt.body)
			r, err := Start(context.Background(), cmd, "dir/f.txt", input(t, "hello\n"))
			if err != nil {
				t.Fatal(err)
			}
			out, err := io.ReadAll(r)
			r.Close()
			want := strings.ReplaceAll(tt.err, "CMD", cmd)
			if string(out) != tt.out || (err == nil) != (want == "") || (err != nil && err.Error() != want) {
				t.Fatalf("read %q, error %v; want %q and %q", out, err, tt.out, want)
			}
		})
	}
}

func TestStartReportsACommandThatCannotStart(t *testing.T) {
	t.Parallel()
	_, err := Start(context.Background(), "no-such-preprocessor-rgkit", "f.txt", input(t, "x\n"))
	want := `preprocessor command could not start: '"no-such-preprocessor-rgkit" "f.txt"': No such file or directory (os error 2)`
	if err == nil || err.Error() != want {
		t.Fatalf("error %v, want %q", err, want)
	}
}

// A command whose output is not read to the end (rg -l, -m) is stopped,
// and that is no failure unless it wrote to stderr, as in rg.
func TestCloseForgivesACommandStoppedEarly(t *testing.T) {
	t.Parallel()
	cmd := script(t, "yes foo\n")
	r, err := Start(context.Background(), cmd, "f.txt", input(t, ""))
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 10)
	if _, err := io.ReadFull(r, buf); err != nil {
		t.Fatal(err)
	}
	if err := r.Close(); err != nil {
		t.Fatalf("Close after an early stop: %v", err)
	}
}
