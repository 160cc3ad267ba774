package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// Bad flags stop `rgkit mcp` before it speaks: exit 2, the reason on
// stderr, nothing on stdout (a client would read it as protocol).
func TestMCPCommandRefusesBadFlags(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"unknown names preset", []string{"--names", "camel"}, `unknown tool names preset "camel"`},
		{"missing root", []string{"--root", "/does/not/exist"}, "workspace root"},
		{"root is a file", []string{"--root", "mcp_cli_test.go"}, "not a directory"},
		{"positional argument", []string{"extra"}, "unknown command"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(context.Background(), append([]string{"mcp"}, tc.args...), strings.NewReader(""), &out, &errOut)
			if code != 2 || out.Len() != 0 || !strings.Contains(errOut.String(), tc.want) {
				t.Errorf("code %d stdout %q stderr %q; want 2, nothing, %q", code, out.String(), errOut.String(), tc.want)
			}
		})
	}
}

// With stdin at EOF the server ends cleanly: a client that goes away does
// not leave it running.
func TestMCPCommandEndsAtEOF(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"mcp", "--root", t.TempDir()}, strings.NewReader(""), &out, &errOut)
	if code != 0 || out.Len() != 0 {
		t.Errorf("code %d stdout %q stderr %q", code, out.String(), errOut.String())
	}
}
