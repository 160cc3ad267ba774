//go:build unix

package tools

import (
	"os"
	"syscall"
)

// readOpenFlags opens without blocking: if a FIFO is swapped in between the
// sandbox's check and the open, the open returns at once instead of
// waiting for a writer.
const readOpenFlags = os.O_RDONLY | syscall.O_NONBLOCK
