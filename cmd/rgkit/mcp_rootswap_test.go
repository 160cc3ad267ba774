//go:build unix

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A server started on W keeps serving W's directory only: when W is
// replaced by a symlink to an outside directory after the start, no tool
// shows a byte or a name from there. Before, Grep returned the outside
// files' contents (Glob and Read refused).
func TestMCPRootReplacedBySymlinkShowsNothingOutside(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "W")
	outside := filepath.Join(base, "outside")
	for name, content := range map[string]string{
		"W/main.go":           "package main // needle inside\n",
		"W/sub/x.go":          "package sub // needle inside\n",
		"outside/main.go":     "package main // needle SECRET\n",
		"outside/secret.txt":  "needle SECRET\n",
		"outside/sub/leak.go": "needle SECRET\n",
	} {
		p := filepath.Join(base, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, log := startRaw(t, rgkitBin(t), os.Environ(), "--root", root)
	id := 10
	callTool := func(name string, args map[string]any) (string, bool) {
		id++
		res := s.call(id, name, "tools/call", map[string]any{"name": name, "arguments": args})
		b, _ := json.Marshal(res)
		isErr, _ := res["isError"].(bool)
		return string(b), isErr
	}
	if got, isErr := callTool("Grep", map[string]any{"pattern": "needle", "output_mode": "content"}); isErr || !strings.Contains(got, "needle inside") {
		t.Fatalf("before the swap Grep gives %s\n%s", got, log)
	}

	if err := os.Rename(root, root+".orig"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, root); err != nil {
		t.Fatal(err)
	}
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"Grep", map[string]any{"pattern": "needle", "output_mode": "content"}},
		{"Grep", map[string]any{"pattern": "SECRET"}},
		{"Grep", map[string]any{"pattern": "needle", "path": "sub", "output_mode": "count"}},
		{"Grep", map[string]any{"pattern": "needle", "path": root}},
		{"Glob", map[string]any{"pattern": "**/*"}},
		{"Glob", map[string]any{"pattern": "*.txt"}},
		{"Glob", map[string]any{"pattern": "*", "path": "sub"}},
		{"Read", map[string]any{"file_path": "secret.txt"}},
		{"Read", map[string]any{"file_path": "main.go"}},
		{"Read", map[string]any{"file_path": filepath.Join(root, "secret.txt")}},
	}
	for _, c := range calls {
		got, _ := callTool(c.tool, c.args)
		// secret.txt may be echoed where the call itself names it.
		for _, leak := range []string{"SECRET", "leak.go", outside} {
			if strings.Contains(got, leak) {
				t.Errorf("%s %v shows %q from outside the root: %s", c.tool, c.args, leak, got)
			}
		}
	}
	// Each tool says why it refuses.
	for _, c := range calls {
		if got, isErr := callTool(c.tool, c.args); !isErr || !strings.Contains(got, "workspace root was replaced") {
			t.Errorf("%s %v after the swap: %s", c.tool, c.args, got)
		}
	}
}
