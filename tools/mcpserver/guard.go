package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// The SDK's stdio transport ends the whole connection when one inbound line
// fails to decode (not JSON, a batch, an id of the wrong type, a wrong
// version tag): one bad line from a buggy client would kill the server and
// every request in flight. So each line is checked here first, and only a
// well-formed single message, re-encoded in a canonical form, reaches the
// SDK; anything else is answered with a JSON-RPC error and the server reads
// on.

// Limits of one inbound line.
const (
	// MaxLineBytes caps one message. Tool arguments are short (a pattern, a
	// path); a longer line is refused and skipped up to its newline.
	MaxLineBytes = 4 << 20
	// MaxNesting caps the depth of arrays and objects in one message; the
	// protocol needs a handful of levels.
	MaxNesting = 64
)

// JSON-RPC error codes.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// rpcError is the reason a line was refused, and the id to answer with
// ("null" when the line's id is unknown or unusable).
type rpcError struct {
	id   json.RawMessage
	code int
	msg  string
}

func (e *rpcError) response() []byte {
	id := e.id
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{e.code, e.msg}})
	return append(b, '\n')
}

func parseErr(format string, a ...any) *rpcError {
	return &rpcError{code: codeParseError, msg: "parse error: " + fmt.Sprintf(format, a...)}
}

func invalid(id json.RawMessage, format string, a ...any) *rpcError {
	return &rpcError{id: id, code: codeInvalidRequest, msg: "invalid request: " + fmt.Sprintf(format, a...)}
}

// message is one checked inbound message.
type message struct {
	line    []byte // canonical encoding, no newline
	request bool   // a call that awaits a response (an id and a method)
}

// checkLine validates one line (without its newline) as a single JSON-RPC
// 2.0 message. An empty or blank line yields (nil, nil): it is skipped.
func checkLine(line []byte) (*message, *rpcError) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return nil, nil
	}
	if d := depth(line); d > MaxNesting {
		return nil, parseErr("the message nests arrays or objects deeper than %d levels", MaxNesting)
	}
	if !json.Valid(line) {
		return nil, parseErr("the line is not valid JSON; each line must be one JSON-RPC message")
	}
	switch line[0] {
	case '{':
	case '[':
		return nil, invalid(nil, "batches (JSON arrays) are not supported; send one message per line")
	default:
		return nil, invalid(nil, "a message must be a JSON object")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(line, &fields); err != nil {
		return nil, parseErr("the line is not a JSON object")
	}
	id, idErr := checkID(fields)
	if v, ok := fields["jsonrpc"]; !ok || string(v) != `"2.0"` {
		return nil, invalid(id, `"jsonrpc" must be "2.0"`)
	}
	if idErr != nil {
		return nil, idErr
	}
	out := map[string]json.RawMessage{"jsonrpc": json.RawMessage(`"2.0"`)}
	if id != nil {
		out["id"] = id
	}
	method, hasMethod := fields["method"]
	if hasMethod {
		var name string
		if err := json.Unmarshal(method, &name); err != nil || name == "" {
			return nil, invalid(id, `"method" must be a non-empty string`)
		}
		out["method"] = method
		if p, ok := fields["params"]; ok && string(p) != "null" {
			if p[0] != '{' {
				return nil, invalid(id, `"params" must be an object`)
			}
			out["params"] = p
		}
		return encode(out, id != nil)
	}
	// No method: only a response to one of the server's own requests may
	// come without one.
	res, hasResult := fields["result"]
	errv, hasError := fields["error"]
	switch {
	case id == nil:
		return nil, invalid(nil, `a request needs "method" (and "id" when it expects an answer)`)
	case hasResult == hasError:
		return nil, invalid(id, `a request needs "method"; a response needs exactly one of "result" and "error"`)
	case hasResult:
		out["result"] = res
	default:
		if errv[0] != '{' {
			return nil, invalid(id, `"error" must be an object`)
		}
		out["error"] = errv
	}
	return encode(out, false)
}

// checkID returns the message's id, nil when it has none. An id must be a
// string or an integer (MCP forbids null); a number with a fraction or an
// exponent would be rounded by the SDK and answered under another id.
func checkID(fields map[string]json.RawMessage) (json.RawMessage, *rpcError) {
	raw, ok := fields["id"]
	if !ok {
		return nil, nil
	}
	switch raw[0] {
	case '"':
		return raw, nil
	case 'n':
		return nil, invalid(nil, `"id" must be a string or an integer, not null`)
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		if _, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
			return raw, nil
		}
		return nil, invalid(nil, `"id" must be a string or an integer that fits in 64 bits`)
	}
	return nil, invalid(nil, `"id" must be a string or an integer`)
}

func encode(fields map[string]json.RawMessage, request bool) (*message, *rpcError) {
	b, err := json.Marshal(fields)
	if err != nil { // every part was checked to be valid JSON already
		return nil, parseErr("the message cannot be re-encoded")
	}
	return &message{line: b, request: request}, nil
}

// depth is the deepest nesting of arrays and objects in a JSON text,
// counted without recursion so that any input is safe to measure.
func depth(b []byte) int {
	d, deepest := 0, 0
	inString, escaped := false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			d++
			deepest = max(deepest, d)
		case c == '}' || c == ']':
			d--
		}
	}
	return deepest
}
