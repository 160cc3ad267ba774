package rg_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/rgkit/rgkit/rg"
)

// Main runs rg's command line in-process on the pure-Go engine: no rg
// binary is needed, and the bytes are rg 15.2.0's.
func ExampleMain() {
	dir, _ := os.MkdirTemp("", "rg-example")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n\nfunc Hello() {}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.txt"), []byte("say hello\n"), 0o644)

	var out, errOut strings.Builder
	code := rg.Main(context.Background(), []string{"-n", "--sort", "path", "-i", "hello", dir}, nil, &out, &errOut)
	fmt.Print(strings.ReplaceAll(out.String(), dir+string(filepath.Separator), ""))
	fmt.Println("exit", code)
	// Output:
	// a.go:3:func Hello() {}
	// b.txt:1:say hello
	// exit 0
}
