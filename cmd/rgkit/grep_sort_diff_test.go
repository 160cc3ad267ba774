package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
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
