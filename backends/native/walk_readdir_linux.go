//go:build linux && (amd64 || arm64)

package native

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// dirList is one directory's entries, read with getdents64 into a reused
// buffer, so listing costs one allocation per directory for the names (one
// string holding them all) instead of two per entry, and file metadata is
// read with fstatat relative to the open directory instead of by full path.
type dirList struct {
	ents []dirent
	// fd is the listed directory, open while isOpen is set. The flag, not
	// fd >= 0, says so: the zero dirList each walk worker starts with would
	// otherwise own descriptor 0 and close it.
	fd     int
	isOpen bool
	raw    []byte
	id     dirID // the listed directory's identity
	// direct: the directory is on a local file system, so its listing and
	// its files are read with raw system calls (see sysFile).
	direct bool
}

// errEscaped is a directory whose ".." is not the directory it was listed
// in: a path component was replaced by a link while the walk ran.
var errEscaped = errors.New("directory moved or replaced by a link during the walk")

// open opens and lists the work's directory (see work.check).
func (l *dirList) open(it *work) error {
	l.ents = l.ents[:0]
	l.fd, l.isOpen = -1, false
	dir := it.abs
	var fd int
	var err error
	if it.root != nil {
		fd, err = openBeneath(it.root, it.inRoot)
	} else {
		flags := unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC
		if it.check {
			flags |= unix.O_NOFOLLOW
		}
		fd, err = unix.Open(dir, flags, 0)
	}
	if err != nil {
		return &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	l.fd, l.isOpen = fd, true
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return &fs.PathError{Op: "fstat", Path: dir, Err: err}
	}
	l.id = dirID{uint64(st.Dev), uint64(st.Ino)}
	l.direct = localDevice(uint64(st.Dev), fd)
	if it.check {
		var up unix.Stat_t
		if err := unix.Fstatat(fd, "..", &up, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			return &fs.PathError{Op: "fstatat ..", Path: dir, Err: err}
		}
		if (dirID{uint64(up.Dev), uint64(up.Ino)}) != it.parentID {
			return &fs.PathError{Op: "open", Path: dir, Err: errEscaped}
		}
	}
	if cap(l.raw) < 32<<10 {
		l.raw = make([]byte, 0, 32<<10)
	}
	raw := l.raw[:0]
	for {
		if cap(raw)-len(raw) < 8<<10 {
			raw = append(raw, make([]byte, cap(raw))...)[:len(raw)]
		}
		n, err := sysFile{fd, l.direct}.getdents(raw[len(raw):cap(raw)])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			l.raw = raw
			return &fs.PathError{Op: "getdents", Path: dir, Err: err}
		}
		if n <= 0 {
			break
		}
		raw = raw[:len(raw)+n]
	}
	l.raw = raw
	names := string(raw) // one allocation; every name is a substring of it
	for off := 0; off+19 <= len(raw); {
		reclen := int(binary.NativeEndian.Uint16(raw[off+16:]))
		if reclen == 0 || off+reclen > len(raw) {
			break
		}
		typ := raw[off+18]
		nameStart := off + 19
		nameEnd := nameStart
		for nameEnd < off+reclen && raw[nameEnd] != 0 {
			nameEnd++
		}
		name := names[nameStart:nameEnd]
		off += reclen
		if name == "." || name == ".." || binary.NativeEndian.Uint64(raw[nameStart-19:]) == 0 {
			continue
		}
		l.ents = append(l.ents, dirent{name: name, typ: direntType(typ), off: nameStart})
	}
	return nil
}

func direntType(t uint8) fs.FileMode {
	switch t {
	case unix.DT_REG:
		return 0
	case unix.DT_DIR:
		return fs.ModeDir
	case unix.DT_LNK:
		return fs.ModeSymlink
	case unix.DT_FIFO:
		return fs.ModeNamedPipe
	case unix.DT_SOCK:
		return fs.ModeSocket
	case unix.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case unix.DT_BLK:
		return fs.ModeDevice
	}
	return fs.ModeIrregular // DT_UNKNOWN: resolved by statType
}

// statType resolves an entry whose type the file system did not report.
func (l *dirList) statType(e *dirent) {
	if e.typ != fs.ModeIrregular {
		return
	}
	if m, err := l.stat(e); err == nil {
		e.typ = m.typ
	}
}

