//go:build unix

package rgfetch

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// fileIdentity names the file at path by what changes whenever its content
// can have changed: device, inode, size, modification and change times.
func fileIdentity(path string) (string, bool) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return "", false
	}
	return fmt.Sprintf("%d:%d:%d:%d.%09d:%d.%09d", uint64(st.Dev), uint64(st.Ino), st.Size,
		st.Mtim.Sec, st.Mtim.Nsec, st.Ctim.Sec, st.Ctim.Nsec), true
}
