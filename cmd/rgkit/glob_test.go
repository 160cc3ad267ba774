package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// globCLITree is a small repository: files with increasing modification
// times in the order listed.
func globCLITree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	base := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	files := []string{".gitignore", "b.go", "src/a.go", "src/c_test.go", "README.md", "gen/x.go", ".hid/y.go", "notes.md", ".h.md"}
	content := map[string]string{".gitignore": "gen/\nnotes.md\n"}
	if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content[f]), 0o644); err != nil {
			t.Fatal(err)
		}
		mt := base.Add(time.Duration(i) * time.Minute)
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func globCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), append([]string{"glob"}, args...), strings.NewReader(""), &out, &errOut)
	return out.String(), errOut.String(), code
}

func TestGlobCommand(t *testing.T) {
	root := globCLITree(t)
	tests := []struct {
		name string
		args []string
		out  string
		code int
	}{
		{"newest first", []string{"*.go", root}, "", 0},
		{"by path, relative to the cwd", []string{"--sort", "path", "*.go"}, "b.go\nsrc/a.go\nsrc/c_test.go\n", 0},
		{"--head-limit", []string{"--head-limit", "1", "*.go"}, "src/c_test.go\n", 0},
		{"--limit is still accepted", []string{"--limit", "1", "*.go"}, "src/c_test.go\n", 0},
		{"--offset with --head-limit is the next page", []string{"--head-limit", "1", "--offset", "1", "*.go"}, "src/a.go\n", 0},
		{"--offset alone skips", []string{"--offset", "2", "*.go"}, "b.go\n", 0},
		{"negative --offset is exit 2", []string{"--offset", "-1", "*.go"}, "", 2},
		{"anchored pattern", []string{"--sort", "path", "src/*.go"}, "src/a.go\nsrc/c_test.go\n", 0},
		{"hidden and ignored on request", []string{"--sort", "path", "--hidden", "--no-ignore", "*.go"}, ".hid/y.go\nb.go\ngen/x.go\nsrc/a.go\nsrc/c_test.go\n", 0},
		{"PATH prefixes the output like rg --files PATH", []string{"--sort", "path", "*.go", "src"}, "src/a.go\nsrc/c_test.go\n", 0},
		{"native backend gives the same", []string{"--backend", "native", "--sort", "path", "*.go"}, "b.go\nsrc/a.go\nsrc/c_test.go\n", 0},
		{"a matching hidden or ignored file is listed, as rg --glob whitelists it", []string{"--sort", "path", "*.md"}, ".h.md\nREADME.md\nnotes.md\n", 0},
		{"nothing matched is exit 1", []string{"*.rs"}, "", 1},
		{"pattern above the root is exit 2", []string{"../*.go"}, "", 2},
		{"invalid glob is exit 2", []string{"a{b"}, "", 2},
		{"bad --sort is exit 2", []string{"--sort", "size", "*.go"}, "", 2},
		{"missing PATH is exit 2", []string{"*.go", "nope"}, "", 2},
	}
	t.Chdir(root)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, stderr, code := globCLI(t, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d (stderr %q)", code, tc.code, stderr)
			}
			if tc.out != "" && out != tc.out {
				t.Errorf("stdout %q, want %q", out, tc.out)
			}
			if code == 2 && stderr == "" {
				t.Errorf("exit 2 without a message")
			}
		})
	}
	// With an absolute PATH the paths come out under it, newest first.
	out, _, _ := globCLI(t, "*.go", root)
	want := strings.Join([]string{filepath.ToSlash(filepath.Join(root, "src/c_test.go")), filepath.ToSlash(filepath.Join(root, "src/a.go")), filepath.ToSlash(filepath.Join(root, "b.go"))}, "\n") + "\n"
	if out != want {
		t.Errorf("absolute PATH: %q, want %q", out, want)
	}
}

func TestGlobCommandJSON(t *testing.T) {
	root := globCLITree(t)
	out, stderr, code := globCLI(t, "--json", "--limit", "2", "*.go", root)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc globJSON
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON: %v: %s", err, out)
	}
	if doc.Root != root || doc.Total != 3 || !doc.Truncated || len(doc.Files) != 2 || doc.Backend == "" {
		t.Fatalf("doc = %+v", doc)
	}
	if f := doc.Files[0]; f.Path != filepath.ToSlash(filepath.Join(root, "src/c_test.go")) || f.Size != 0 || !f.Modified.Equal(time.Date(2024, 5, 1, 0, 3, 0, 0, time.UTC)) {
		t.Errorf("first file = %+v", f)
	}
	out, _, code = globCLI(t, "--json", "*.rs", root)
	if code != 1 || !strings.Contains(out, `"files":[]`) {
		t.Errorf("no match: exit %d, %s", code, out)
	}
}

// --json prints each path as the text output does: under PATH as given.
// Before, a PATH "src" gave "src/a.go" in the text but "a.go" in the JSON.
func TestGlobCommandJSONPathsMatchText(t *testing.T) {
	t.Chdir(globCLITree(t))
	text, _, _ := globCLI(t, "--sort", "path", "*.go", "src")
	out, stderr, code := globCLI(t, "--sort", "path", "--json", "*.go", "src")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc globJSON
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range doc.Files {
		paths = append(paths, f.Path+"\n")
	}
	if text != "src/a.go\nsrc/c_test.go\n" || strings.Join(paths, "") != text {
		t.Errorf("text %q, JSON paths %q", text, paths)
	}
}

// A wrong number of arguments gets rgkit's own usage line, not cobra's
// "accepts between 1 and 2 arg(s)".
func TestGlobCommandArgumentCount(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{nil, "rgkit glob: missing PATTERN; usage: rgkit glob PATTERN [PATH]\n"},
		{[]string{"a", "b", "c"}, "rgkit glob: 3 arguments, at most 2; usage: rgkit glob PATTERN [PATH]\n"},
	}
	for _, tc := range cases {
		out, stderr, code := globCLI(t, tc.args...)
		if code != 2 || out != "" || stderr != tc.want {
			t.Errorf("%q: exit %d stdout %q stderr %q; want 2 and %q", tc.args, code, out, stderr, tc.want)
		}
	}
}
