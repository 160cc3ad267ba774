//go:build !(linux && (amd64 || arm64))

package native

import (
	"os"
	"path/filepath"
)

// dirList is one directory's entries, read with os.File.ReadDir (the
// portable path; Linux on amd64/arm64 uses getdents64 directly).
type dirList struct {
	ents []dirent
	dir  string
}

// open opens and lists the work's directory: through the start
// directory's os.Root when links are not followed (see work.root).
func (l *dirList) open(it *work) error {
	l.ents = l.ents[:0]
	l.dir = it.abs
	var f *os.File
	var err error
	if it.root != nil {
		f, err = it.root.Open(it.inRoot)
	} else {
		f, err = os.Open(it.abs)
	}
	if err != nil {
		return err
	}
	defer f.Close()
	ents, err := f.ReadDir(-1)
	for _, e := range ents {
		l.ents = append(l.ents, dirent{name: e.Name(), typ: e.Type()})
	}
	return err
}

func (l *dirList) statType(e *dirent) {}

func (l *dirList) stat(e *dirent) (fileMeta, error) {
	fi, err := os.Lstat(filepath.Join(l.dir, e.name))
	if err != nil {
		return fileMeta{}, err
	}
	return fileMeta{size: fi.Size(), mtime: fi.ModTime(), typ: fi.Mode().Type()}, nil
}

func (l *dirList) close() {}

// openFile is Linux's open relative to the listed directory; here files
// are opened by the Source (ok is false).
func (l *dirList) openFile(off int) (fd int, ok bool, err error) { return -1, false, nil }

// directIO is false: files are read through os.File here.
func (l *dirList) directIO() bool { return false }

// childWork fills in how a subdirectory found in this listing is opened.
func (l *dirList) childWork(it *work, child *work, name string, following bool) {
	if it.root != nil && !following {
		child.root, child.inRoot = it.root, joinInRoot(*it, name)
	}
}

// useRoot says whether start directories get an os.Root to confine the walk.
const useRoot = true

// useRootFd says whether a walkRoot keeps a descriptor (Linux's openat2).
const useRootFd = false

// joinInRoot is a child directory's path within the work's root.
func joinInRoot(it work, name string) string {
	if it.root == nil {
		return ""
	}
	if it.inRoot == "." {
		return name
	}
	return filepath.Join(it.inRoot, name)
}
