//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// tsReport is what testdata/tsclient/client.mjs prints.
type tsReport struct {
	ServerInfo struct {
		Name string `json:"name"`
	} `json:"serverInfo"`
	Capabilities map[string]any `json:"capabilities"`
	Instructions string         `json:"instructions"`
	Tools        []struct {
		Name             string   `json:"name"`
		InputProperties  []string `json:"inputProperties"`
		OutputProperties []string `json:"outputProperties"`
		ReadOnly         bool     `json:"readOnly"`
	} `json:"tools"`
	Calls map[string]struct {
		IsError    bool           `json:"isError"`
		Text       string         `json:"text"`
		Structured map[string]any `json:"structured"`
		Exception  string         `json:"exception"`
	} `json:"calls"`
	Cancel struct {
		Started   bool   `json:"started"`
		Outcome   string `json:"outcome"`
		Logged    bool   `json:"logged"`
		AfterText string `json:"afterText"`
	} `json:"cancel"`
	Stderr string `json:"stderr"`
}

// TestMCPTypeScriptClient runs the same session as TestMCPGoClient with
// the official TypeScript SDK (@modelcontextprotocol/sdk from npm), whose
// callTool also validates structured content against the output schemas.
// It needs node and `npm ci` in testdata/tsclient.
func TestMCPTypeScriptClient(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed; the TypeScript MCP client test needs node 18+")
	}
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "tsclient"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		t.Skipf("the TypeScript MCP SDK is not installed; run `cd testdata/tsclient && npm ci` (%v)", err)
	}
	f := newMCPFixture(t)
	bin := rgkitBin(t)
	cmd := exec.Command(node, "client.mjs")
	cmd.Dir = dir
	cmd.Env = append(f.env(), "RGKIT_BIN="+bin, "RGKIT_ROOT="+f.root, "RGKIT_SLOW_PROBE="+f.slowProbe, "RGKIT_SLOW_PATTERN="+slowPattern)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node client.mjs: %v\nstderr:\n%s\nstdout:\n%s", err, stderr.String(), stdout.String())
	}
	var r tsReport
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		t.Fatalf("report: %v\n%s", err, stdout.String())
	}

	if r.ServerInfo.Name != "rgkit" || r.Capabilities["tools"] == nil || !strings.Contains(r.Instructions, f.root) {
		t.Errorf("initialize: server %+v capabilities %v", r.ServerInfo, r.Capabilities)
	}
	var names []string
	for _, tool := range r.Tools {
		names = append(names, tool.Name)
		if len(tool.InputProperties) == 0 || len(tool.OutputProperties) == 0 || !tool.ReadOnly {
			t.Errorf("tools/list %s: %+v", tool.Name, tool)
		}
		if tool.Name == "Grep" && !slices.Contains(tool.InputProperties, "output_mode") {
			t.Errorf("Grep input properties %v", tool.InputProperties)
		}
	}
	slices.Sort(names)
	if strings.Join(names, ",") != "Glob,Grep,Read" {
		t.Errorf("tools %v", names)
	}

	want := map[string]struct {
		isError bool
		text    string // exact, or a substring for errors
	}{
		"grepContent":    {false, "lib/lib.go:3:func needle() {}\nmain.go:3:func main() { needle() }\n"},
		"grepCount":      {false, "lib/lib.go:1\nmain.go:1\n[2 matching lines in 2 files]\n"},
		"glob":           {false, "lib/lib.go\nmain.go\n"},
		"read":           {false, "1\tone\n2\ttwo\n3\tthree\n"},
		"readOutside":    {true, "outside the workspace root"},
		"grepOutside":    {true, "outside the workspace root"},
		"invalidPattern": {true, "at byte 7"},
	}
	for key, w := range want {
		got, ok := r.Calls[key]
		switch {
		case !ok || got.Exception != "":
			t.Errorf("%s: %+v", key, got)
		case got.IsError != w.isError, w.isError && !strings.Contains(got.Text, w.text), !w.isError && got.Text != w.text:
			t.Errorf("%s: isError %v text %q; want isError %v and %q", key, got.IsError, got.Text, w.isError, w.text)
		case !w.isError && got.Structured == nil:
			t.Errorf("%s: no structured content", key)
		}
	}
	if key := "glob"; r.Calls[key].Structured["search_root"] != f.root {
		t.Errorf("glob search_root %v", r.Calls[key].Structured["search_root"])
	}

	c := r.Cancel
	if !c.Started {
		t.Fatalf("the slow search finished before it could be cancelled (%s)\n%s", c.Outcome, r.Stderr)
	}
	if !strings.HasPrefix(c.Outcome, "rejected:") || !c.Logged || !strings.HasPrefix(c.AfterText, "1\tpackage main\n") {
		t.Errorf("cancellation: %+v", c)
	}
}
