//go:build !wasip1

package rgcli

import "syscall"

// hostErrno is errno's number and text as rg on this system prints them.
func hostErrno(errno syscall.Errno) (int, string) { return int(errno), errno.Error() }
