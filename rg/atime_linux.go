//go:build linux

package rg

import (
	"io/fs"
	"syscall"
	"time"
)

// accessTime is a file's last access time, for --sort accessed.
func accessTime(fi fs.FileInfo) (time.Time, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return time.Time{}, false
	}
	return time.Unix(st.Atim.Unix()), true
}
