//go:build !unix

package rgfetch

import "errors"

func syscallMkfifo(path string) error { return errors.New("no FIFOs on this OS") }
