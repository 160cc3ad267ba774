//go:build unix

package native

import (
	"os"
	"syscall"
)

// deviceOf is the device of the directory at path (links followed), for
// rg's --one-file-system.
func deviceOf(path string) (uint64, bool) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(st.Dev), true //nolint:unconvert // Dev is int32 on some platforms
}
