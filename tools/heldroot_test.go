//go:build unix

package tools

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Once the root's path names another directory (here a symlink to an
// outside one), every tool refuses with ErrRootReplaced and nothing from
// outside is shown; put back, the tools work again.
func TestToolsRefuseAReplacedRoot(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "W")
	outside := filepath.Join(base, "outside")
	writeFile(t, filepath.Join(root, "a.txt"), "needle inside\n")
	writeFile(t, filepath.Join(outside, "a.txt"), "needle SECRET\n")
	w := newTestWorkspace(t, root, Options{Searcher: testChain()})
	if err := w.Sandbox().Intact(); err != nil {
		t.Fatalf("fresh workspace: %v", err)
	}
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"Grep", map[string]any{"pattern": "needle", "output_mode": "content"}},
		{"Glob", map[string]any{"pattern": "*.txt"}},
		{"Read", map[string]any{"file_path": "a.txt"}},
	}
	if err := os.Rename(root, root+".orig"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, root); err != nil {
		t.Fatal(err)
	}
	if err := w.Sandbox().Intact(); !errors.Is(err, ErrRootReplaced) {
		t.Fatalf("Intact after the swap: %v", err)
	}
	for _, c := range calls {
		out, err := callTool(t, w, c.tool, c.args)
		if !errors.Is(err, ErrRootReplaced) || strings.Contains(out.Text, "SECRET") {
			t.Errorf("%s after the swap: text %q, error %v", c.tool, out.Text, err)
		}
	}
	// Put back: the same directory, so the tools serve it again.
	if err := os.Remove(root); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(root+".orig", root); err != nil {
		t.Fatal(err)
	}
	for _, c := range calls {
		out, err := callTool(t, w, c.tool, c.args)
		if err != nil || strings.Contains(out.Text, "SECRET") {
			t.Errorf("%s after putting it back: text %q, error %v", c.tool, out.Text, err)
		}
	}
}
