//go:build linux

package native

import (
	"errors"
	"os"
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

// read reads the file at rel beneath the root into buf. handled is false
// when openat2 is not available here (kernel before 5.6, or a seccomp
// filter), so the caller falls back to os.Root.
func (s *sourceSys) read(rel string, buf []byte) ([]byte, bool, error) {
	if s.dirfd < 0 || s.off.Load() {
		return buf, false, nil
	}
	fd, err := unix.Openat2(s.dirfd, rel, &unix.OpenHow{
		Flags: unix.O_RDONLY | unix.O_CLOEXEC | unix.O_NOCTTY | unix.O_NONBLOCK,
		// BENEATH refuses any path (through a link or "..") that leaves the
		// root; links inside the root are followed, as os.Root follows them.
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS,
	})
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) {
		s.off.Store(true)
		return buf, false, nil
	}
	if err != nil {
		return buf, true, &os.PathError{Op: "openat2", Path: rel, Err: err}
	}
	defer unix.Close(fd)
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
			return buf, true, &os.PathError{Op: "read", Path: rel, Err: err}
		}
		buf = buf[:len(buf)+n]
		if n == 0 || n < want {
			// A short read of a regular file is its end: this saves the
			// extra read(2) that would return 0.
			return buf, true, nil
		}
	}
}
