//go:build windows

package platforms

import (
	"debug/pe"
	"errors"
	"fmt"

	"golang.org/x/sys/windows"
)

// sysctlUint32 is a darwin question.
func sysctlUint32(string) (uint32, error) {
	return 0, errors.ErrUnsupported
}

// nativeMachine asks IsWow64Process2 for the machine's native architecture.
// Unlike the process machine (IMAGE_FILE_MACHINE_UNKNOWN for x64 emulation on
// ARM64, which is not WOW64), the native machine is always reported.
// IsWow64Process2 needs Windows 10 1709; older systems return an error and
// the build architecture stands.
func nativeMachine() (string, error) {
	var process, native uint16
	if err := windows.IsWow64Process2(windows.CurrentProcess(), &process, &native); err != nil {
		return "", err
	}
	switch native {
	case pe.IMAGE_FILE_MACHINE_AMD64:
		return "amd64", nil
	case pe.IMAGE_FILE_MACHINE_ARM64:
		return "arm64", nil
	case pe.IMAGE_FILE_MACHINE_I386:
		return "386", nil
	case pe.IMAGE_FILE_MACHINE_ARMNT:
		return "arm", nil
	}
	return "", fmt.Errorf("platforms: unknown native machine 0x%x", native)
}
