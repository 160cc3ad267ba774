//go:build linux

package native

import (
	"errors"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// sysFile is an open file's descriptor and how to call the kernel about it.
//
// With direct set, read and close are raw system calls: the goroutine keeps
// its P across them, as a thread of rg keeps its CPU. Go's usual system call
// tells the scheduler it may block; a read that outlasts one tick of the
// runtime's monitor then has its P handed to another thread, which finds
// nothing to do and parks, and the reader, back from the kernel, waits for
// a P again. Over the Linux tree that was some 4,000 thread switches a
// search and a tenth of its wall time. direct is set only for files on a
// local disk or in memory (see localDevice), where a read is as short as
// the page fault of a mapped file, which holds its P the same way; a read
// on a network or FUSE file system can wait for as long as that file
// system likes, and keeps Go's usual call.
type sysFile struct {
	fd     int
	direct bool
}

// read is read(2), retried when a signal interrupts it.
func (f sysFile) read(p []byte) (int, error) {
	for {
		var n int
		var err error
		if f.direct {
			var ptr unsafe.Pointer
			if len(p) > 0 {
				ptr = unsafe.Pointer(&p[0])
			}
			r, _, errno := unix.RawSyscall(unix.SYS_READ, uintptr(f.fd), uintptr(ptr), uintptr(len(p)))
			n = int(r)
			if errno != 0 {
				n, err = 0, errno
			}
		} else {
			n, err = unix.Read(f.fd, p)
		}
		if !errors.Is(err, unix.EINTR) {
			return n, err
		}
	}
}

func (f sysFile) close() {
	if f.direct {
		unix.RawSyscall(unix.SYS_CLOSE, uintptr(f.fd), 0, 0)
		return
	}
	unix.Close(f.fd)
}

// localDevices caches localDevice's answer per device number.
var localDevices sync.Map // uint64 → bool

// localDevice reports whether the device dev, holding the open directory
// fd, is a file system whose reads never wait on anything but a local disk:
// the common Linux disk and memory file systems. Anything else (NFS, SMB,
// FUSE, 9p, an unknown kind) is not.
func localDevice(dev uint64, fd int) bool {
	if v, ok := localDevices.Load(dev); ok {
		return v.(bool)
	}
	var st unix.Statfs_t
	local := unix.Fstatfs(fd, &st) == nil && localFSType(uint32(st.Type))
	localDevices.Store(dev, local)
	return local
}

// localFSType reports whether a file system of type t (statfs's f_type)
// keeps its files on a local disk or in memory.
func localFSType(t uint32) bool {
	switch t {
	case unix.EXT4_SUPER_MAGIC, unix.XFS_SUPER_MAGIC, unix.BTRFS_SUPER_MAGIC,
		unix.F2FS_SUPER_MAGIC, unix.BCACHEFS_SUPER_MAGIC, zfsSuperMagic,
		unix.TMPFS_MAGIC, unix.RAMFS_MAGIC, unix.OVERLAYFS_SUPER_MAGIC, unix.SQUASHFS_MAGIC:
		return true
	}
	return false
}

// zfsSuperMagic is what OpenZFS reports as its file system type.
const zfsSuperMagic = 0x2fc12fc1

// getdents is getdents64(2) on the open directory f.
func (f sysFile) getdents(p []byte) (int, error) {
	if !f.direct {
		return unix.Getdents(f.fd, p)
	}
	var ptr unsafe.Pointer
	if len(p) > 0 {
		ptr = unsafe.Pointer(&p[0])
	}
	r, _, errno := unix.RawSyscall(unix.SYS_GETDENTS64, uintptr(f.fd), uintptr(ptr), uintptr(len(p)))
	if errno != 0 {
		return -1, errno
	}
	return int(r), nil
}
