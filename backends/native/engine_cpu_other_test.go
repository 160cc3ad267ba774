//go:build !unix

package native_test

import "time"

// cpuTimes is not measured here; the CPU metrics then read zero.
func cpuTimes() (self, children time.Duration) { return 0, 0 }
