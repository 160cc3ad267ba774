package rgcli

import "syscall"

// linuxErrno is, for the errors a search meets, Linux's number and text
// for a WASI errno: WASI numbers its errors its own way (ENOENT is 44),
// and the WebAssembly build prints what rg on Linux prints.
var linuxErrno = map[syscall.Errno]struct {
	code int
	msg  string
}{
	syscall.EPERM:        {1, "Operation not permitted"},
	syscall.ENOENT:       {2, "No such file or directory"},
	syscall.EIO:          {5, "Input/output error"},
	syscall.ENXIO:        {6, "No such device or address"},
	syscall.EBADF:        {9, "Bad file descriptor"},
	syscall.EAGAIN:       {11, "Resource temporarily unavailable"},
	syscall.ENOMEM:       {12, "Cannot allocate memory"},
	syscall.EACCES:       {13, "Permission denied"},
	syscall.EBUSY:        {16, "Device or resource busy"},
	syscall.EEXIST:       {17, "File exists"},
	syscall.ENODEV:       {19, "No such device"},
	syscall.ENOTDIR:      {20, "Not a directory"},
	syscall.EISDIR:       {21, "Is a directory"},
	syscall.EINVAL:       {22, "Invalid argument"},
	syscall.EMFILE:       {24, "Too many open files"},
	syscall.EFBIG:        {27, "File too large"},
	syscall.ENOSPC:       {28, "No space left on device"},
	syscall.EROFS:        {30, "Read-only file system"},
	syscall.EPIPE:        {32, "Broken pipe"},
	syscall.ENAMETOOLONG: {36, "File name too long"},
	syscall.ENOSYS:       {38, "Function not implemented"},
	syscall.ENOTEMPTY:    {39, "Directory not empty"},
	syscall.ELOOP:        {40, "Too many levels of symbolic links"},
	syscall.ENOTSUP:      {95, "Operation not supported"},
}

// hostErrno is errno's number and text as rg on Linux prints them.
func hostErrno(errno syscall.Errno) (int, string) {
	if e, ok := linuxErrno[errno]; ok {
		return e.code, e.msg
	}
	return int(errno), errno.Error()
}
