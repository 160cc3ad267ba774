// Command rg is rgkit's pure-Go rg: ripgrep 15.2.0's command line on the
// native engine alone (package rg's Program with -j setting GOMAXPROCS), with no
// rg binary, network or MCP code linked in; the one program it starts is
// the one --pre names. It also builds for WebAssembly (GOOS=wasip1
// GOARCH=wasm; see docs/wasi.md), without --pre.
package main

import (
	"context"
	"os"

	"github.com/rgkit/rgkit/rg"
)

func main() {
	ctx, stop := notifyContext(context.Background())
	if code, ok := checkPlatform(); !ok {
		os.Exit(code)
	}
	p := rg.Program{Threads: rg.SetProcs, Preprocess: preprocess, Hostname: hostname}
	code := p.Main(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
