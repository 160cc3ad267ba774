//go:build unix

package main

import (
	"context"
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func toolText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// TestMCPGoClient drives `rgkit mcp` as a subprocess with the go-sdk client
// over stdio: initialize, tools/list, each tool, a sandbox escape, an
// invalid pattern, and a slow search cancelled by the client.
func TestMCPGoClient(t *testing.T) {
	f := newMCPFixture(t)
	bin := rgkitBin(t)
	// A long timeout: only the client's cancellation can end the slow search.
	cmd := exec.Command(bin, "mcp", "--root", f.root, "--timeout", "10m")
	cmd.Env = f.env()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	log := newLineLog(stderr)
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "rgkit-e2e-go", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("initialize: %v\nstderr:\n%s", err, log)
	}
	defer cs.Close()

	t.Run("initialize", func(t *testing.T) {
		init := cs.InitializeResult()
		if init.ServerInfo.Name != "rgkit" || init.Capabilities.Tools == nil || !strings.Contains(init.Instructions, f.root) {
			t.Errorf("initialize result %+v", init)
		}
	})

	t.Run("tools/list", func(t *testing.T) {
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range res.Tools {
			names = append(names, tool.Name)
			in, _ := tool.InputSchema.(map[string]any)
			out, _ := tool.OutputSchema.(map[string]any)
			if in["properties"] == nil || out["properties"] == nil {
				t.Errorf("%s: input schema %v, output schema %v", tool.Name, in, out)
			}
		}
		slices.Sort(names)
		if strings.Join(names, ",") != "Glob,Grep,Read" {
			t.Errorf("tools %v", names)
		}
	})

	calls := []struct {
		name    string
		tool    string
		args    map[string]any
		isError bool
		text    string // exact text, or for errors a substring
		field   string // a structuredContent field that must be set
	}{
		{"Grep content", "Grep", map[string]any{"pattern": "needle", "output_mode": "content"}, false,
			"lib/lib.go:3:func needle() {}\nmain.go:3:func main() { needle() }\n", "backend"},
		{"Grep files", "Grep", map[string]any{"pattern": "needle"}, false, "lib/lib.go\nmain.go\n", "files"},
		{"Glob", "Glob", map[string]any{"pattern": "**/*.txt"}, false, "notes/a.txt\n", "search_root"},
		{"Read", "Read", map[string]any{"file_path": "notes/a.txt", "offset": 2, "limit": 1}, false,
			"2\ttwo\n[Showing lines 2-2 of 3. Continue with offset=3.]\n", "content"},
		{"Read escaping the root", "Read", map[string]any{"file_path": "../outside.txt"}, true, "outside the workspace root", ""},
		{"Read an absolute path outside", "Read", map[string]any{"file_path": f.outside}, true, "outside the workspace root", ""},
		{"Grep a path outside", "Grep", map[string]any{"pattern": "OUTSIDE", "path": ".."}, true, "outside the workspace root", ""},
		{"Glob climbing out", "Glob", map[string]any{"pattern": "../*.txt"}, true, "climbs above", ""},
		{"invalid pattern", "Grep", map[string]any{"pattern": "needle(", "output_mode": "content"}, true, "at byte 7", ""},
		{"unknown parameter", "Grep", map[string]any{"pattern": "x", "include": "*.go"}, true, `"include" is not a parameter`, ""},
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
			if err != nil {
				t.Fatal(err)
			}
			text := toolText(res)
			if res.IsError != c.isError || (c.isError && !strings.Contains(text, c.text)) || (!c.isError && text != c.text) {
				t.Fatalf("isError %v, text %q; want isError %v and %q", res.IsError, text, c.isError, c.text)
			}
			if c.field != "" {
				sc, _ := res.StructuredContent.(map[string]any)
				if sc[c.field] == nil {
					t.Errorf("structuredContent lacks %q: %v", c.field, res.StructuredContent)
				}
			}
		})
	}

	t.Run("cancelled slow search", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		var callErr error
		go func() {
			defer close(done)
			_, callErr = cs.CallTool(cctx, &mcp.CallToolParams{Name: "Grep", Arguments: slowArgs()})
		}()
		if !f.slowStarted(t, done) {
			cancel()
			t.Fatalf("the slow search finished before it could be cancelled (err %v)\nstderr:\n%s", callErr, log)
		}
		noChildren(t, cmd.Process.Pid)
		cancel()
		<-done
		if !errors.Is(callErr, context.Canceled) {
			t.Errorf("cancelled call returned %v", callErr)
		}
		if line := log.waitFor("tool=Grep", "status=cancelled", "SLOWSEARCH"); line == "" {
			t.Fatalf("server never logged the cancellation:\n%s", log)
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "Read", Arguments: map[string]any{"file_path": "main.go", "limit": 1}})
		if err != nil || res.IsError || !strings.HasPrefix(toolText(res), "1\tpackage main\n") {
			t.Fatalf("after cancellation: %v %q", err, toolText(res))
		}
	})

	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if strings.Contains(log.String(), "level=ERROR") {
		t.Errorf("server logged errors:\n%s", log)
	}
}
