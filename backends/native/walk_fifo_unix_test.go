//go:build unix

package native

import "syscall"

func makeFifo(p string) error { return syscall.Mkfifo(p, 0o644) }
