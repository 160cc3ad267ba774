package backends_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/rgkit/rgkit/backends"
	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/search"
)

func ExampleDefault() {
	dir, _ := os.MkdirTemp("", "rgkit-example")
	defer os.RemoveAll(dir)
	_ = os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\n// TODO: flags\nfunc main() {}\n"), 0o644)

	chain := backends.Default(backends.Options{})
	for l, err := range chain.Lines(context.Background(), search.Query{Pattern: `TODO|func \w+`, Root: dir}) {
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		fmt.Printf("%s:%d:%s\n", l.Path, l.Number, l.Text)
	}
	// Output:
	// main.go:3:// TODO: flags
	// main.go:4:func main() {}
}

func ExampleDefault_filesWithMatches() {
	dir, _ := os.MkdirTemp("", "rgkit-example")
	defer os.RemoveAll(dir)
	for i, name := range []string{"b.txt", "a.txt", "c.txt"} {
		_ = os.WriteFile(filepath.Join(dir, name), []byte(fmt.Sprintf("needle %d\n", i)), 0o644)
	}

	chain := &search.Chain{Engines: []search.Engine{native.New()}}
	var files []string
	sink := search.SinkFuncs{BeginFunc: func(p string) error { files = append(files, p); return nil }}
	res, err := chain.Search(context.Background(), search.Query{Pattern: "needle", Root: dir, Mode: search.ModeFilesWithMatches, Limit: 2}, sink)
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println(files, res.Backend, res.Truncated == search.TruncatedLimit)
	// Output:
	// [a.txt b.txt] native true
}
