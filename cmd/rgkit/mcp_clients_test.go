//go:build unix

package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// clientSnippet is one MCP client configuration from the docs.
type clientSnippet struct {
	doc, client string
	json        string
}

var snippetRE = regexp.MustCompile("(?s)<!-- mcp-client: ([a-z-]+) -->\\s*```json\\n(.*?)\\n```")

// docSnippets extracts every snippet marked `<!-- mcp-client: NAME -->`.
func docSnippets(t *testing.T, docs ...string) []clientSnippet {
	t.Helper()
	var out []clientSnippet
	for _, doc := range docs {
		b, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(doc)))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range snippetRE.FindAllStringSubmatch(string(b), -1) {
			out = append(out, clientSnippet{doc: doc, client: m[1], json: m[2]})
		}
	}
	return out
}

// serverEntry is what every client's file says about one stdio server.
type serverEntry struct {
	Type    string            `json:"type"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
}

// entry finds the rgkit server in a client's configuration, under the key
// that client reads.
func (c clientSnippet) entry(t *testing.T) serverEntry {
	t.Helper()
	key := map[string]string{
		"claude-code": "mcpServers", "claude-desktop": "mcpServers", "cursor": "mcpServers",
		"vscode": "servers", "zed": "context_servers",
	}[c.client]
	if key == "" {
		t.Fatalf("%s: unknown client %q", c.doc, c.client)
	}
	var doc map[string]map[string]serverEntry
	dec := json.NewDecoder(strings.NewReader(c.json))
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("%s %s: not JSON: %v\n%s", c.doc, c.client, err, c.json)
	}
	if len(doc) != 1 || doc[key] == nil {
		t.Fatalf("%s %s: want one top-level key %q: %s", c.doc, c.client, key, c.json)
	}
	e, ok := doc[key]["rgkit"]
	if !ok {
		t.Fatalf("%s %s: no rgkit server under %q", c.doc, c.client, key)
	}
	if c.client == "vscode" && e.Type != "stdio" {
		t.Errorf("%s vscode: type %q; VS Code needs \"stdio\"", c.doc, e.Type)
	}
	return e
}

// Every client snippet in the docs parses as its client reads it, and the
// server starts with exactly its arguments (with the client's variables
// substituted) and answers initialize and tools/list.
func TestMCPClientSnippets(t *testing.T) {
	snippets := docSnippets(t, "README.md", "docs/agent-tools.md")
	var clients []string
	for _, s := range snippets {
		clients = append(clients, s.client)
	}
	for _, want := range []string{"claude-code", "claude-desktop", "vscode", "cursor", "zed"} {
		if !slices.Contains(clients, want) {
			t.Errorf("no snippet for %s in the docs", want)
		}
	}
	f := newMCPWorkspace(t)
	bin := rgkitBin(t)
	for _, s := range snippets {
		t.Run(s.doc+"/"+s.client, func(t *testing.T) {
			e := s.entry(t)
			if filepath.Base(e.Command) != "rgkit" {
				t.Fatalf("command %q is not rgkit", e.Command)
			}
			// What the client substitutes: its workspace folder, and the
			// reader's own project path for the placeholder.
			repl := strings.NewReplacer("${workspaceFolder}", f.root, "/path/to/your/project", f.root)
			args := make([]string, len(e.Args))
			for i, a := range e.Args {
				args[i] = repl.Replace(a)
			}
			if len(args) == 0 || args[0] != "mcp" || !slices.Contains(args, "--root") {
				t.Fatalf("args %q: want mcp with --root", e.Args)
			}
			cmd := exec.Command(bin, args...)
			cmd.Dir = f.root // clients that start in the project (Claude Code) make "." the project
			cmd.Env = f.env()
			for k, v := range e.Env {
				cmd.Env = append(cmd.Env, k+"="+v)
			}
			ctx := context.Background()
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "snippet-" + s.client, Version: "v0"}, nil).
				Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
			if err != nil {
				t.Fatalf("initialize with %q: %v", args, err)
			}
			defer cs.Close()
			if !strings.Contains(cs.InitializeResult().Instructions, f.root) {
				t.Errorf("the server's root is not the project: %s", cs.InitializeResult().Instructions)
			}
			res, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := []string{"Glob", "Grep", "Read"}
			if slices.Contains(args, "snake") {
				want = []string{"glob_search", "grep_search", "read_file"}
			}
			var got []string
			for _, tool := range res.Tools {
				got = append(got, tool.Name)
			}
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("tools %v; want %v", got, want)
			}
		})
	}
}
