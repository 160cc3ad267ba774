//go:build linux

package platforms

import "golang.org/x/sys/unix"

// kernelMachine returns the kernel's machine name (uname -m), e.g. "x86_64".
func kernelMachine() (string, error) {
	var u unix.Utsname
	if err := unix.Uname(&u); err != nil {
		return "", err
	}
	return unix.ByteSliceToString(u.Machine[:]), nil
}
