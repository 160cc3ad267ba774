//go:build !unix

package realrg

import "errors"

// becomeProgram cannot replace the process here: rg runs as a child.
func becomeProgram(string, []string, []string) error { return errors.ErrUnsupported }
