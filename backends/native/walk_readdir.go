package native

import "os"

// readDirents lists a directory's entries (unsorted) into buf.
func readDirents(dir string, buf []dirent) ([]dirent, error) {
	f, err := os.Open(dir)
	if err != nil {
		return buf, err
	}
	defer f.Close()
	ents, err := f.ReadDir(-1)
	for _, e := range ents {
		buf = append(buf, dirent{name: e.Name(), typ: e.Type()})
	}
	return buf, err
}
