package rgcli

import (
	"errors"
	"fmt"
	"syscall"
)

// OSError words err as Rust's std::io::Error displays an OS error, which
// is how rg reports a failing path: "No such file or directory (os error 2)".
func OSError(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		code, msg := hostErrno(errno)
		if m, ok := muslWords[errno]; ok {
			msg = m
		} else if msg != "" {
			msg = string(msg[0]-('a'-'A')*b2i(msg[0] >= 'a' && msg[0] <= 'z')) + msg[1:]
		}
		return fmt.Sprintf("%s (os error %d)", msg, code)
	}
	return err.Error()
}

// muslWords are the errors the C library rg 15.2.0 is built with (musl,
// statically linked) words differently from Go's table; the others
// differ only in their first letter's case.
var muslWords = map[syscall.Errno]string{
	syscall.ENAMETOOLONG: "Filename too long",
	syscall.ELOOP:        "Symbolic link loop",
	syscall.EIO:          "I/O error",
	syscall.ESTALE:       "Stale file handle",
	syscall.EMFILE:       "No file descriptors available",
}

func b2i(b bool) byte {
	if b {
		return 1
	}
	return 0
}
