package sysgrep

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/search"
)

// A grep planted in the tree being searched (found through PATH, say
// node_modules/.bin) answers --version like GNU grep, but is never used to
// search: running it there would run the repository's code.
func TestSystemGrepRefusesAGrepInsideTheSearchRoot(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("shell script stand-in")
	}
	root := t.TempDir()
	bin := filepath.Join(root, "bin")
	marker := filepath.Join(t.TempDir(), "searched-with-planted-grep")
	script := "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'grep (GNU grep) 3.8'; exit 0; fi\ntouch " + marker + "\n"
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	testtool.WriteExecutable(t, filepath.Join(bin, "grep"), []byte(script))
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("needle\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g := New()
	g.LookPath = func(string) (string, error) { return filepath.Join(bin, "grep"), nil }
	q, err := search.Normalize(search.Query{Pattern: "needle", Root: root})
	if err != nil {
		t.Fatal(err)
	}
	_, err = g.Search(context.Background(), q, search.Discard)
	if !errors.Is(err, search.ErrUnavailable) {
		t.Errorf("Search with a grep inside the root: %v, want ErrUnavailable", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the planted grep was run to search")
	}

	// Control: the same script outside the root is used (and runs).
	outside := t.TempDir()
	testtool.WriteExecutable(t, filepath.Join(outside, "grep"), []byte(script))
	g = New()
	g.LookPath = func(string) (string, error) { return filepath.Join(outside, "grep"), nil }
	_, _ = g.Search(context.Background(), q, search.Discard)
	if _, err := os.Stat(marker); err != nil {
		t.Error("control: the stand-in grep outside the root was not run, so the test proves nothing")
	}
}
