package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/rgkit/rgkit/tools"
)

const (
	initLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"fuzz","version":"0"}}}`
	initDone = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	pingLine = `{"jsonrpc":"2.0","id":"final-ping","method":"ping"}`
)

// FuzzMCPInputLoop drives Serve's input loop with arbitrary lines between a
// valid initialize and a ping: whatever the lines hold, every line the
// server writes is a JSON-RPC 2.0 message and the ping is answered.
func FuzzMCPInputLoop(f *testing.F) {
	for _, seed := range []string{
		"hello world",
		`{"jsonrpc":"2.0","id":5,"method":"pi`,
		`[{"jsonrpc":"2.0","id":6,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`,
		`{"jsonrpc":"1.0","id":7,"method":"ping"}`,
		"\x00",
		`{"jsonrpc":"2.0","id":9}`,
		`{"jsonrpc":"2.0","id":9,"result":{}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":[]}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"Read","arguments":{"file_path":"README.md"}}}`,
		`{"JSONRPC":"2.0","ID":4,"METHOD":"ping"}`,
		`{"jsonrpc":"2.0","id":1e3,"method":"ping"}`,
		"{\"jsonrpc\":\"2.0\",\"id\":\"\xff\",\"method\":\"ping\"}",
		strings.Repeat("[", 200) + strings.Repeat("]", 200),
		"",
		"\n\n",
	} {
		f.Add(seed)
	}
	ws := workspace(f, tools.Options{Limits: tools.Limits{Timeout: 2 * time.Second}})
	srv := New(ws, Options{})
	f.Fuzz(func(t *testing.T, line string) {
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		served := make(chan error, 1)
		go func() {
			served <- Serve(context.Background(), srv, inR, outW, nil)
			outW.Close()
		}()
		go func() {
			for _, l := range []string{initLine, initDone, line, pingLine} {
				if _, err := io.WriteString(inW, l+"\n"); err != nil {
					return
				}
			}
		}()
		out := bufio.NewReader(outR)
		for {
			l, err := out.ReadBytes('\n')
			if err != nil {
				t.Fatalf("the server ended before answering the ping: %v (input %q)", err, line)
			}
			var m struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
			}
			if err := json.Unmarshal(l, &m); err != nil || m.JSONRPC != "2.0" {
				t.Fatalf("output line %q is not a JSON-RPC message (input %q)", l, line)
			}
			if string(m.ID) == `"final-ping"` {
				break
			}
		}
		inW.Close()
		go io.Copy(io.Discard, outR) // answers still in flight
		if err := <-served; err != nil {
			t.Fatalf("Serve: %v (input %q)", err, line)
		}
	})
}

// checkLine's verdict on one line: what reaches the SDK is canonical, what
// does not is answered with the code and id a client can match.
func TestCheckLine(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, line string
		pass       string // the canonical line passed on; "" when refused or skipped
		code       int
		id         string
	}{
		{"a request", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, `{"id":1,"jsonrpc":"2.0","method":"ping"}`, 0, ""},
		{"a notification", `{"method":"notifications/initialized","jsonrpc":"2.0","params":null}`,
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`, 0, ""},
		{"a response", `{"jsonrpc":"2.0","id":"a","result":{}}`, `{"id":"a","jsonrpc":"2.0","result":{}}`, 0, ""},
		{"unknown members are dropped", `{"jsonrpc":"2.0","id":2,"method":"ping","x":[1]}`, `{"id":2,"jsonrpc":"2.0","method":"ping"}`, 0, ""},
		{"a blank line is skipped", "  \t", "", 0, ""},
		{"keys are case-sensitive", `{"JSONRPC":"2.0","id":4,"method":"ping"}`, "", -32600, "4"},
		{"an exponent id", `{"jsonrpc":"2.0","id":1e3,"method":"ping"}`, "", -32600, "null"},
		{"a null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, "", -32600, "null"},
		{"an empty method", `{"jsonrpc":"2.0","id":3,"method":""}`, "", -32600, "3"},
		{"a result and an error", `{"jsonrpc":"2.0","id":3,"result":{},"error":{}}`, "", -32600, "3"},
		{"a scalar", `42`, "", -32600, "null"},
		{"deep but valid", strings.Repeat("[", MaxNesting+1) + strings.Repeat("]", MaxNesting+1), "", -32700, "null"},
		{"brackets inside strings do not nest", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"s":"` + strings.Repeat("[", 100) + `\"["}}`,
			`{"id":1,"jsonrpc":"2.0","method":"ping","params":{"s":"` + strings.Repeat("[", 100) + `\"["}}`, 0, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			msg, bad := checkLine([]byte(tc.line))
			switch {
			case tc.code != 0:
				if bad == nil || bad.code != tc.code || string(bad.response()) == "" {
					t.Fatalf("got %v, %+v; want error %d", msg, bad, tc.code)
				}
				var resp struct {
					ID json.RawMessage `json:"id"`
				}
				if err := json.Unmarshal(bad.response(), &resp); err != nil || string(resp.ID) != tc.id {
					t.Errorf("response %s; want id %s", bad.response(), tc.id)
				}
			case tc.pass == "":
				if msg != nil || bad != nil {
					t.Errorf("got %v, %+v; want the line skipped", msg, bad)
				}
			default:
				if bad != nil || msg == nil || string(msg.line) != tc.pass {
					t.Errorf("got %v, %+v; want %s passed", msg, bad, tc.pass)
				}
			}
		})
	}
}
