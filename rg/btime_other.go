//go:build !linux

package rg

import "time"

// createdTime reports the birth time as unknown where rgkit does not read
// it: rg sorts files whose creation time it cannot get first.
func createdTime(string) (time.Time, bool) { return time.Time{}, false }
