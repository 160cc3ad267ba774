//go:build !unix

package tools

import "os"

// readOpenFlags: Windows has no FIFOs in the file system to guard against.
const readOpenFlags = os.O_RDONLY
