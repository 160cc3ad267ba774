//go:build unix

package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// --structured=false leaves out structuredContent and, as the protocol
// requires when results are text only, every outputSchema; the text is the
// same. Before, the flag did not exist (cobra refused it).
func TestMCPStructuredFalseSendsTextOnly(t *testing.T) {
	f := newMCPWorkspace(t)
	bin := rgkitBin(t)
	args := map[string]any{"name": "Read", "arguments": map[string]any{"file_path": "notes/a.txt"}}
	texts := map[bool]string{}
	for _, structured := range []bool{true, false} {
		flag := "--structured=false"
		if structured {
			flag = "--structured=true"
		}
		t.Run(flag, func(t *testing.T) {
			s, log := startRaw(t, bin, f.env(), "--root", f.root, flag)
			list := s.call(2, "tools/list", "tools/list", map[string]any{})
			tools, _ := list["tools"].([]any)
			if len(tools) != 3 {
				t.Fatalf("tools/list: %v\n%s", list, log)
			}
			for _, tool := range tools {
				m := tool.(map[string]any)
				if _, has := m["outputSchema"]; has != structured {
					t.Errorf("%v: outputSchema present %v; want %v", m["name"], has, structured)
				}
			}
			res := s.call(3, "tools/call", "tools/call", args)
			if _, has := res["structuredContent"]; has != structured {
				t.Errorf("structuredContent present %v; want %v: %v", has, structured, res)
			}
			texts[structured] = resultText(res)
		})
	}
	if texts[true] == "" || texts[true] != texts[false] {
		t.Errorf("the text differs: %q vs %q", texts[true], texts[false])
	}
}

// serverInfo.version is rgkit's own version from the binary's build
// information, as `go version -m` shows it: the module version, or "devel"
// with the commit when the build recorded one; before, it was a fixed "dev".
func TestMCPServerInfoVersionIsTheBuildVersion(t *testing.T) {
	f := newMCPWorkspace(t)
	bin := rgkitBin(t)
	out, err := exec.Command("go", "version", "-m", bin).CombinedOutput()
	if err != nil {
		t.Fatalf("go version -m: %v\n%s", err, out)
	}
	modVersion, revision := "", ""
	for _, line := range strings.Split(string(out), "\n") {
		fields := strings.Fields(line)
		switch {
		case len(fields) >= 3 && fields[0] == "mod":
			modVersion = fields[2]
		case len(fields) >= 2 && fields[0] == "build" && strings.HasPrefix(fields[1], "vcs.revision="):
			revision = strings.TrimPrefix(fields[1], "vcs.revision=")
		}
	}
	s, _, _ := startRawProcess(t, bin, f.env(), "--root", f.root)
	info, _ := s.initialize()["serverInfo"].(map[string]any)
	v, _ := info["version"].(string)
	switch {
	case modVersion != "" && modVersion != "(devel)":
		if v != modVersion {
			t.Errorf("serverInfo.version %q; want the module version %q", v, modVersion)
		}
	case revision != "":
		if !strings.HasPrefix(v, "devel+"+revision[:12]) {
			t.Errorf("serverInfo.version %q; want devel+%s", v, revision[:12])
		}
	case v != "devel":
		t.Errorf("serverInfo.version %q; want devel (the build recorded no version)\n%s", v, out)
	}
}

// Started in / or in the home directory without --root, the server refuses
// (exit 2, how to pass --root on stderr, nothing on stdout); naming the
// directory with --root serves it. Before, `cd / && rgkit mcp` served the
// whole file system.
func TestMCPRefusesBroadRootUnlessNamed(t *testing.T) {
	home := t.TempDir()
	project := filepath.Join(home, "project")
	if err := os.Mkdir(project, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	cases := []struct {
		name string
		cwd  string
		args []string
		code int
	}{
		{"cwd / without --root", "/", nil, 2},
		{"cwd home without --root", home, nil, 2},
		{"cwd home, --root .", home, []string{"--root", "."}, 0},
		{"cwd /, --root /", "/", []string{"--root", "/"}, 0},
		{"cwd home, --root naming it", "/", []string{"--root", home}, 0},
		{"a project under home", project, nil, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Chdir(tc.cwd)
			var out, errOut bytes.Buffer
			code := run(context.Background(), append([]string{"mcp"}, tc.args...), strings.NewReader(""), &out, &errOut)
			if code != tc.code || out.Len() != 0 {
				t.Fatalf("code %d stdout %q stderr %q; want %d", code, out.String(), errOut.String(), tc.code)
			}
			if code == 2 && !strings.Contains(errOut.String(), "rgkit mcp --root ") {
				t.Errorf("stderr does not say how to pass --root: %s", errOut.String())
			}
		})
	}
}
