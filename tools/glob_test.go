package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// globTree writes files with distinct modification times: later in the
// list is newer.
func globTree(t *testing.T, names ...string) string {
	t.Helper()
	root := t.TempDir()
	base := time.Now().Add(-time.Hour)
	for i, name := range names {
		p := filepath.Join(root, filepath.FromSlash(name))
		writeFile(t, p, "x\n")
		mt := base.Add(time.Duration(i) * time.Minute)
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestGlobListsNewestFirst(t *testing.T) {
	root := globTree(t, "a.go", "cmd/main.go", "cmd/tool/x.go", "README.md", "web/app.ts", "web/app.tsx", "ignored/i.go", ".hidden/h.go", ".ignore")
	writeFile(t, filepath.Join(root, ".ignore"), "ignored/\n")
	w := newTestWorkspace(t, root, Options{})
	globTool, _ := w.Tool("Glob")
	cases := []struct {
		name    string
		args    map[string]any
		text    string
		summary string
	}{
		{"a name pattern matches at any depth, newest first", map[string]any{"pattern": "*.go"},
			"cmd/tool/x.go\ncmd/main.go\na.go\n", "Glob *.go (3 files)"},
		{"doublestar", map[string]any{"pattern": "**/*.go"},
			"cmd/tool/x.go\ncmd/main.go\na.go\n", "Glob **/*.go (3 files)"},
		{"braces", map[string]any{"pattern": "web/*.{ts,tsx}"},
			"web/app.tsx\nweb/app.ts\n", "Glob web/*.{ts,tsx} (2 files)"},
		{"path narrows the search; results stay relative to the root", map[string]any{"pattern": "*.go", "path": "cmd"},
			"cmd/tool/x.go\ncmd/main.go\n", "Glob *.go (2 files)"},
		{"an anchored pattern is relative to path", map[string]any{"pattern": "tool/*.go", "path": "cmd"},
			"cmd/tool/x.go\n", "Glob tool/*.go (1 file)"},
		{"absolute pattern inside the root", map[string]any{"pattern": filepath.ToSlash(root) + "/cmd/**/*.go"},
			"cmd/tool/x.go\ncmd/main.go\n", "Glob " + filepath.ToSlash(root) + "/cmd/**/*.go (2 files)"},
		{"head_limit", map[string]any{"pattern": "**/*.{go,md,ts,tsx}", "head_limit": 2},
			"web/app.tsx\nweb/app.ts\n[Showing files 1-2 of 6, newest first (head_limit). Use offset=2 for the next page, or a more specific pattern.]\n",
			"Glob **/*.{go,md,ts,tsx} (2 of 6 files)"},
		{"offset pages on", map[string]any{"pattern": "**/*.{go,md,ts,tsx}", "head_limit": 2, "offset": 4},
			"cmd/main.go\na.go\n", "Glob **/*.{go,md,ts,tsx} (2 of 6 files)"},
		// rg --glob semantics, pinned: a pattern that matches a directory
		// and the files in it overrides the ignore and hidden rules, so
		// "**/*" lists hidden and ignored files too.
		{"a pattern matching a directory and its files overrides ignore rules, as in rg", map[string]any{"pattern": "**/*", "head_limit": 3},
			".ignore\n.hidden/h.go\nignored/i.go\n[Showing files 1-3 of 9, newest first (head_limit). Use offset=3 for the next page, or a more specific pattern.]\n",
			"Glob **/* (3 of 9 files)"},
		{"no files", map[string]any{"pattern": "*.rs"},
			"No files match pattern \"*.rs\" under " + root + " (files ignored by .gitignore/.ignore and hidden files were not listed).\n",
			"Glob *.rs (no files)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := callTool(t, w, "Glob", tc.args)
			if err != nil {
				t.Fatal(err)
			}
			checkOutput(t, globTool, out, tc.text, tc.summary)
		})
	}
}

func TestGlobStructured(t *testing.T) {
	root := globTree(t, "a.go", "b.go", "c.go")
	w := newTestWorkspace(t, root, Options{})
	one := 1
	out, err := w.Glob(t.Context(), GlobInput{Pattern: "*.go", HeadLimit: &one})
	if err != nil {
		t.Fatal(err)
	}
	r := out.Structured.(*GlobResult)
	if strings.Join(r.Files, ",") != "c.go" || r.TotalMatched != 3 || !r.Truncated || r.TruncatedBy != CapHeadLimit ||
		r.NextOffset != 1 || r.SearchRoot != w.Root() || r.Backend == "" {
		t.Errorf("result = %+v", r)
	}
}

func TestGlobOutputCap(t *testing.T) {
	root := t.TempDir()
	long := strings.Repeat("d", 150)
	for i := range 400 {
		writeFile(t, filepath.Join(root, long, fmt.Sprintf("file%03d.txt", i)), "")
	}
	w := newTestWorkspace(t, root, Options{})
	out, err := callTool(t, w, "Glob", map[string]any{"pattern": "**/*.txt", "head_limit": 0})
	if err != nil {
		t.Fatal(err)
	}
	r := out.Structured.(*GlobResult)
	if len(out.Text) > DefaultMaxOutputChars || r.TruncatedBy != CapOutput || r.NextOffset != len(r.Files) ||
		!strings.Contains(out.Text, fmt.Sprintf("of 400, newest first. Use offset=%d", len(r.Files))) {
		t.Fatalf("len %d, %+v\n%s", len(out.Text), r.Page, out.Text[len(out.Text)-200:])
	}
}

func TestGlobRefusals(t *testing.T) {
	f := newSandboxFixture(t)
	w := newTestWorkspace(t, f.root, Options{})
	cases := []struct {
		name string
		args map[string]any
		want string
	}{
		{"pattern climbing out", map[string]any{"pattern": "../outside/*.txt"}, "climbs above"},
		{"pattern climbing out after a directory", map[string]any{"pattern": "sub/../../*"}, "climbs above"},
		{"absolute pattern outside", map[string]any{"pattern": f.outside + "/*.txt"}, "outside the workspace root"},
		{"absolute pattern through a symlink outside", map[string]any{"pattern": f.root + "/to_outside/*.txt"}, "outside the workspace root"},
		{"path outside", map[string]any{"pattern": "*", "path": ".."}, "outside the workspace root"},
		{"path through a symlink outside", map[string]any{"pattern": "*", "path": "to_outside"}, "outside the workspace root"},
		{"path is a file", map[string]any{"pattern": "*", "path": "a.txt"}, "give the directory"},
		{"missing path", map[string]any{"pattern": "*", "path": "nope"}, `"nope" does not exist`},
		{"invalid glob", map[string]any{"pattern": "src/[a-"}, "glob"},
		{"no pattern", map[string]any{}, `"pattern" is required`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := callTool(t, w, "Glob", tc.args)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v (text %q); want one containing %q", err, out.Text, tc.want)
			}
		})
	}
	// Case 38: a recursive listing does not follow the symlinks out.
	out, err := callTool(t, w, "Glob", map[string]any{"pattern": "**/secret.txt"})
	if err != nil || len(out.Structured.(*GlobResult).Files) != 0 {
		t.Fatalf("listing reached outside: %q, %v", out.Text, err)
	}
}

// A listing cut by the timeout is an error that says so, never a short
// list passed off as complete (backends.Glob has no partial result).
func TestGlobTimeoutIsAnError(t *testing.T) {
	root := globTree(t, "a.go", "b.go")
	w := newTestWorkspace(t, root, Options{Limits: Limits{Timeout: time.Nanosecond}})
	out, err := callTool(t, w, "Glob", map[string]any{"pattern": "*.go"})
	if err == nil || !strings.Contains(err.Error(), "timed out after 1ns") {
		t.Fatalf("err = %v, text %q", err, out.Text)
	}
}
