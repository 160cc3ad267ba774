package tools

import (
	"errors"
	"fmt"
	"io/fs"
)

// PathErrorKind says why a path was refused.
type PathErrorKind int

const (
	// PathOutsideRoot: the path resolves to a place outside the workspace root.
	PathOutsideRoot PathErrorKind = iota + 1
	// PathNotFound: nothing exists at the path (inside the root).
	PathNotFound
	// PathNotRegular: the path names a FIFO, socket or device, which would
	// hang or flood a search.
	PathNotRegular
	// PathInvalid: the string cannot be a path (NUL byte, too long).
	PathInvalid
	// PathUnresolvable: resolving symlinks failed (a loop, a permission error).
	PathUnresolvable
)

// Sentinels matched by errors.Is on a *PathError of each kind.
var (
	ErrOutsideRoot  = errors.New("path is outside the workspace root")
	ErrNotFound     = errors.New("path does not exist")
	ErrNotRegular   = errors.New("path is not a regular file or directory")
	ErrInvalidPath  = errors.New("invalid path")
	ErrUnresolvable = errors.New("path cannot be resolved")
)

// PathError is a path the Sandbox refused. Its message is written for a
// model: it names the path and says what to do instead.
type PathError struct {
	Path     string // as the caller gave it
	Kind     PathErrorKind
	Resolved string      // where it led, when known
	Root     string      // the canonical workspace root
	Mode     fs.FileMode // for PathNotRegular
	Err      error       // underlying cause, if any
}

func (e *PathError) Error() string {
	switch e.Kind {
	case PathOutsideRoot:
		return fmt.Sprintf("path %q is outside the workspace root %s (it resolves to %s); only files under the root can be searched or read",
			e.Path, e.Root, e.Resolved)
	case PathNotFound:
		return fmt.Sprintf("path %q does not exist (looked for %s)", e.Path, e.Resolved)
	case PathNotRegular:
		return fmt.Sprintf("path %q is a %s, not a regular file or directory; it cannot be searched or read", e.Path, modeName(e.Mode))
	case PathInvalid:
		return fmt.Sprintf("path %q is not valid: %v", e.Path, e.Err)
	default:
		return fmt.Sprintf("path %q cannot be resolved: %v", e.Path, e.Err)
	}
}

// Is matches the sentinel of the error's kind.
func (e *PathError) Is(target error) bool {
	switch e.Kind {
	case PathOutsideRoot:
		return target == ErrOutsideRoot
	case PathNotFound:
		return target == ErrNotFound
	case PathNotRegular:
		return target == ErrNotRegular
	case PathInvalid:
		return target == ErrInvalidPath
	case PathUnresolvable:
		return target == ErrUnresolvable
	}
	return false
}

func (e *PathError) Unwrap() error { return e.Err }

func modeName(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "device"
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	}
	return "special file (" + m.Type().String() + ")"
}
