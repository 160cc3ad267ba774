//go:build linux

package native

import (
	"errors"
	"os"
	"slices"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// sourceSys opens files with openat2(2) beneath the root's descriptor and
// reads them with raw read(2): one syscall to open, usually one to read,
// none of os.File's poller registration or finalizer.
type sourceSys struct {
	dirfd int // -1: no descriptor, use os.Root
	dir   *os.File
	off   atomic.Bool // openat2 turned out to be unavailable
}

func newSourceSys(rt *os.Root) *sourceSys {
	dir, err := rt.Open(".")
	if err != nil {
		return &sourceSys{dirfd: -1}
	}
	return &sourceSys{dirfd: int(dir.Fd()), dir: dir}
}

func (s *sourceSys) close() {
	if s.dir != nil {
		s.dir.Close()
	}
}

// read reads the file f.Path beneath the root (or, found by this
// search's walk, beneath its open directory) into buf, or maps it when
// size (the walk's stat, -1 unknown) says it is large: mapped is then set
// and data is the mapping, to be released with unmapData. handled is false
// when openat2 is not available here (kernel before 5.6, or a seccomp
// filter), so the caller falls back to os.Root.
//
// With mayMap set and size unknown, the file is read into buf without a
// stat first; only when that first read fills buf is it stat'ed, and mapped
// if large, so most files cost one open and one read, as in rg.
func (s *sourceSys) read(f File, buf []byte, size int64, mayMap bool) (data []byte, mapped, handled bool, err error) {
	rel := f.Path
	if f.dir != nil {
		// Found by this search's own walk, whose directory is open: one
		// component to resolve (see dirList.openFile).
		fd, ok, err := f.dir.openFile(f.nameOff)
		if ok {
			if err != nil {
				return buf, false, true, &os.PathError{Op: "open", Path: rel, Err: err}
			}
			return s.readOpen(fd, rel, buf, size, mayMap)
		}
	}
	if s.dirfd < 0 || s.off.Load() {
		return buf, false, false, nil
	}
	fd, err := unix.Openat2(s.dirfd, rel, &unix.OpenHow{
		Flags: unix.O_RDONLY | unix.O_CLOEXEC | unix.O_NOCTTY | unix.O_NONBLOCK,
		// BENEATH refuses any path (through a link or "..") that leaves the
		// root; links inside the root are followed, as os.Root follows them.
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS,
	})
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) {
		s.off.Store(true)
		return buf, false, false, nil
	}
	if err != nil {
		return buf, false, true, &os.PathError{Op: "openat2", Path: rel, Err: err}
	}
	return s.readOpen(fd, rel, buf, size, mayMap)
}

// readOpen is read's work once the file is open as fd, which it closes.
func (s *sourceSys) readOpen(fd int, rel string, buf []byte, size int64, mayMap bool) (data []byte, mapped, handled bool, err error) {
	defer unix.Close(fd)
	switch {
	case mayMap && size >= mapMin:
		m, _, ok, err := mapFile(fd, rel)
		if ok || err != nil {
			return m, ok, true, err
		}
	case mayMap && size < 0:
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, unknownSizeBuffer)
		}
		n, err := readIntr(fd, buf[len(buf):cap(buf)])
		if err != nil {
			return buf, false, true, &os.PathError{Op: "read", Path: rel, Err: err}
		}
		buf = buf[:len(buf)+n]
		if len(buf) < cap(buf) {
			return buf, false, true, nil // a short read: the end
		}
		m, size, ok, err := mapFile(fd, rel)
		if ok || err != nil {
			return m, ok, true, err
		}
		if size >= int64(len(buf)) && size < mapMin {
			buf = slices.Grow(buf, int(size)-len(buf)+1) // one read for the rest
		}
	}
	buf, err = readFd(fd, rel, buf)
	return buf, false, true, err
}

// mapFile maps the open file fd whole, read-only, when it is a regular file
// of at least mapMin bytes; ok is false when it is smaller or cannot be
// mapped (the caller then reads it), err set when it is not a regular file
// (replaced by something else since it was listed). size is the file's.
func mapFile(fd int, rel string) (m []byte, size int64, ok bool, err error) {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, 0, false, &os.PathError{Op: "fstat", Path: rel, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, 0, false, &os.PathError{Op: "read", Path: rel, Err: unix.EINVAL}
	}
	if st.Size < mapMin || st.Size != int64(int(st.Size)) {
		return nil, st.Size, false, nil
	}
	m, err = unix.Mmap(fd, 0, int(st.Size), unix.PROT_READ, unix.MAP_PRIVATE)
	if err != nil {
		return nil, st.Size, false, nil
	}
	_ = unix.Madvise(m, unix.MADV_SEQUENTIAL)
	return m, st.Size, true, nil
}

// readIntr is read(2), retried when a signal interrupts it.
func readIntr(fd int, p []byte) (int, error) {
	for {
		n, err := unix.Read(fd, p)
		if !errors.Is(err, unix.EINTR) {
			return n, err
		}
	}
}

// pageSize aligns what dropPages is given.
var pageSize = unix.Getpagesize()

// dropPages takes the pages of p, page-aligned within a mapping, out of
// the process's memory; touching them again reads them back.
func dropPages(p []byte) { _ = unix.Madvise(p, unix.MADV_DONTNEED) }

// unmapData releases a mapping made by mapFile.
func unmapData(m []byte) { _ = unix.Munmap(m) }

// readFd reads the open file fd to its end, appending to buf.
func readFd(fd int, rel string, buf []byte) ([]byte, error) {
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		want := cap(buf) - len(buf)
		n, err := unix.Read(fd, buf[len(buf):cap(buf)])
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return buf, &os.PathError{Op: "read", Path: rel, Err: err}
		}
		buf = buf[:len(buf)+n]
		if n == 0 || n < want {
			// A short read of a regular file is its end: this saves the
			// extra read(2) that would return 0.
			return buf, nil
		}
	}
}
