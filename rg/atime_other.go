//go:build !linux

package rg

import (
	"io/fs"
	"time"
)

// accessTime is unknown here: --sort accessed falls back to the
// modification time.
func accessTime(fs.FileInfo) (time.Time, bool) { return time.Time{}, false }
