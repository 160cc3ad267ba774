//go:build unix

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
)

// rawSession speaks newline-delimited JSON-RPC to `rgkit mcp` by hand, so
// the test sees every byte the server writes to stdout.
type rawSession struct {
	t      *testing.T
	in     io.WriteCloser
	out    *bufio.Reader
	script []rawEntry // the transcript
}

type rawEntry struct {
	dir  string // "->" client to server, "<-" server to client
	note string
	msg  json.RawMessage
}

func (s *rawSession) send(note string, msg map[string]any) {
	s.t.Helper()
	msg["jsonrpc"] = "2.0"
	b, err := json.Marshal(msg)
	if err != nil {
		s.t.Fatal(err)
	}
	s.script = append(s.script, rawEntry{"->", note, b})
	if _, err := s.in.Write(append(b, '\n')); err != nil {
		s.t.Fatal(err)
	}
}

// recv reads the next stdout line and checks it is a JSON-RPC 2.0 message:
// anything else on stdout (a log line, a stray print) breaks every client.
func (s *rawSession) recv(note string) map[string]any {
	s.t.Helper()
	line, err := s.out.ReadBytes('\n')
	if err != nil {
		s.t.Fatalf("reading stdout: %v (got %q)", err, line)
	}
	var m map[string]any
	if err := json.Unmarshal(line, &m); err != nil || m["jsonrpc"] != "2.0" {
		s.t.Fatalf("stdout line is not a JSON-RPC message: %q", line)
	}
	s.script = append(s.script, rawEntry{"<-", note, bytes.TrimSpace(line)})
	return m
}

// call sends a request and returns its result, checking the id matches.
func (s *rawSession) call(id int, note, method string, params map[string]any) map[string]any {
	s.t.Helper()
	s.send(note, map[string]any{"id": id, "method": method, "params": params})
	m := s.recv("")
	if m["id"] != float64(id) {
		s.t.Fatalf("response id %v; want %d: %v", m["id"], id, m)
	}
	res, _ := m["result"].(map[string]any)
	if res == nil {
		s.t.Fatalf("%s: no result: %v", method, m)
	}
	return res
}

func resultText(res map[string]any) string {
	var b strings.Builder
	content, _ := res["content"].([]any)
	for _, c := range content {
		if m, _ := c.(map[string]any); m["type"] == "text" {
			b.WriteString(m["text"].(string))
		}
	}
	return b.String()
}

