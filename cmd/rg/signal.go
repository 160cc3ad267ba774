//go:build !wasip1

package main

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// signalContext returns a context that SIGINT or SIGTERM end once arm has
// been called. Until then the two signals end the process as they end rg:
// at once, by the signal. A search that starts a program (--pre,
// --hostname-bin) arms it first, because that program runs in its own
// process group, out of reach of a terminal's ^C, and must be stopped by
// this process. Watching for signals costs a thread and a round trip to it
// per signal (0.3 ms, a tenth of a one-file search), which a search that
// starts nothing does not pay.
func signalContext(parent context.Context) (ctx context.Context, arm func(), stop func()) {
	ctx, cancel := context.WithCancel(parent)
	var once sync.Once
	arm = func() {
		once.Do(func() {
			c := make(chan os.Signal, 1)
			signal.Notify(c, os.Interrupt, syscall.SIGTERM)
			go func() {
				select {
				case <-c:
					cancel()
				case <-ctx.Done():
				}
			}()
		})
	}
	return ctx, arm, cancel
}

// checkPlatform has nothing to check outside WebAssembly.
func checkPlatform() (int, bool) { return 0, true }
