//go:build unix

package main

import (
	"bufio"
	"os/exec"
	"strings"
	"testing"
)

// startRawProcess starts `rgkit mcp` with args as a subprocess and returns
// a raw session on its stdin/stdout, not yet initialized, its command and
// its stderr. Stdin is closed and the process waited for when the test ends.
func startRawProcess(t *testing.T, bin string, env []string, args ...string) (*rawSession, *exec.Cmd, *lineLog) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"mcp"}, args...)...)
	cmd.Env = env
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	log := newLineLog(stderr)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = stdin.Close()
		if cmd.ProcessState == nil {
			_ = cmd.Wait()
		}
	})
	return &rawSession{t: t, in: stdin, out: bufio.NewReader(stdout)}, cmd, log
}

// initialize runs the initialize handshake and returns its result.
func (s *rawSession) initialize() map[string]any {
	s.t.Helper()
	init := s.call(1, "initialize", "initialize", map[string]any{
		"protocolVersion": "2025-06-18",
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "raw-test", "version": "0"},
	})
	s.send("initialized", map[string]any{"method": "notifications/initialized"})
	return init
}

// startRaw is startRawProcess, initialized.
func startRaw(t *testing.T, bin string, env []string, args ...string) (*rawSession, *lineLog) {
	t.Helper()
	s, _, log := startRawProcess(t, bin, env, args...)
	s.initialize()
	return s, log
}

// writeLine sends one raw line, whatever it holds.
func (s *rawSession) writeLine(line string) {
	s.t.Helper()
	if _, err := s.in.Write([]byte(line + "\n")); err != nil {
		s.t.Fatalf("the server stopped reading: %v", err)
	}
}

// A malformed line gets a JSON-RPC error and the server answers the next
// request; before, the first such line ended `rgkit mcp` (exit 2, or no
// answer at all) and the pending request was never answered.
func TestMCPMalformedLinesGetErrorsAndServerStaysUp(t *testing.T) {
	f := newMCPWorkspace(t)
	s, log := startRaw(t, rgkitBin(t), f.env(), "--root", f.root)
	deep := `{"jsonrpc":"2.0","id":8,"method":"ping","params":{"a":` + strings.Repeat("[", 10001) +
		strings.Repeat("]", 10001) + "}}"
	cases := []struct {
		name, line string
		code       float64
		id         any // the id the error is answered with
	}{
		{"not JSON", "hello world", -32700, nil},
		{"truncated JSON", `{"jsonrpc":"2.0","id":5,"method":"pi`, -32700, nil},
		{"a batch array", `[{"jsonrpc":"2.0","id":6,"method":"ping"}]`, -32600, nil},
		{"an object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, -32600, nil},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":7,"method":"ping"}`, -32600, float64(7)},
		{"a raw NUL", "\x00", -32700, nil},
		{"nesting deeper than 10,000", deep, -32700, nil},
		{"a request without method", `{"jsonrpc":"2.0","id":9}`, -32600, float64(9)},
		{"a fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, -32600, nil},
		{"params not an object", `{"jsonrpc":"2.0","id":10,"method":"tools/list","params":"x"}`, -32600, float64(10)},
		{"a line over the cap", `{"jsonrpc":"2.0","id":11,"method":"ping","params":{"x":"` +
			strings.Repeat("a", 5<<20) + `"}}`, -32600, nil},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s.t = t
			s.writeLine(tc.line)
			m := s.recv(tc.name)
			e, _ := m["error"].(map[string]any)
			if e == nil || e["code"] != tc.code || m["id"] != tc.id {
				t.Fatalf("answer %v; want error %v with id %v\nstderr:\n%s", m, tc.code, tc.id, log)
			}
			if msg, _ := e["message"].(string); msg == "" {
				t.Errorf("error without a message: %v", m)
			}
			s.call(100+i, "ping after "+tc.name, "ping", map[string]any{})
		})
	}
}
