package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readCLI runs `rgkit read` in-process.
func readCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), append([]string{"read"}, args...), strings.NewReader(""), &out, &errOut)
	return out.String(), errOut.String(), code
}

func TestReadCommand(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "ws")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "f.txt"), []byte("a\nb\nc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(base, "secret.txt"), []byte("s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name         string
		args         []string
		stdout, errs string
		code         int
	}{
		{"whole file", []string{"--root", root, "f.txt"}, "1\ta\n2\tb\n3\tc\n", "", 0},
		{"offset and limit, as the tool pages", []string{"--root", root, "--offset", "2", "--limit", "1", "f.txt"},
			"2\tb\n[Showing lines 2-2 of 3. Continue with offset=3.]\n", "", 0},
		{"absolute path inside the root", []string{"--root", root, filepath.Join(root, "f.txt"), "--limit", "1"},
			"1\ta\n[Showing lines 1-1 of 3. Continue with offset=2.]\n", "", 0},
		{"outside the root is refused", []string{"--root", root, "../secret.txt"}, "", "outside the workspace root", 2},
		{"missing file", []string{"--root", root, "nope.txt"}, "", `"nope.txt" does not exist`, 2},
		{"no file", []string{"--root", root}, "", "accepts 1 arg", 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := readCLI(t, tc.args...)
			if stdout != tc.stdout || code != tc.code || !strings.Contains(stderr, tc.errs) {
				t.Errorf("stdout %q stderr %q code %d; want %q, %q, %d", stdout, stderr, code, tc.stdout, tc.errs, tc.code)
			}
		})
	}
	stdout, _, code := readCLI(t, "--root", root, "--json", "--offset", "3", "f.txt")
	var r struct {
		FilePath   string `json:"file_path"`
		Content    string `json:"content"`
		StartLine  int    `json:"start_line"`
		TotalLines int    `json:"total_lines"`
	}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil || code != 0 || r.FilePath != "f.txt" || r.Content != "c" || r.StartLine != 3 || r.TotalLines != 3 {
		t.Errorf("--json: %q code %d (%v)", stdout, code, err)
	}
}
