package archive

import "fmt"

// ErrorKind says why an archive was refused.
type ErrorKind int

const (
	// NotFound: the wanted member is not in the archive.
	NotFound ErrorKind = iota + 1
	// Traversal: some entry (or link target) is not a local name: "..",
	// absolute, a backslash, a drive letter or a NUL byte.
	Traversal
	// Link: the wanted member is a symbolic or hard link.
	Link
	// NotRegular: the wanted member is a directory, device, FIFO or other
	// non-regular entry.
	NotRegular
	// Duplicate: the wanted member (or the .deb data member) appears twice,
	// an ambiguity attack on extractors that keep the first or the last.
	Duplicate
	// TooLarge: the member, or the total decompressed data, is over its cap.
	TooLarge
	// TooManyEntries: the archive has more entries than the cap.
	TooManyEntries
	// Corrupt: the archive is malformed or truncated, or a checksum fails.
	Corrupt
	// Unsupported: a format or compression this package does not read
	// (e.g. data.tar.zst in a .deb).
	Unsupported
)

var kindText = map[ErrorKind]string{
	NotFound:       "not found",
	Traversal:      "unsafe path",
	Link:           "is a link",
	NotRegular:     "not a regular file",
	Duplicate:      "duplicate entry",
	TooLarge:       "too large",
	TooManyEntries: "too many entries",
	Corrupt:        "corrupt archive",
	Unsupported:    "unsupported",
}

// String returns a short description, e.g. "unsafe path".
func (k ErrorKind) String() string {
	if s, ok := kindText[k]; ok {
		return s
	}
	return fmt.Sprintf("ErrorKind(%d)", int(k))
}

// Error is the error Extract returns for an archive it refuses. It names the
// entry at fault (when there is one) and why.
type Error struct {
	Kind ErrorKind
	// Entry is the archive entry at fault, as named in the archive ("" when
	// the fault is not one entry's, e.g. a truncated stream).
	Entry string
	// Detail says more, e.g. "symlink to /bin/sh" or "size 4294967296 > 67108864".
	Detail string
	// Err is the underlying error, if any (io.ErrUnexpectedEOF, zip.ErrChecksum...).
	Err error
}

func (e *Error) Error() string {
	s := "archive: "
	if e.Entry != "" {
		s += fmt.Sprintf("entry %q: ", e.Entry)
	}
	s += e.Kind.String()
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Is makes errors.Is(err, &Error{Kind: k}) match any *Error of kind k.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Kind == e.Kind && t.Entry == "" && t.Detail == "" && t.Err == nil
}
