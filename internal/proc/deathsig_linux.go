package proc

import "syscall"

// setDeathSignal asks Linux to SIGKILL the child when the thread that
// started it dies: rgkit killed with SIGKILL (no chance to cancel) used to
// leave rg searching on, in its own process group. The signal follows the
// starting OS thread, not the process; Go only ends threads that a
// goroutine locked and left locked, which rgkit never does around a start.
func setDeathSignal(attr *syscall.SysProcAttr) {
	attr.Pdeathsig = syscall.SIGKILL
}
