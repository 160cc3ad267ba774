//go:build !linux

package native

import "os"

// sourceSys has no fast path here: files are opened through os.Root.
type sourceSys struct{}

func newSourceSys(*os.Root) *sourceSys { return &sourceSys{} }

func (s *sourceSys) close() {}

func (s *sourceSys) read(f File, buf []byte, size int64, mayMap bool, _ *probe) (data []byte, mapped, handled bool, err error) {
	return buf, false, false, nil
}

// mapLargeOpen maps nothing here: files are read.
func mapLargeOpen(*os.File) ([]byte, bool) { return nil, false }

// unmapData is never called here: nothing is mapped.
func unmapData([]byte) {}

// pageSize aligns what dropPages is given.
var pageSize = os.Getpagesize()

// dropPages is never called here: nothing is mapped.
func dropPages([]byte) {}
