//go:build !unix

package native

import "time"

// processCPU is not measured here; the metric then reads zero.
func processCPU() time.Duration { return 0 }
