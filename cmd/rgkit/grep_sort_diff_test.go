package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
)

// sortTree is a tree whose names tell rg's --sort path order (directory by
// directory, each directory's entries by name) from byte order and from a
// walk that prints a directory's files before its subdirectories: "a/..."
// before "a-b" and "a.go", "B" before "a", files between subdirectories,
// several levels, and enough files that the search's workers finish them
// out of order.
func sortTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	names := []string{"a", "a-b", "a.go", "B", "b", "z", "_"}
	var add func(rel string, depth int)
	add = func(rel string, depth int) {
		for i, n := range names {
			p := filepath.Join(rel, n)
			if depth < 3 && (i+depth)%3 == 0 {
				add(p, depth+1)
				continue
			}
			text := fmt.Sprintf("needle in %s\nhay\nneedle again\n", filepath.ToSlash(p))
			if err := os.MkdirAll(filepath.Join(dir, rel), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, p), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	add("", 0)
	return dir
}

// TestSortPathAgainstRg15: --sort path prints the files as the search
// passes them, no longer all at the end; the order, the separators between
// files and the summaries stay rg 15's, whatever the output format, the
// number of threads, or the mix of PATH arguments (each argument's files
// come after the previous argument's).
func TestSortPathAgainstRg15(t *testing.T) {
	rg := rg15(t)
	bin := rgkitBin(t)
	dir := sortTree(t)
	env := os.Environ()
	for _, args := range [][]string{
		{"needle"},
		{"-n", "--heading", "needle"},
		{"-C1", "needle"},
		{"-c", "needle"},
		{"-l", "needle"},
		{"--json", "needle"},
		{"--vimgrep", "needle"},
		{"-v", "needle"},
		{"--passthru", "needle"},
		{"-j1", "needle"},
		{"-j4", "-C1", "needle"},
		{"--stats", "needle"},
		{"needle", "b", "a.go", "a", "."},
		{"-C1", "needle", "z", "a-b"},
		{"--sortr", "path", "needle"},
		{"--sortr", "path", "-C1", "needle", "a", "z"},
	} {
		c := diffCase{args: append([]string{"--sort", "path"}, args...)}
		t.Run(c.name(), func(t *testing.T) {
			t.Parallel()
			nativeLikeRg15(t, rg, bin, dir, env, c)
		})
	}
}

// TestSeparatorsAroundBinaryFiles: a file whose only output is rg's
// "binary file matches" note gets no separator ("--" with context, a blank
// line with --heading) before it, but counts as output: the next file's
// lines get one, whether the files are held for --sort or printed as they
// are searched.
func TestSeparatorsAroundBinaryFiles(t *testing.T) {
	rg := rg15(t)
	bin := rgkitBin(t)
	dir := t.TempDir()
	for name, text := range map[string]string{
		"a.txt":     "hay\nneedle\nhay\n",
		"b.bin":     "needle\x00\nneedle\n",
		"c.txt":     "needle\nhay\n",
		"d/e.bin":   "hay\x00needle\n",
		"d/f.txt":   "hay\nhay\nneedle\n",
		"g.bin":     "\x00\nno match here\n",
		"h/i/j.txt": "needle\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := os.Environ()
	for _, args := range [][]string{
		{"--binary", "-C1", "needle"},
		{"--binary", "-A1", "-n", "needle"},
		{"--binary", "-C1", "needle", "d", "b.bin", "a.txt"},
		{"-C1", "needle", "b.bin", "c.txt", "d/e.bin"},
		{"--binary", "-C1", "--heading", "needle"},
		{"--heading", "needle", "b.bin", "c.txt", "d/e.bin", "b.bin", "c.txt"},
	} {
		for _, order := range [][]string{{"--sort", "path"}, {"-j1"}} {
			c := diffCase{args: append(order, args...)}
			t.Run(c.name(), func(t *testing.T) {
				t.Parallel()
				nativeLikeRg15(t, rg, bin, dir, env, c)
			})
		}
	}
}

// TestSortHoldsLargeOutputs: a file's output is held a chunk at a time as
// it is printed; files whose output passes what --sort holds in memory
// wait in its spill file, beside small and medium ones held in memory, and
// all come out as rg 15 prints them.
func TestSortHoldsLargeOutputs(t *testing.T) {
	rg := rg15(t)
	bin := rgkitBin(t)
	dir := t.TempDir()
	big := func(tag string, lines int) string {
		var b []byte
		for i := range lines {
			b = fmt.Appendf(b, "needle %s line %d of a file whose matches make more than a MiB\n", tag, i)
		}
		return string(b)
	}
	testtool.WriteTree(t, dir, map[string]string{
		"a.txt": "needle\n", "b.txt": big("b", 40000), "c/d.txt": big("d", 40000), "c/e.txt": "hay\nneedle\n",
		"f.txt": big("f", 40000), "g.txt": "needle g\n", "h/m.txt": big("m", 9000), "h/n.txt": big("n", 5000),
	})
	env := os.Environ()
	for _, args := range [][]string{
		{"--sort", "path", "needle"},
		{"--sortr", "path", "-n", "needle"},
		{"--sort", "path", "--json", "needle"},
	} {
		c := diffCase{args: args}
		t.Run(c.name(), func(t *testing.T) {
			t.Parallel()
			nativeLikeRg15(t, rg, bin, dir, env, c)
		})
	}
}
