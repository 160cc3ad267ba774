//go:build linux

package rg

import (
	"time"

	"golang.org/x/sys/unix"
)

// createdTime is a file's birth time, for --sort created: statx(2)'s
// btime, which not every file system records; ok is false then, and rg
// sorts such files first, as Rust's Metadata::created fails there.
func createdTime(path string) (time.Time, bool) {
	var st unix.Statx_t
	if err := unix.Statx(unix.AT_FDCWD, path, 0, unix.STATX_BTIME, &st); err != nil || st.Mask&unix.STATX_BTIME == 0 {
		return time.Time{}, false
	}
	return time.Unix(st.Btime.Sec, int64(st.Btime.Nsec)), true
}
