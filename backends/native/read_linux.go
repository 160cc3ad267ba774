//go:build linux

package native

import (
	"bytes"
	"errors"
	"io"
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
	if rt == nil {
		return &sourceSys{dirfd: -1}
	}
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
// With pre set, a file large enough to map is probed first (see
// Source.read): when no chunk of it holds a candidate, err is
// errNoCandidate.
func (s *sourceSys) read(f File, buf []byte, size int64, mayMap bool, p *probe) (data []byte, mapped, handled bool, err error) {
	rel := f.Path
	if f.dir != nil {
		// Found by this search's own walk, whose directory is open: one
		// component to resolve (see dirList.openFile).
		fd, ok, err := f.dir.openFile(f.nameOff)
		if ok {
			if err != nil {
				return buf, false, true, &os.PathError{Op: "open", Path: rel, Err: err}
			}
			return s.readOpen(sysFile{fd, f.dir.directIO()}, rel, buf, size, mayMap, p)
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
	return s.readOpen(sysFile{fd: fd}, rel, buf, size, mayMap, p)
}

// readOpen is read's work once the file is open as f, which it closes.
func (s *sourceSys) readOpen(f sysFile, rel string, buf []byte, size int64, mayMap bool, p *probe) (data []byte, mapped, handled bool, err error) {
	defer f.close()
	fd := f.fd
	switch {
	case mayMap && size >= mapMin:
		if p != nil {
			return probeThenMap(f, rel, buf[:0], p)
		}
		m, _, ok, err := mapFile(fd, rel)
		if ok || err != nil {
			return m, ok, true, err
		}
	case mayMap && size < 0:
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, unknownSizeBuffer)
		}
		n, err := f.read(buf[len(buf):cap(buf)])
		if err != nil {
			return buf, false, true, &os.PathError{Op: "read", Path: rel, Err: err}
		}
		buf = buf[:len(buf)+n]
		if len(buf) < cap(buf) {
			return buf, false, true, nil // a short read: the end
		}
		size, err := regularSize(fd, rel)
		if err != nil {
			return buf, false, true, err
		}
		if size >= mapMin && p != nil {
			return probeThenMap(f, rel, buf, p)
		}
		m, ok := mapOpen(fd, size)
		if ok {
			return m, true, true, nil
		}
		if size >= int64(len(buf)) && size < mapMin {
			buf = slices.Grow(buf, int(size)-len(buf)+1) // one read for the rest
		}
	}
	buf, err = readFd(f, rel, buf)
	return buf, false, true, err
}

// probeThenMap reads the rest of a large file a chunk at a time into buf,
// which holds what was read of it so far (from its start), and looks in
// each chunk for a candidate of p.pre and for a NUL byte; a chunk begins
// with the end of the one before, so a literal across their border is seen
// whole. With no candidate before the first NUL (or the end) the answer is
// errNoCandidate: rg searches no further than a NUL. Otherwise p.nul is
// set and the file mapped (or read whole, when it cannot be mapped). A
// file that starts with a UTF-16 byte order mark is searched transcoded,
// so its raw bytes say nothing: it is mapped without a probe, as is one
// probed for a literal longer than half the buffer.
func probeThenMap(f sysFile, rel string, buf []byte, p *probe) (data []byte, mapped, handled bool, err error) {
	p.nul = -2
	overlap := p.pre.maxLen() - 1
	if overlap >= cap(buf)/2 {
		return mapOrRead(f, rel, buf)
	}
	found := false     // a candidate
	nul := -1          // the first NUL's offset in the file
	off, fresh := 0, 0 // the file offset of buf[0]; buf[:fresh] was looked at
	bom := 0           // a UTF-8 byte order mark's length
	for atStart := true; ; {
		if atStart && len(buf) > 0 {
			if bytes.HasPrefix(buf, []byte{0xFF, 0xFE}) || bytes.HasPrefix(buf, []byte{0xFE, 0xFF}) {
				return mapOrRead(f, rel, buf)
			}
			if bytes.HasPrefix(buf, []byte{0xEF, 0xBB, 0xBF}) {
				bom = 3
			}
		}
		i := bytes.IndexByte(buf[fresh:], 0)
		if !found {
			// A match must end before the NUL: only what precedes it counts.
			end := len(buf)
			if i >= 0 {
				end = fresh + i
			}
			sc := p.pre.scanner(buf[:end])
			found = sc.find(0) >= 0
		}
		if i >= 0 {
			nul = off + fresh + i
			break
		}
		keep := min(overlap, len(buf))
		if found {
			keep = 0 // only a NUL is looked for now
		}
		atStart = atStart && len(buf) == 0
		off += len(buf) - keep
		copy(buf, buf[len(buf)-keep:])
		n, err := f.read(buf[keep:cap(buf)])
		if err != nil {
			return buf, false, true, &os.PathError{Op: "read", Path: rel, Err: err}
		}
		if n == 0 {
			break
		}
		buf, fresh = buf[:keep+n], keep
	}
	if !found {
		return buf[:0], false, true, errNoCandidate
	}
	p.nul = -1
	if nul >= 0 {
		p.nul = nul - bom // an offset in the data as searched
	}
	return mapOrRead(f, rel, buf)
}

// mapOrRead maps the open file f whole, or, when it cannot be mapped,
// reads it whole into buf from its start.
func mapOrRead(f sysFile, rel string, buf []byte) (data []byte, mapped, handled bool, err error) {
	fd := f.fd
	size, err := regularSize(fd, rel)
	if err != nil {
		return buf, false, true, err
	}
	if m, ok := mapOpen(fd, size); ok {
		return m, true, true, nil
	}
	if _, err := unix.Seek(fd, 0, io.SeekStart); err != nil {
		return buf, false, true, &os.PathError{Op: "seek", Path: rel, Err: err}
	}
	buf, err = readFd(f, rel, buf[:0])
	return buf, false, true, err
}

// mapFile maps the open file fd whole, read-only, when it is a regular file
// of at least mapMin bytes; ok is false when it is smaller or cannot be
// mapped (the caller then reads it), err set when it is not a regular file
// (replaced by something else since it was listed). size is the file's.
func mapFile(fd int, rel string) (m []byte, size int64, ok bool, err error) {
	size, err = regularSize(fd, rel)
	if err != nil {
		return nil, 0, false, err
	}
	m, ok = mapOpen(fd, size)
	return m, size, ok, nil
}

// mapLargeOpen maps fh when it is a regular file of at least mapMin bytes.
func mapLargeOpen(fh *os.File) ([]byte, bool) {
	fi, err := fh.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil, false
	}
	return mapOpen(int(fh.Fd()), fi.Size())
}

