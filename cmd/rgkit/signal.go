package main

import (
	"context"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"
)

// signalGrace is how long the command has, after SIGINT or SIGTERM, to
// stop on its own (every search loop polls the context it cancels) before
// the process ends anyway: a loop that misses the cancellation must not
// keep a user waiting, nor a supervisor's SIGTERM go unanswered.
const signalGrace = 250 * time.Millisecond

// signalContext is cancelled at the first SIGINT or SIGTERM. A second
// signal, or signalGrace passing without the command having exited, ends
// the process at once with status 128+n, as a shell reports a process
// the signal killed. stop returns that status when a signal came (the
// command stopped on its own in time), 0 otherwise.
func signalContext() (ctx context.Context, stop func() int) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	var got atomic.Int32
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig, ok := <-sigs
		if !ok {
			return
		}
		got.Store(int32(128 + signalNumber(sig)))
		cancel()
		select {
		case <-sigs:
		case <-time.After(signalGrace):
		}
		os.Exit(128 + signalNumber(sig))
	}()
	return ctx, func() int {
		signal.Stop(sigs)
		cancel()
		return int(got.Load())
	}
}

// signalNumber is sig's number (2 for SIGINT, 15 for SIGTERM).
func signalNumber(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return int(s)
	}
	return 2
}
