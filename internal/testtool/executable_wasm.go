//go:build wasip1 || js

package testtool

import (
	"os"
	"testing"
)

// WriteExecutable writes data to path with mode 0755. A WebAssembly
// program starts no processes, so no fork can hold the file open.
func WriteExecutable(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o755); err != nil {
		t.Fatalf("writing the executable %s: %v", path, err)
	}
}
