//go:build !darwin && !windows

package platforms

import "errors"

// sysctlUint32 is a darwin question.
func sysctlUint32(string) (uint32, error) {
	return 0, errors.ErrUnsupported
}

// nativeMachine is a Windows question.
func nativeMachine() (string, error) {
	return "", errors.ErrUnsupported
}
