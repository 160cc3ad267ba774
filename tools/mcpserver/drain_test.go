package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/tools"
)

// Regression: a client that writes its requests and closes its end at once
// (a shell pipe) got only the first answers; the SDK closed the connection
// at EOF and dropped the ones in flight.
func TestServeAnswersEverythingBeforeEOF(t *testing.T) {
	ws := workspace(t, tools.Options{})
	var in strings.Builder
	in.WriteString(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"0"}}}` + "\n")
	in.WriteString(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
	in.WriteString(`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}` + "\n")
	for id := 3; id < 13; id++ {
		in.WriteString(`{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"name":"Grep","arguments":{"pattern":"needle"}}}` + "\n")
	}
	in.WriteString(`{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"Read","arguments":{"file_path":"README.md"}}}`) // no final newline
	var out syncBuffer
	if err := Serve(context.Background(), New(ws, Options{}), strings.NewReader(in.String()), &out, nil); err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	sc := bufio.NewScanner(strings.NewReader(out.String()))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m struct {
			ID int `json:"id"`
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("stdout line %q: %v", sc.Text(), err)
		}
		seen[m.ID] = true
	}
	for id := 1; id <= 13; id++ {
		if !seen[id] {
			t.Errorf("no response to request %d", id)
		}
	}
}

func TestDrainClassifiesMessages(t *testing.T) {
	cases := []struct {
		line      string
		req, resp bool
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, true, false},
		{`{"jsonrpc":"2.0","id":"a","result":{}}`, false, true},
		{`{"jsonrpc":"2.0","id":2,"error":{"code":-1,"message":"x"}}`, false, true},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, false, false},
		{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse"}}`, false, false},
		{`not json`, false, false},
	}
	for _, tc := range cases {
		if isRequest([]byte(tc.line)) != tc.req || isResponse([]byte(tc.line)) != tc.resp {
			t.Errorf("%s: request %v response %v", tc.line, isRequest([]byte(tc.line)), isResponse([]byte(tc.line)))
		}
	}
}
