package main

import (
	"bufio"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/rgkit/rgkit/internal/testtool"
)

// TestVersionFirstLineIsRg15s: tools that gate on rg's version read the
// first line of `rg --version` (and all of `rg -V`).
func TestVersionFirstLineIsRg15s(t *testing.T) {
	t.Parallel()
	bin := buildRg(t, "")
	for _, flag := range []string{"--version", "-V"} {
		out, errOut, code := testtool.Run(t, exec.Command(bin, flag))
		if first, _, _ := strings.Cut(out, "\n"); first != "ripgrep 15.2.0" || errOut != "" || code != 0 {
			t.Errorf("rg %s: first line %q, stderr %q, exit %d; want ripgrep 15.2.0", flag, first, errOut, code)
		}
	}
}

// TestClosedStdoutEndsAsRg15 is `rg … | head -1` under pipefail: the
// reader goes away after one line, and cmd/rg ends quietly rather than by
// SIGPIPE. A search of a directory (rg's parallel path) ends as rg 15.2.0's
// does: exit 0. One known difference, the library's: when rg searches a
// single file (its single-threaded path, also taken with --sort or -j1),
// the file whose output broke does not count as a match, so rg 15.2.0
// exits 1; package rg exits 0.
func TestClosedStdoutEndsAsRg15(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	lines := strings.Repeat("foo line\n", 200000)
	testtool.WriteTree(t, dir, map[string]string{"big.txt": lines, "tree/a.txt": lines, "tree/b.txt": lines})
	end := func(bin string, args ...string) (string, int) {
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		return testtool.RunUntilFirstLine(t, cmd)
	}
	rg, bin := testtool.ReferenceRg(t), buildRg(t, "")
	for _, tt := range []struct {
		args      []string
		knownDiff bool // rg exits 1, cmd/rg 0
	}{
		{[]string{"foo", "tree"}, false},
		{[]string{"foo", "big.txt", "tree"}, false},
		{[]string{"foo", "big.txt"}, true},
		{[]string{"--json", "foo", "big.txt"}, true},
	} {
		wantErr, wantCode := end(rg, tt.args...)
		gotErr, gotCode := end(bin, tt.args...)
		if tt.knownDiff {
			if wantCode != 1 || gotCode != 0 || gotErr != "" || wantErr != "" {
				t.Errorf("rg %s with its reader gone: cmd/rg stderr %q exit %d, rg 15.2.0 stderr %q exit %d; the known difference is 0 against 1", strings.Join(tt.args, " "), gotErr, gotCode, wantErr, wantCode)
			}
			continue
		}
		if gotErr != wantErr || gotCode != wantCode {
			t.Errorf("rg %s with its reader gone: stderr %q, exit %d; rg 15.2.0: stderr %q, exit %d", strings.Join(tt.args, " "), gotErr, gotCode, wantErr, wantCode)
		}
	}
}

// TestFileLinesGoOutWhenTheFileIsDone: through a pipe, a file's lines go
// out when the file is done, as rg writes them, not once 64 KiB have
// gathered, so `rg … | head -1` or an editor listing results gets the first
// file's lines at once. The second target is stdin, held open until the
// first line has arrived: a binary that held its output back would print
// nothing until stdin closed, and the test fails at its deadline instead
// of hanging.
func TestFileLinesGoOutWhenTheFileIsDone(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	testtool.WriteTree(t, dir, map[string]string{"a.go": "func a\n"})
	for _, bin := range []struct{ name, path string }{{"rg 15.2.0", testtool.ReferenceRg(t)}, {"cmd/rg", buildRg(t, "")}} {
		cmd := exec.Command(bin.path, "func", "a.go", "-")
		cmd.Dir = dir
		stdin, stdout := testtool.StartPiped(t, cmd)
		first := make(chan string, 1)
		go func() {
			l, _ := bufio.NewReader(stdout).ReadString('\n')
			first <- l
		}()
		select {
		case l := <-first:
			if l != "a.go:func a\n" {
				t.Errorf("%s: first line %q, want %q", bin.name, l, "a.go:func a\n")
			}
		case <-time.After(30 * time.Second):
			t.Errorf("%s: no line within 30 s while stdin stayed open: a.go's lines were held back", bin.name)
		}
		stdin.Close()
		if err := cmd.Wait(); err != nil {
			t.Errorf("%s: %v", bin.name, err)
		}
	}
}
