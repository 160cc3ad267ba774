package tools

import (
	"context"
	"encoding/json"
	"fmt"
)

// Kind identifies one of the three tools whatever it is called.
type Kind int

const (
	// KindGrep searches file contents with a regular expression.
	KindGrep Kind = iota + 1
	// KindGlob lists files whose paths match a glob pattern.
	KindGlob
	// KindRead shows the lines of one file.
	KindRead
)

func (k Kind) String() string {
	switch k {
	case KindGrep:
		return "grep"
	case KindGlob:
		return "glob"
	case KindRead:
		return "read"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Tool is one tool as a model sees it: a name, a description, JSON schemas
// for its arguments and its structured result, and Call.
type Tool struct {
	Kind        Kind
	Name        string
	Description string
	// InputSchema is a JSON Schema (draft 2020-12) object for the arguments.
	InputSchema json.RawMessage
	// OutputSchema is a JSON Schema for Output.Structured.
	OutputSchema json.RawMessage

	call func(ctx context.Context, args json.RawMessage) (Output, error)
}

// Call runs the tool with the model's JSON arguments (an object; empty or
// null means no arguments).
//
// A non-nil error means the call failed; its message is written for the
// model to act on (a refused path, an invalid pattern and how to fix it, an
// engine that could not run). "No matches" is not an error. Output.Summary
// is set in both cases.
func (t Tool) Call(ctx context.Context, args json.RawMessage) (Output, error) {
	return t.call(ctx, args)
}

// makeTool builds a Tool whose Call decodes the arguments strictly into In
// and runs run; the schemas are schema+".input.json" and ".output.json".
func makeTool[In any](kind Kind, name, description, schema string, run func(context.Context, In) (Output, error)) Tool {
	return Tool{
		Kind:         kind,
		Name:         name,
		Description:  description,
		InputSchema:  schemaFile(schema + ".input.json"),
		OutputSchema: schemaFile(schema + ".output.json"),
		call: func(ctx context.Context, raw json.RawMessage) (Output, error) {
			var in In
			if err := decodeArgs(name, raw, &in); err != nil {
				return Output{Summary: name + " (invalid arguments)"}, err
			}
			return run(ctx, in)
		},
	}
}

// Output is the result of a successful call.
type Output struct {
	// Text is the rendering for the model, capped at Limits.MaxOutputChars;
	// when anything was cut it says what and how to get the rest.
	Text string
	// Structured is the same result as data (*GrepResult, *GlobResult or
	// *ReadResult), matching the tool's OutputSchema; it holds exactly what
	// Text shows.
	Structured any
	// Summary is one line for a harness's status line or log, e.g.
	// "Grep needle (12 files, truncated)".
	Summary string
}

// Names are the tool names a model sees. Harnesses differ in convention, so
// the names are configurable; descriptions refer to the other tools by these
// names.
type Names struct {
	Grep, Glob, Read string
}

// DefaultNames are Claude Code's names: Grep, Glob, Read.
func DefaultNames() Names { return Names{Grep: "Grep", Glob: "Glob", Read: "Read"} }

// SnakeNames are grep_search, glob_search and read_file, for harnesses that
// use snake_case tool names.
func SnakeNames() Names {
	return Names{Grep: "grep_search", Glob: "glob_search", Read: "read_file"}
}

// NamesPreset returns the preset called name: "default" (or "") or "snake".
func NamesPreset(name string) (Names, error) {
	switch name {
	case "", "default":
		return DefaultNames(), nil
	case "snake":
		return SnakeNames(), nil
	}
	return Names{}, fmt.Errorf("unknown tool names preset %q (want default or snake)", name)
}

// withDefaults fills empty names from DefaultNames.
func (n Names) withDefaults() Names {
	d := DefaultNames()
	if n.Grep == "" {
		n.Grep = d.Grep
	}
	if n.Glob == "" {
		n.Glob = d.Glob
	}
	if n.Read == "" {
		n.Read = d.Read
	}
	return n
}
