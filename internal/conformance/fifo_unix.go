//go:build unix

package conformance

import "syscall"

// mkfifo creates a named pipe.
func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }
