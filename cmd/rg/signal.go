//go:build !wasip1

package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// notifyContext ends ctx on SIGINT or SIGTERM. A closed stdout (| head)
// must surface as EPIPE, which rg treats as a quiet exit 0, rather than
// kill the process with SIGPIPE (status 141 under pipefail).
func notifyContext(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	return ctx, stop
}

// checkPlatform has nothing to check outside WebAssembly.
func checkPlatform() (int, bool) { return 0, true }