// regularSize is the size of the open file fd, an error when it is not a
// regular file.
func regularSize(fd int, rel string) (int64, error) {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return 0, &os.PathError{Op: "fstat", Path: rel, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return 0, &os.PathError{Op: "read", Path: rel, Err: unix.EINVAL}
	}
	return st.Size, nil
}

// mapOpen maps fd's size bytes when that is at least mapMin.
func mapOpen(fd int, size int64) ([]byte, bool) {
	if size < mapMin || size != int64(int(size)) {
		return nil, false
	}
	m, err := unix.Mmap(fd, 0, int(size), unix.PROT_READ, unix.MAP_PRIVATE)
	if err != nil {
		return nil, false
	}
	_ = unix.Madvise(m, unix.MADV_SEQUENTIAL)
	return m, true
}

// pageSize aligns what dropPages is given.
var pageSize = unix.Getpagesize()

// dropPages takes the pages of p, page-aligned within a mapping, out of
// the process's memory; touching them again reads them back.
func dropPages(p []byte) { _ = unix.Madvise(p, unix.MADV_DONTNEED) }

// unmapData releases a mapping made by mapFile.
func unmapData(m []byte) { _ = unix.Munmap(m) }

// readFd reads the open file f to its end, appending to buf.
func readFd(f sysFile, rel string, buf []byte) ([]byte, error) {
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		want := cap(buf) - len(buf)
		n, err := f.read(buf[len(buf):cap(buf)])
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