// TestMCPRawSession runs one whole session by hand and checks that stdout
// carries nothing but protocol messages, with logs on stderr. With
// RGKIT_MCP_TRANSCRIPT=file it writes the session as Markdown (the
// transcript in the tools README notes comes from here).
func TestMCPRawSession(t *testing.T) {
	f := newMCPFixture(t)
	bin := rgkitBin(t)
	s, cmd, log := startRawProcess(t, bin, f.env(), "--root", f.root, "--timeout", "10m")
	init := s.initialize()
	if info, _ := init["serverInfo"].(map[string]any); info["name"] != "rgkit" {
		t.Errorf("serverInfo %v", init["serverInfo"])
	}
	list := s.call(2, "tools/list", "tools/list", map[string]any{})
	if tools, _ := list["tools"].([]any); len(tools) != 3 {
		t.Errorf("tools/list: %v", list)
	}
	steps := []struct {
		note    string
		tool    string
		args    map[string]any
		isError bool
		text    string
	}{
		{"Grep, content mode", "Grep", map[string]any{"pattern": "needle", "output_mode": "content"}, false,
			"lib/lib.go:3:func needle() {}\nmain.go:3:func main() { needle() }\n"},
		{"Glob", "Glob", map[string]any{"pattern": "**/*.go"}, false, "lib/lib.go\nmain.go\n"},
		{"Read with offset and limit", "Read", map[string]any{"file_path": "notes/a.txt", "offset": 2, "limit": 1}, false,
			"2\ttwo\n[Showing lines 2-2 of 3. Continue with offset=3.]\n"},
		{"Read outside the root: refused", "Read", map[string]any{"file_path": "../outside.txt"}, true, "outside the workspace root"},
		{"Grep with an invalid pattern", "Grep", map[string]any{"pattern": "func main("}, true, "at byte 10"},
	}
	for i, st := range steps {
		res := s.call(10+i, "tools/call: "+st.note, "tools/call", map[string]any{"name": st.tool, "arguments": st.args})
		isErr, _ := res["isError"].(bool)
		text := resultText(res)
		if isErr != st.isError || (st.isError && !strings.Contains(text, st.text)) || (!st.isError && text != st.text) {
			t.Errorf("%s: isError %v text %q", st.note, isErr, text)
		}
		if !st.isError && res["structuredContent"] == nil {
			t.Errorf("%s: no structuredContent", st.note)
		}
	}

	// A slow search, then notifications/cancelled for it.
	s.send("tools/call: a search that runs for minutes", map[string]any{"id": 20, "method": "tools/call",
		"params": map[string]any{"name": "Grep", "arguments": slowArgs()}})
	f.slowStarted(t, nil)
	noChildren(t, cmd.Process.Pid)
	s.send("cancel it", map[string]any{"method": "notifications/cancelled",
		"params": map[string]any{"requestId": 20, "reason": "the user pressed Esc"}})
	if log.waitFor("tool=Grep", "status=cancelled") == "" {
		t.Fatalf("no cancellation logged:\n%s", log)
	}
	// The next response on stdout may be the cancelled call's (the SDK
	// answers it with an error) or the ping's; either way the server
	// answers.
	s.send("ping", map[string]any{"id": 21, "method": "ping"})
	cancelledAnswered := false
	for {
		m := s.recv("")
		if m["id"] == float64(21) {
			break
		}
		if m["id"] != float64(20) || cancelledAnswered {
			t.Fatalf("unexpected message %v", m)
		}
		cancelledAnswered = true
	}

	if err := s.in.Close(); err != nil {
		t.Fatal(err)
	}
	// Nothing may follow but, when it has not come yet, the cancelled call's
	// own answer (it can be written after the ping's).
	rest, _ := io.ReadAll(s.out)
	for _, line := range bytes.Split(bytes.TrimSpace(rest), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil || m["id"] != float64(20) || cancelledAnswered {
			t.Errorf("stdout after the last response: %q", line)
			continue
		}
		cancelledAnswered = true
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("rgkit mcp exited with %v after stdin closed\n%s", err, log)
	}
	if !strings.Contains(log.String(), "rgkit mcp: serving on stdio") {
		t.Errorf("stderr lacks the startup log:\n%s", log)
	}
	if path := os.Getenv("RGKIT_MCP_TRANSCRIPT"); path != "" {
		if err := os.WriteFile(path, []byte(transcript(f.root, s.script, log.String())), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// transcript renders a session as Markdown, one JSON message per block.
func transcript(root string, script []rawEntry, stderr string) string {
	var b strings.Builder
	b.WriteString("# A real `rgkit mcp` session\n\n")
	b.WriteString("Captured by `RGKIT_MCP_TRANSCRIPT=docs/mcp-session.md go test ./cmd/rgkit -run TestMCPRawSession`:\n")
	fmt.Fprintf(&b, "`rgkit mcp --root %s --timeout 10m` as a subprocess, newline-delimited JSON-RPC on stdin/stdout.\n", root)
	b.WriteString("`->` is client to server, `<-` server to client. The SLOWSEARCH call reads 2,000 files in the server's own process (half a minute) until cancelled.\n\n")
	for _, e := range script {
		var pretty bytes.Buffer
		_ = json.Indent(&pretty, e.msg, "", "  ")
		title := e.dir
		if e.note != "" {
			title += " " + e.note
		}
		fmt.Fprintf(&b, "### %s\n\n```json\n%s\n```\n\n", title, pretty.String())
	}
	fmt.Fprintf(&b, "### stderr (the server's log)\n\n```\n%s\n```\n", stderr)
	return b.String()
}
