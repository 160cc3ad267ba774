package native

import (
	"io/fs"
	"os"
)

// loopLink is one directory on the walked path, so that a followed link back
// to an ancestor is recognised (rg's check_symlink_loop compares device and
// inode; os.SameFile does the same, portably). Only kept when following
// links.
type loopLink struct {
	parent *loopLink
	fi     fs.FileInfo
}

// loopLink records directory abs under parent; nil when not following links.
func (w *walker) loopLink(parent *loopLink, abs string) *loopLink {
	if !w.o.FollowSymlinks {
		return nil
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return parent
	}
	return &loopLink{parent: parent, fi: fi}
}

// followLink checks a followed link to a directory (target info fi) against
// the walked ancestors; it returns the link for the new directory, and true
// when the target is an ancestor (a loop).
func (w *walker) followLink(parent *loopLink, fi fs.FileInfo) (*loopLink, bool) {
	for a := parent; a != nil; a = a.parent {
		if os.SameFile(a.fi, fi) {
			return nil, true
		}
	}
	return &loopLink{parent: parent, fi: fi}, false
}
