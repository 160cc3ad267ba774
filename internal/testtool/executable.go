//go:build !wasip1 && !js

package testtool

import (
	"os"
	"syscall"
	"testing"
)

// WriteExecutable writes data to path as an executable (mode 0755) that the
// test can run at once. The file is open for writing only while
// syscall.ForkLock is held, which every fork takes: a fork by a parallel
// test can otherwise inherit the descriptor and make the exec fail with
// "text file busy" until that child execs (golang/go#22315).
func WriteExecutable(t testing.TB, path string, data []byte) {
	t.Helper()
	syscall.ForkLock.RLock()
	err := os.WriteFile(path, data, 0o755)
	syscall.ForkLock.RUnlock()
	if err == nil {
		err = os.Chmod(path, 0o755)
	}
	if err != nil {
		t.Fatalf("writing the executable %s: %v", path, err)
	}
}
