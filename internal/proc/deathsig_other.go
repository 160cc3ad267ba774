//go:build unix && !linux

package proc

import "syscall"

// setDeathSignal does nothing: only Linux has a parent-death signal.
func setDeathSignal(*syscall.SysProcAttr) {}
