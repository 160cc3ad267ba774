package rg_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/rg"
)

// The pure-Go rg runs no program: the zero Program refuses --pre with the
// reason, before any file is read.
func TestZeroProgramRefusesPre(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("foo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut strings.Builder
	code := rg.Main(context.Background(), []string{"--pre", "cat", "foo", dir}, nil, &out, &errOut)
	want := "rg: --pre is not supported by rgkit's engines (this program runs no commands (rg.Program.Preprocess is not set; rgkit's own command line sets it)); install rg 15 (rgkit fetch) to use it\n"
	if code != 2 || out.String() != "" || errOut.String() != want {
		t.Fatalf("exit %d, stdout %q, stderr %q; want 2 and %q", code, out.String(), errOut.String(), want)
	}
}

// A Program's Preprocess is what --pre runs, once per file, given the path
// as rg names it and the file as stdin; -z needs no program at all.
func TestProgramPreprocessAndSearchZip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("foo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("zipped foo\n"))
	zw.Close()
	if err := os.WriteFile(filepath.Join(dir, "b.txt.gz"), gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var seen []string
	p := rg.Program{Preprocess: func(ctx context.Context, command, path string, stdin *os.File) (io.ReadCloser, error) {
		seen = append(seen, command+" "+path)
		data, err := io.ReadAll(stdin)
		return io.NopCloser(strings.NewReader(strings.ToUpper(string(data)))), err
	}}
	var out, errOut strings.Builder
	code := p.Main(context.Background(), []string{"-j1", "--pre", "up", "--pre-glob", "*.txt", "FOO", filepath.Join(dir, "a.txt")}, nil, &out, &errOut)
	if code != 0 || out.String() != "FOO\n" || errOut.String() != "" || len(seen) != 1 || seen[0] != "up "+filepath.Join(dir, "a.txt") {
		t.Fatalf("--pre: exit %d, stdout %q, stderr %q, ran %q", code, out.String(), errOut.String(), seen)
	}
	out.Reset()
	code = rg.Main(context.Background(), []string{"-z", "--sort", "path", "foo", dir}, nil, &out, &errOut)
	want := filepath.Join(dir, "a.txt") + ":foo\n" + filepath.Join(dir, "b.txt.gz") + ":zipped foo\n"
	if code != 0 || out.String() != want {
		t.Fatalf("-z: exit %d, stdout %q, stderr %q; want %q", code, out.String(), errOut.String(), want)
	}
}
