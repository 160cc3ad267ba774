// Command rgkit provisions ripgrep, searches code through interchangeable
// engines, serves agent tools over MCP and benchmarks the engines.
package main

import (
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
)

func main() {
	ctx, stop := signalContext()
	// A closed stdout (| head) must surface as EPIPE, which grep treats as
	// rg does (a quiet exit 0), rather than kill the process with SIGPIPE
	// (status 141 under pipefail). Notify, unlike Ignore, is not inherited
	// by the rg the passthrough starts.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	var code int
	if invokedAsRg(os.Args[0]) {
		code = runRg(ctx, streams{in: os.Stdin, out: os.Stdout, errOut: os.Stderr}, os.Args[1:])
	} else {
		code = run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	}
	if killed := stop(); killed != 0 {
		code = killed // stopped by SIGINT/SIGTERM: 128+n, as for rg itself
	}
	os.Exit(code)
}

// invokedAsRg reports whether the program was started under the name rg
// (a link or copy made by rgkit fetch --as-rg): it then is rg's command
// line, exactly as `rgkit grep`.
func invokedAsRg(argv0 string) bool {
	base := strings.ToLower(filepath.Base(argv0))
	return strings.TrimSuffix(base, ".exe") == "rg"
}
