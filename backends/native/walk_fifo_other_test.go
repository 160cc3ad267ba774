//go:build !unix

package native

import "errors"

func makeFifo(p string) error { return errors.ErrUnsupported }
