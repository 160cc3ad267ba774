package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxPathLen bounds a path argument; longer ones are refused before any
// system call (PATH_MAX is 4096 on Linux).
const maxPathLen = 4096

// Sandbox confines the paths a model names to one directory tree.
//
// The root is canonicalised once (absolute, symlinks resolved), and every
// requested path is resolved the same way before it is compared with the
// root, so "..", absolute paths, symlinks and symlinked parents cannot lead
// outside. The resolved path, never the model's string, is what a search or a
// read then uses, and the result is confirmed beneath the root directory
// held open since the start (see Intact and OpenFile).
type Sandbox struct {
	root   string   // absolute, cleaned, symlinks resolved
	handle *os.Root // the root directory, open for the Sandbox's life
}

// NewSandbox canonicalises root (filepath.Abs, then filepath.EvalSymlinks),
// checks that it is a directory and holds it open; Close releases it.
func NewSandbox(root string) (*Sandbox, error) {
	if root == "" {
		return nil, errors.New("workspace root is empty")
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("workspace root %q: %w", root, err)
	}
	canon, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("workspace root %q: %w", root, err)
	}
	fi, err := os.Stat(canon)
	if err != nil {
		return nil, fmt.Errorf("workspace root %q: %w", root, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("workspace root %q is not a directory", root)
	}
	h, err := os.OpenRoot(canon)
	if err != nil {
		return nil, fmt.Errorf("workspace root %q: %w", root, err)
	}
	s := &Sandbox{root: canon, handle: h}
	if err := s.Intact(); err != nil { // replaced between EvalSymlinks and OpenRoot
		h.Close()
		return nil, err
	}
	return s, nil
}

// Root is the canonical root directory.
func (s *Sandbox) Root() string { return s.root }

// Target is a path resolved inside the sandbox.
type Target struct {
	Abs  string      // canonical absolute path, inside the root
	Rel  string      // relative to the root, forward slashes; "." for the root itself
	Info fs.FileInfo // from Lstat after resolution: a directory or a regular file
}

// Resolve accepts p (relative to the root, or absolute) only if its fully
// resolved path lies inside the root and names an existing directory or
// regular file. An empty p means the root.
//
// A path that does not exist is resolved through its deepest existing
// ancestor first, so a missing file under a symlink pointing outside is
// reported as outside the root, not as missing. Errors are *PathError.
func (s *Sandbox) Resolve(p string) (Target, error) {
	if err := checkPathString(p); err != nil {
		return Target{}, err
	}
	if err := s.Intact(); err != nil {
		return Target{}, &PathError{Path: p, Kind: PathUnresolvable, Root: s.root, Err: err}
	}
	joined := s.root
	if p != "" {
		if filepath.IsAbs(p) {
			joined = filepath.Clean(p)
		} else {
			joined = filepath.Join(s.root, p)
		}
	}
	resolved, missing, err := resolveExisting(joined)
	if err != nil {
		return Target{}, &PathError{Path: p, Kind: PathUnresolvable, Root: s.root, Err: err}
	}
	inside, ok := s.within(resolved)
	if !ok {
		return Target{}, &PathError{Path: p, Kind: PathOutsideRoot, Resolved: resolved, Root: s.root}
	}
	if missing {
		return Target{}, &PathError{Path: p, Kind: PathNotFound, Resolved: inside, Root: s.root}
	}
	rel := s.rel(inside)
	// Confirmed beneath the held root: the string checks above say where
	// the path leads, this says it leads there inside the opened directory.
	fi, err := s.handle.Lstat(filepath.FromSlash(rel))
	if err != nil {
		if ierr := s.Intact(); ierr != nil {
			return Target{}, &PathError{Path: p, Kind: PathUnresolvable, Root: s.root, Err: ierr}
		}
		return Target{}, &PathError{Path: p, Kind: PathNotFound, Resolved: inside, Root: s.root, Err: err}
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		// It was resolved a moment ago: something swapped it in since.
		return Target{}, &PathError{Path: p, Kind: PathUnresolvable, Resolved: inside, Root: s.root,
			Err: errors.New("the path changed into a symbolic link while it was being checked")}
	}
	if !fi.IsDir() && !fi.Mode().IsRegular() {
		return Target{}, &PathError{Path: p, Kind: PathNotRegular, Resolved: inside, Root: s.root, Mode: fi.Mode()}
	}
	return Target{Abs: inside, Rel: rel, Info: fi}, nil
}

// checkPathString refuses strings no file system path should be: NUL bytes
// (they truncate C strings) and absurd lengths.
func checkPathString(p string) error {
	switch {
	case strings.IndexByte(p, 0) >= 0:
		return &PathError{Path: p, Kind: PathInvalid, Err: errors.New("it contains a NUL byte")}
	case len(p) > maxPathLen:
		return &PathError{Path: p[:64] + "...", Kind: PathInvalid,
			Err: fmt.Errorf("it is %d bytes long (at most %d)", len(p), maxPathLen)}
	}
	return nil
}

// resolveExisting resolves every symlink in p. When p does not exist, it
// resolves the deepest existing ancestor and appends the rest unchanged, and
// reports missing.
func resolveExisting(p string) (resolved string, missing bool, err error) {
	r, err := filepath.EvalSymlinks(p)
	if err == nil {
		return r, false, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", false, err
	}
	var rest []string
	dir := p
	for {
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false, err
		}
		rest = append([]string{filepath.Base(dir)}, rest...)
		dir = parent
		r, perr := filepath.EvalSymlinks(dir)
		if perr == nil {
			return filepath.Join(append([]string{r}, rest...)...), true, nil
		}
		if !errors.Is(perr, fs.ErrNotExist) {
			return "", false, perr
		}
	}
}

// within reports whether the canonical path p is the root or below it, with
// a separator-aware prefix test ("/a/b" is not inside "/a/bc"). On a
// case-insensitive volume p may spell the root in another case; it is then
// accepted only if that spelling names the very same directory, and is
// returned rebased onto the root's spelling.
func (s *Sandbox) within(p string) (string, bool) {
	if hasPathPrefix(p, s.root) {
		return p, true
	}
	n := len(s.root)
	if len(p) < n || !strings.EqualFold(p[:n], s.root) || (len(p) > n && !isSep(p[n]) && !isSep(s.root[n-1])) {
		return "", false
	}
	a, errA := os.Stat(p[:n])
	b, errB := os.Stat(s.root)
	if errA != nil || errB != nil || !os.SameFile(a, b) {
		return "", false
	}
	return s.root + p[n:], true
}

// hasPathPrefix reports whether p is root or lies below it.
func hasPathPrefix(p, root string) bool {
	if p == root {
		return true
	}
	if !strings.HasPrefix(p, root) {
		return false
	}
	// root "/" (or "C:\") already ends with a separator.
	return isSep(root[len(root)-1]) || isSep(p[len(root)])
}

func isSep(c byte) bool { return os.IsPathSeparator(c) }

// rel turns a canonical path inside the root into a slash-separated path
// relative to it.
func (s *Sandbox) rel(abs string) string {
	r, err := filepath.Rel(s.root, abs)
	if err != nil {
		return filepath.ToSlash(abs)
	}
	return filepath.ToSlash(r)
}

// LocalResult reports whether a path from an engine's output, relative to
// the root, stays inside it: no "..", not absolute, no empty or NUL parts.
// It is the lexical re-check every result path passes before it is shown.
func LocalResult(rel string) bool {
	if rel == "" || strings.IndexByte(rel, 0) >= 0 {
		return false
	}
	return filepath.IsLocal(filepath.FromSlash(rel))
}
