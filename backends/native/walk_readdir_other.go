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

func (l *dirList) read(dir string) error {
	l.ents = l.ents[:0]
	l.dir = dir
	f, err := os.Open(dir)
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
