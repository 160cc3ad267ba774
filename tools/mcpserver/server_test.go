package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rgkit/rgkit/search"
	"github.com/rgkit/rgkit/tools"
)

// syncBuffer is a log sink the server goroutines and the test share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// connect serves ws in-process and returns a connected go-sdk client.
func connect(t *testing.T, ws *tools.Workspace, log *syncBuffer) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	st, ct := mcp.NewInMemoryTransports()
	srv := New(ws, Options{Logger: slog.New(slog.NewTextHandler(log, nil))})
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func workspace(t testing.TB, opts tools.Options) *tools.Workspace {
	t.Helper()
	root := t.TempDir()
	for name, content := range map[string]string{
		"main.go":     "package main\n\nfunc main() { needle() }\n",
		"lib/lib.go":  "package lib\n\nfunc needle() {}\n",
		"README.md":   "# demo\n",
		"../outside":  "OUTSIDE\n",
		"notes/a.txt": "one\ntwo\nthree\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := tools.NewWorkspace(root, opts)
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("CallTool(%s): %v", name, err)
	}
	return res
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func TestListToolsHasSchemas(t *testing.T) {
	for _, preset := range []string{"default", "snake"} {
		t.Run(preset, func(t *testing.T) {
			names, _ := tools.NamesPreset(preset)
			ws := workspace(t, tools.Options{Names: names})
			cs := connect(t, ws, &syncBuffer{})
			res, err := cs.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, tool := range res.Tools {
				got = append(got, tool.Name)
				in, _ := tool.InputSchema.(map[string]any)
				out, _ := tool.OutputSchema.(map[string]any)
				if in["type"] != "object" || in["properties"] == nil || out["properties"] == nil {
					t.Errorf("%s: schemas missing: in %v out %v", tool.Name, in, out)
				}
				if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint || tool.Description == "" {
					t.Errorf("%s: annotations %+v", tool.Name, tool.Annotations)
				}
			}
			want := []string{names.Grep, names.Glob, names.Read}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("tools %v; want %v", got, want)
			}
		})
	}
}

func TestCallReturnsTextAndStructuredContent(t *testing.T) {
	ws := workspace(t, tools.Options{})
	cs := connect(t, ws, &syncBuffer{})
	res := call(t, cs, "Read", map[string]any{"file_path": "notes/a.txt", "offset": 2})
	if res.IsError || text(res) != "2\ttwo\n3\tthree\n" {
		t.Fatalf("Read: isError %v text %q", res.IsError, text(res))
	}
	var sc struct {
		FilePath  string `json:"file_path"`
		StartLine int    `json:"start_line"`
		NumLines  int    `json:"num_lines"`
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &sc); err != nil || sc.FilePath != "notes/a.txt" || sc.StartLine != 2 || sc.NumLines != 2 {
		t.Fatalf("structured %s (%v)", raw, err)
	}
}

func TestToolErrorsAreIsError(t *testing.T) {
	ws := workspace(t, tools.Options{})
	cs := connect(t, ws, &syncBuffer{})
	cases := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"Read", map[string]any{"file_path": "../outside"}, "outside the workspace root"},
		{"Read", map[string]any{"file_path": "/etc/passwd"}, "outside the workspace root"},
		{"Grep", map[string]any{"pattern": "x", "path": "../"}, "outside the workspace root"},
		{"Grep", map[string]any{"pattern": "foo(bar"}, "at byte 4"},
		{"Read", map[string]any{"file_path": 7}, `"file_path" must be a string`},
	}
	for _, tc := range cases {
		res := call(t, cs, tc.tool, tc.args)
		if !res.IsError || !strings.Contains(text(res), tc.want) {
			t.Errorf("%s %v: isError %v text %q; want an error with %q", tc.tool, tc.args, res.IsError, text(res), tc.want)
		}
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "Bash", Arguments: map[string]any{}}); err == nil {
		t.Error("calling an unknown tool succeeded")
	}
}

// blockEngine reports when its search context ends: the proof that a
// client's cancellation reached the search.
type blockEngine struct {
	started, cancelled chan struct{}
}

func (blockEngine) Name() string { return "block" }
func (blockEngine) Available(context.Context) (search.Info, error) {
	return search.Info{Name: "block"}, nil
}
func (e blockEngine) Search(ctx context.Context, q search.Query, sink search.Sink) (search.Stats, error) {
	close(e.started)
	<-ctx.Done()
	close(e.cancelled)
	return search.Stats{}, ctx.Err()
}

// A client cancelling a call (notifications/cancelled) cancels the search
// context on the server, and the server goes on answering.
func TestCancellationReachesTheSearch(t *testing.T) {
	eng := blockEngine{started: make(chan struct{}), cancelled: make(chan struct{})}
	ws := workspace(t, tools.Options{
		Searcher: &search.Chain{Engines: []search.Engine{eng}},
		Limits:   tools.Limits{Timeout: time.Hour}, // only cancellation can end it
	})
	log := &syncBuffer{}
	cs := connect(t, ws, log)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "Grep", Arguments: map[string]any{"pattern": "needle"}})
		done <- err
	}()
	<-eng.started
	cancel()
	if err := <-done; err == nil {
		t.Fatal("cancelled call returned no error")
	}
	<-eng.cancelled // hangs (and the test times out) if the cancellation never arrives
	res := call(t, cs, "Read", map[string]any{"file_path": "README.md"})
	if res.IsError || text(res) != "1\t# demo\n" {
		t.Fatalf("after cancellation: %q", text(res))
	}
	for !strings.Contains(log.String(), "status=cancelled") {
		time.Sleep(time.Millisecond) // the handler logs after the engine returns
	}
}
