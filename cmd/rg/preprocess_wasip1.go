package main

import (
	"context"
	"io"
	"os"
)

// preprocess and hostname are nil: a WASI module cannot start a process,
// so --pre and --hostname-bin are refused with the reason
// (rg.Program.Preprocess, Hostname).
var (
	preprocess func(ctx context.Context, command, path string, stdin *os.File) (io.ReadCloser, error)
	hostname   func(ctx context.Context, program string) (string, error)
)
