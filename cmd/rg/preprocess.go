//go:build !wasip1

package main

import "github.com/rgkit/rgkit/internal/preproc"

// preprocess runs rg --pre's command for a file, and hostname
// --hostname-bin's program, as rg does: a program a user names on the
// command line is theirs to run (the library and the agent tools never run
// one). A WASI module has no processes to start (preprocess_wasip1.go).
var (
	preprocess = preproc.Start
	hostname   = preproc.Hostname
)
