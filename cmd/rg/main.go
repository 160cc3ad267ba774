// Command rg is rgkit's pure-Go rg: ripgrep 15.2.0's command line on the
// native engine alone (package rg's Program with -j setting GOMAXPROCS), with no
// rg binary, network or MCP code linked in; the one program it starts is
// the one --pre names. It also builds for WebAssembly (GOOS=wasip1
// GOARCH=wasm; see docs/wasi.md), without --pre.
package main

import (
	"context"
	"io"
	"os"
	"runtime/debug"

	"github.com/rgkit/rgkit/rg"
)

func main() {
	ctx, arm, stop := signalContext(context.Background())
	if code, ok := checkPlatform(); !ok {
		os.Exit(code)
	}
	if os.Getenv("GOGC") == "" {
		// A search's heap is mostly its reading and output buffers,
		// live a few MiB; the default lets it double between
		// collections. At 50 the peak resident set over the Linux tree
		// is some 3 MiB lower, for a collection cost within the noise.
		debug.SetGCPercent(50)
	}
	p := rg.Program{Threads: rg.SetProcs}
	if preprocess != nil { // (nil in a WASI module)
		p.Preprocess = func(ctx context.Context, command, path string, stdin *os.File) (io.ReadCloser, error) {
			arm()
			return preprocess(ctx, command, path, stdin)
		}
		p.Hostname = func(ctx context.Context, program string) (string, error) {
			arm()
			return hostname(ctx, program)
		}
	}
	code := p.Main(ctx, os.Args[1:], os.Stdin, outputFile(), os.Stderr)
	stop()
	os.Exit(code)
}