// stat is lstat of the entry, relative to the open directory. The name is
// passed straight from the getdents buffer, where it is NUL-terminated.
func (l *dirList) stat(e *dirent) (fileMeta, error) {
	var st unix.Stat_t
	p := unsafe.Pointer(&l.raw[e.off])
	for {
		_, _, errno := unix.Syscall6(unix.SYS_NEWFSTATAT, uintptr(l.fd), uintptr(p), uintptr(unsafe.Pointer(&st)), unix.AT_SYMLINK_NOFOLLOW, 0, 0)
		if errno == unix.EINTR {
			continue
		}
		if errno != 0 {
			return fileMeta{}, errno
		}
		break
	}
	m := fileMeta{size: st.Size, mtime: time.Unix(int64(st.Mtim.Sec), int64(st.Mtim.Nsec))}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
	case unix.S_IFDIR:
		m.typ = fs.ModeDir
	case unix.S_IFLNK:
		m.typ = fs.ModeSymlink
	default:
		m.typ = fs.ModeIrregular
	}
	return m, nil
}

// openFile opens the entry whose name starts at off in the listing (see
// dirent.off) for reading, relative to the open directory: the kernel
// resolves one component, not the file's whole path. A link is not
// followed (the walk passed on a regular file; one swapped for a link
// since fails with ELOOP), so the file opened is inside the directory
// whatever happened to the path above it. ok is false when the listing has
// no descriptor.
func (l *dirList) openFile(off int) (fd int, ok bool, err error) {
	if !l.isOpen || off <= 0 || off >= len(l.raw) {
		return -1, false, nil
	}
	p := unsafe.Pointer(&l.raw[off])
	call := unix.Syscall6
	if l.direct {
		call = unix.RawSyscall6
	}
	for {
		r, _, errno := call(unix.SYS_OPENAT, uintptr(l.fd), uintptr(p),
			unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NOCTTY|unix.O_NONBLOCK|unix.O_NOFOLLOW, 0, 0, 0)
		switch errno {
		case 0:
			return int(r), true, nil
		case unix.EINTR:
			continue
		}
		return -1, true, errno
	}
}

// directIO reports whether the listed directory's files are read with raw
// system calls (see sysFile).
func (l *dirList) directIO() bool { return l.isOpen && l.direct }

func (l *dirList) close() {
	if l.isOpen {
		unix.Close(l.fd)
		l.fd, l.isOpen = -1, false
	}
}

// childWork fills in how a subdirectory found in this listing is opened:
// beneath the start directory's handle when the walk is confined (see
// WalkOptions.Confine), else by path with its parent checked.
func (l *dirList) childWork(it *work, child *work, name string, following bool) {
	if it.root != nil && !following {
		child.root = it.root
		child.inRoot = name
		if it.inRoot != "." {
			child.inRoot = it.inRoot + "/" + name
		}
		return
	}
	child.check = !following
	child.parentID = l.id
}

// openBeneath opens the directory rel below the start directory r with
// one openat2(2): RESOLVE_BENEATH and RESOLVE_NO_SYMLINKS refuse any
// component that is (or was swapped for) a link, and any climb out of r.
// Where openat2 is unavailable (kernel before 5.6, a seccomp filter) it
// opens through os.Root, which also stays beneath r.
func openBeneath(r *walkRoot, rel string) (int, error) {
	if r.fd >= 0 && !r.noOpenat2.Load() {
		for {
			fd, err := unix.Openat2(r.fd, rel, &unix.OpenHow{
				Flags:   unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC,
				Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
			})
			switch {
			case err == unix.EINTR || err == unix.EAGAIN:
				continue // a rename raced the lookup: the kernel asks for a retry
			case err == unix.ENOSYS || err == unix.EPERM:
				r.noOpenat2.Store(true)
			default:
				return fd, err
			}
			break
		}
	}
	f, err := r.Open(rel)
	if err != nil {
		return -1, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return -1, err
	}
	if !fi.IsDir() {
		return -1, unix.ENOTDIR
	}
	return unix.Dup(int(f.Fd()))
}

// useRoot says whether start directories get an os.Root to confine the
// walk when not asked to (WalkOptions.Confine); Linux checks each
// directory's parent instead (work.check).
const useRoot = false

// useRootFd says whether a walkRoot keeps a descriptor for openBeneath.
const useRootFd = true
