//go:build unix

package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// outputFile is where the search's output goes: standard output through a
// descriptor of its own. Go kills a program whose write to descriptor 1
// or 2 finds the pipe closed (status 141 under pipefail, after `| head`);
// rg sees EPIPE and exits 0, and a write through any other descriptor
// gets EPIPE too. (signal.Notify for SIGPIPE would also do, at the cost
// signalContext explains.) The copy is closed on exec, so a --pre program
// inherits only the real descriptor 1.
func outputFile() *os.File {
	fd, err := dupCloexec(1)
	if err != nil {
		return os.Stdout // closed or unusable: the writes will say so
	}
	return os.NewFile(uintptr(fd), "/dev/stdout")
}

func dupCloexec(fd int) (int, error) { return unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 0) }
