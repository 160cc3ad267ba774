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
	rel    string // the directory's path relative to the root (a loop's message names it)
}

// loopLink records directory abs (rel under the root) under parent; nil
// when not following links.
func (w *walker) loopLink(parent *loopLink, abs, rel string) *loopLink {
	if !w.o.FollowSymlinks {
		return nil
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return parent
	}
	return &loopLink{parent: parent, fi: fi, rel: rel}
}

// followLink checks a followed link to a directory (target info fi) against
// the walked ancestors; it returns the link for the new directory (rel
// under the root), or the ancestor the target is (a loop).
func (w *walker) followLink(parent *loopLink, fi fs.FileInfo, rel string) (link, ancestor *loopLink) {
	for a := parent; a != nil; a = a.parent {
		if os.SameFile(a.fi, fi) {
			return nil, a
		}
	}
	return &loopLink{parent: parent, fi: fi, rel: rel}, nil
}
