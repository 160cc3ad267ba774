package tools

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// resolveSchema compiles a tool schema with the validator the MCP Go SDK
// uses, so a schema a client cannot use fails here first.
func resolveSchema(t *testing.T, raw json.RawMessage) *jsonschema.Resolved {
	t.Helper()
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatalf("schema does not parse: %v", err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("schema does not resolve: %v", err)
	}
	return rs
}

// validateOutput checks a structured result against its tool's output
// schema, through JSON as a client sees it.
func validateOutput(t *testing.T, tool Tool, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var inst map[string]any
	if err := json.Unmarshal(b, &inst); err != nil {
		t.Fatal(err)
	}
	if err := resolveSchema(t, tool.OutputSchema).Validate(inst); err != nil {
		t.Fatalf("%s result does not fit its output schema: %v\n%s", tool.Name, err, b)
	}
}

func jsonNames(v any) []string {
	var names []string
	rt := reflect.TypeOf(v)
	for i := range rt.NumField() {
		f := rt.Field(i)
		if f.Anonymous {
			names = append(names, jsonNames(reflect.Zero(f.Type).Interface())...)
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

func schemaProps(t *testing.T, raw json.RawMessage) ([]string, []string) {
	t.Helper()
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
		Additional *bool                      `json:"additionalProperties"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	if s.Additional == nil || *s.Additional {
		t.Errorf("schema allows additional properties")
	}
	var names []string
	for n := range s.Properties {
		names = append(names, n)
	}
	slices.Sort(names)
	return names, s.Required
}

// The schemas are hand-written for their descriptions; this keeps them in
// step with the Go types the arguments decode into and results encode from.
func TestSchemasMatchTypes(t *testing.T) {
	w := newTestWorkspace(t, t.TempDir(), Options{})
	types := map[Kind][2]any{
		KindGrep: {GrepInput{}, GrepResult{}},
		KindGlob: {GlobInput{}, GlobResult{}},
		KindRead: {ReadInput{}, ReadResult{}},
	}
	for _, tool := range w.Tools() {
		t.Run(tool.Name, func(t *testing.T) {
			resolveSchema(t, tool.InputSchema)
			resolveSchema(t, tool.OutputSchema)
			in, out := types[tool.Kind][0], types[tool.Kind][1]
			props, required := schemaProps(t, tool.InputSchema)
			if want := jsonNames(in); !slices.Equal(props, want) {
				t.Errorf("input schema properties %v; %T has %v", props, in, want)
			}
			if !slices.Equal(required, []string{requiredParam(tool.Kind)}) {
				t.Errorf("input schema requires %v", required)
			}
			props, _ = schemaProps(t, tool.OutputSchema)
			if want := jsonNames(out); !slices.Equal(props, want) {
				t.Errorf("output schema properties %v; %T has %v", props, out, want)
			}
			if tool.Description == "" || strings.Contains(tool.Description, "{") && strings.Contains(tool.Description, "_limit}") {
				t.Errorf("description missing or unfilled: %q", tool.Description)
			}
		})
	}
}

func requiredParam(k Kind) string {
	if k == KindRead {
		return "file_path"
	}
	return "pattern"
}

// checkOutput compares a call's text and summary with what a model should
// see, and its structured result with the tool's output schema.
func checkOutput(t *testing.T, tool Tool, out Output, text, summary string) {
	t.Helper()
	if out.Text != text {
		t.Errorf("text:\n%s\nwant:\n%s", out.Text, text)
	}
	if summary != "" && out.Summary != summary {
		t.Errorf("summary = %q; want %q", out.Summary, summary)
	}
	validateOutput(t, tool, out.Structured)
}
