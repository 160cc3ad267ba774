package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrRootReplaced is returned (wrapped) when the workspace root's path no
// longer names the directory the Workspace opened: it was renamed away,
// deleted, or replaced by a symbolic link to somewhere else.
var ErrRootReplaced = errors.New("the workspace root was replaced")

// The Sandbox holds the root directory open (an os.Root) for its whole
// life. Read opens files beneath that handle, and Grep and Glob give their
// engines a directory opened beneath it (OpenDir, search.Query.Confine):
// the engines open every directory and file beneath it, so neither a root
// path swapped for a link to another directory after the start, nor a
// directory inside swapped for a link mid-search, can lead them outside.
// The root path is still checked before and after each call (Intact), so
// a replaced root is reported instead of searched.

// Intact reports whether the root path still names the directory held
// open since NewSandbox: the same device and inode, reached without a
// symbolic link. The error wraps ErrRootReplaced and tells what to do.
func (s *Sandbox) Intact() error {
	held, err := s.handle.Stat(".")
	if err != nil {
		return s.replaced(err)
	}
	cur, err := os.Lstat(s.root)
	switch {
	case err != nil:
		return s.replaced(err)
	case cur.Mode()&fs.ModeSymlink != 0:
		return s.replaced(errors.New("it is now a symbolic link"))
	case !os.SameFile(held, cur):
		return s.replaced(errors.New("it now names another directory"))
	}
	return nil
}

func (s *Sandbox) replaced(cause error) error {
	return fmt.Errorf("%w: %s no longer names the directory opened when the server started (%v); nothing is searched or shown until the server is restarted on the intended directory",
		ErrRootReplaced, s.root, cause)
}

// OpenFile opens rel (slash-separated, relative to the root) beneath the
// held root: no symbolic link or "..", and no change of the root's path,
// can make it open a file outside.
func (s *Sandbox) OpenFile(rel string, flag int) (*os.File, error) {
	return s.handle.OpenFile(filepath.FromSlash(rel), flag, 0)
}

// OpenDir opens the directory rel (slash-separated, relative to the root)
// beneath the held root, following links only while they stay inside, for
// an engine to search beneath (search.Query.Confine). The caller closes it.
func (s *Sandbox) OpenDir(rel string) (*os.Root, error) {
	return s.handle.OpenRoot(filepath.FromSlash(rel))
}

// Lstat describes rel beneath the held root, without following a final
// symbolic link.
func (s *Sandbox) Lstat(rel string) (fs.FileInfo, error) {
	return s.handle.Lstat(filepath.FromSlash(rel))
}

// Close releases the held root directory.
func (s *Sandbox) Close() error { return s.handle.Close() }
