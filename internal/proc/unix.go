//go:build unix

package proc

import (
	"os"
	"os/exec"
	"runtime"
	"syscall"
)

// setProcGroup puts the child in its own process group, so that cancelling
// reaches every process it started (a shell wrapper's children, rg's workers).
// On Linux the child is also killed when rgkit dies (see setDeathSignal):
// its own group keeps a SIGKILL of rgkit's group from reaching it.
func setProcGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setDeathSignal(cmd.SysProcAttr)
}

// signalGroup sends SIGTERM (or SIGKILL when force) to p's process group.
func signalGroup(p *os.Process, force bool) error {
	sig := syscall.SIGTERM
	if force {
		sig = syscall.SIGKILL
	}
	return syscall.Kill(-p.Pid, sig)
}

// killLeftovers kills what remains of the process group pgid after its
// leader exited. Linux and the BSDs never hand out a pid that is still in use
// as a process group id, so while a member is alive the id is ours; when none
// is left the call fails with ESRCH and does nothing.
func killLeftovers(pgid int) {
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
}

// peakRSS reads the child's peak resident set from its rusage: kilobytes on
// Linux and the BSDs, bytes on darwin.
func peakRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss)
	}
	return int64(ru.Maxrss) * 1024
}
