//go:build darwin

package platforms

import (
	"errors"

	"golang.org/x/sys/unix"
)

// sysctlUint32 reads a numeric sysctl; sysctl.proc_translated is absent on
// Intel Macs, which reads as "not translated".
func sysctlUint32(name string) (uint32, error) {
	return unix.SysctlUint32(name)
}

// nativeMachine is a Windows question.
func nativeMachine() (string, error) {
	return "", errors.ErrUnsupported
}
