package rg

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
)

// writeCounter records each Write it is given.
type writeCounter struct {
	writes []string
}

func (w *writeCounter) Write(p []byte) (int, error) {
	w.writes = append(w.writes, string(p))
	return len(p), nil
}

// TestLineBufferedWritesWhereRgDoes: --line-buffered writes each line as
// it is printed where rg finds lines as it goes (stdin, a file named on
// the command line, -j1), and a walked file's lines in one write when the
// file is done, as rg's parallel search writes each file's buffer: a
// write per line there was a system call per line for nothing, since the
// file's lines are all found before the first is printed.
func TestLineBufferedWritesWhereRgDoes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	testtool.WriteTree(t, dir, map[string]string{
		"a.txt": "foo 1\nbar\nfoo 2\nfoo 3\n",
		"b.txt": "foo 4\nfoo 5\n",
	})
	three := "foo 1\nfoo 2\nfoo 3\n"
	for _, c := range []struct {
		name          string
		args          []string
		stdin         string
		lines, writes int
	}{
		{"a walk: a write per file", []string{"--line-buffered", "--no-heading", "foo", dir}, "", 5, 2},
		{"a walk at -j1: a write per line", []string{"-j1", "--line-buffered", "--no-heading", "foo", dir}, "", 5, 5},
		{"a named file: a write per line", []string{"--line-buffered", "foo", filepath.Join(dir, "a.txt")}, "", 3, 3},
		{"stdin: a write per line", []string{"--line-buffered", "foo"}, three, 3, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var out writeCounter
			var in io.Reader
			if c.stdin != "" {
				in = strings.NewReader(c.stdin)
			}
			p := Program{Getenv: func(string) string { return "" }}
			var errOut bytes.Buffer
			if code := p.Main(context.Background(), c.args, in, &out, &errOut); code != 0 {
				t.Fatalf("exit %d: %s", code, errOut.String())
			}
			if got := strings.Count(strings.Join(out.writes, ""), "\n"); got != c.lines {
				t.Fatalf("printed %d lines %q, want %d", got, out.writes, c.lines)
			}
			if len(out.writes) != c.writes {
				t.Errorf("%d writes %q, want %d", len(out.writes), out.writes, c.writes)
			}
		})
	}
}
