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
		if msg != "" {
			msg = string(msg[0]-('a'-'A')*b2i(msg[0] >= 'a' && msg[0] <= 'z')) + msg[1:]
		}
		return fmt.Sprintf("%s (os error %d)", msg, code)
	}
	return err.Error()
}

func b2i(b bool) byte {
	if b {
		return 1
	}
	return 0
}
