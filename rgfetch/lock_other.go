//go:build !unix && !windows

package rgfetch

import "os"

// tryLock cannot lock on this OS (plan9, js, wasip1); installs there are
// not serialised between processes, but stay atomic through rename.
func tryLock(f *os.File) (bool, error) { return true, nil }

func unlockFile(f *os.File) {}
