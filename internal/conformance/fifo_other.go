//go:build !unix

package conformance

import "errors"

// mkfifo reports that named pipes are not available on this platform.
func mkfifo(path string) error { return errors.New("named pipes are not supported on this platform") }
