//go:build darwin

package platforms

import (
	"errors"

	"golang.org/x/sys/unix"
)

// removeXattr removes attr from path; a file without it is fine.
func removeXattr(path, attr string) error {
	err := unix.Removexattr(path, attr)
	if errors.Is(err, unix.ENOATTR) {
		return nil
	}
	return err
}
