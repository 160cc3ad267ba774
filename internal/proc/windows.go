//go:build windows

package proc

import (
	"os"
	"os/exec"
	"syscall"
)

// setProcGroup starts the child in a new process group. Windows has no
// signal to send to a group, so cancellation kills the process itself.
func setProcGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// signalGroup kills p (Windows has no SIGTERM; force is moot).
func signalGroup(p *os.Process, force bool) error {
	return p.Kill()
}

// killLeftovers does nothing on Windows: after the leader exited its pid may
// already belong to an unrelated process, and there is no group to address.
// Grandchildren holding a pipe are cut off by Cmd.WaitDelay instead.
func killLeftovers(pgid int) {}

// peakRSS is not reported on Windows (it would need the job object's
// accounting); 0 means unknown.
func peakRSS(ps *os.ProcessState) int64 { return 0 }
