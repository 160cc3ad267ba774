//go:build !linux

package platforms

import "errors"

// kernelMachine is only asked on Linux.
func kernelMachine() (string, error) {
	return "", errors.ErrUnsupported
}
