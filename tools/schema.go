package tools

import (
	"embed"
	"encoding/json"
)

// The JSON Schemas (draft 2020-12) of each tool's arguments and structured
// result. They are files so they read as what a model and an MCP client see;
// schema_test.go keeps them in step with the Go types.
//
//go:embed schema/*.json
var schemaFS embed.FS

// schemaFile returns an embedded schema. The files are compiled in and
// checked by the tests, so a missing one is a build mistake; it yields an
// empty object schema rather than a panic.
func schemaFile(name string) json.RawMessage {
	b, err := schemaFS.ReadFile("schema/" + name)
	if err != nil {
		return json.RawMessage(`{"type":"object"}`)
	}
	return b
}
