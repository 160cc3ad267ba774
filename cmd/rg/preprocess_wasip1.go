package main

import (
	"context"
	"io"
	"os"
)

// preprocess is nil: a WASI module cannot start a process, so --pre is
// refused with the reason (rg.Program.Preprocess).
var preprocess func(ctx context.Context, command, path string, stdin *os.File) (io.ReadCloser, error)
