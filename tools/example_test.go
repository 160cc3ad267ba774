package tools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/rgkit/rgkit/tools"
)

// exampleTree writes a small project and returns its root; older files
// first, so Glob's newest-first order is fixed.
func exampleTree() string {
	root, err := os.MkdirTemp("", "rgkit-example")
	if err != nil {
		panic(err)
	}
	files := []struct{ name, text string }{
		{"go.mod", "module example.com/demo\n"},
		{"main.go", "package main\n\nfunc main() {\n\t// TODO: flags\n\trun()\n}\n"},
		{"run.go", "package main\n\nfunc run() {\n\t// TODO: errors\n}\n"},
		{"docs/guide.md", "# Guide\n\nSee run.\n"},
	}
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f.name))
		_ = os.MkdirAll(filepath.Dir(p), 0o755)
		_ = os.WriteFile(p, []byte(f.text), 0o644)
		mt := start.Add(time.Duration(i) * time.Hour)
		_ = os.Chtimes(p, mt, mt)
	}
	return root
}

func ExampleWorkspace_Grep() {
	root := exampleTree()
	defer os.RemoveAll(root)
	ws, err := tools.NewWorkspace(root, tools.Options{})
	if err != nil {
		panic(err)
	}
	out, err := ws.Grep(context.Background(), tools.GrepInput{Pattern: `TODO: \w+`, OutputMode: tools.GrepContent})
	if err != nil {
		panic(err)
	}
	fmt.Print(out.Text)
	fmt.Println(out.Summary)
	// Output:
	// main.go:4:	// TODO: flags
	// run.go:4:	// TODO: errors
	// Grep TODO: \w+ (2 matches in 2 files)
}

func ExampleWorkspace_Glob() {
	root := exampleTree()
	defer os.RemoveAll(root)
	ws, err := tools.NewWorkspace(root, tools.Options{})
	if err != nil {
		panic(err)
	}
	one := 1
	out, err := ws.Glob(context.Background(), tools.GlobInput{Pattern: "*.go", HeadLimit: &one})
	if err != nil {
		panic(err)
	}
	fmt.Print(out.Text)
	fmt.Println(out.Summary)
	// Output:
	// run.go
	// [Showing files 1-1 of 2, newest first (head_limit). Use offset=1 for the next page, or a more specific pattern.]
	// Glob *.go (1 of 2 files)
}

func ExampleWorkspace_Read() {
	root := exampleTree()
	defer os.RemoveAll(root)
	ws, err := tools.NewWorkspace(root, tools.Options{})
	if err != nil {
		panic(err)
	}
	out, err := ws.Read(context.Background(), tools.ReadInput{FilePath: "main.go", Offset: 3, Limit: 2})
	if err != nil {
		panic(err)
	}
	fmt.Print(out.Text)
	fmt.Println(out.Summary)

	// A path outside the root is refused with a message for the model.
	_, err = ws.Read(context.Background(), tools.ReadInput{FilePath: "../etc/passwd"})
	fmt.Println(err != nil)
	// Output:
	// 3	func main() {
	// 4		// TODO: flags
	// [Showing lines 3-4 of 6. Continue with offset=5.]
	// Read main.go:3-4
	// true
}

// An agent loop hands the model each tool's name, description and input
// schema, and answers its tool calls with Call.
func ExampleTool_Call() {
	root := exampleTree()
	defer os.RemoveAll(root)
	ws, err := tools.NewWorkspace(root, tools.Options{Names: tools.SnakeNames()})
	if err != nil {
		panic(err)
	}
	for _, t := range ws.Tools() {
		fmt.Println(t.Name, json.Valid(t.InputSchema), json.Valid(t.OutputSchema))
	}

	// The model asks: {"name": "grep_search", "input": {...}}
	tool, _ := ws.Tool("grep_search")
	out, err := tool.Call(context.Background(), json.RawMessage(`{"pattern": "run", "glob": "*.md"}`))
	if err != nil {
		fmt.Println("tool error for the model:", err) // send as an error result
		return
	}
	fmt.Print(out.Text)                    // the tool result the model reads
	fmt.Println(out.Summary)               // a status line for the user
	_ = out.Structured.(*tools.GrepResult) // the same result as data
	// Output:
	// grep_search true true
	// glob_search true true
	// read_file true true
	// docs/guide.md
	// grep_search run (1 file)
}
