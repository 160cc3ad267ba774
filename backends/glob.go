package backends

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/backends/ripgrep"
	"github.com/rgkit/rgkit/search"
)

// GlobSort orders Glob results.
type GlobSort int

const (
	// GlobSortModified lists the most recently modified files first (Claude
	// Code's Glob order), ties by path.
	GlobSortModified GlobSort = iota
	// GlobSortPath lists files by path, byte-wise.
	GlobSortPath
)

// GlobQuery asks for the files under Root whose path matches Pattern.
//
// Pattern follows rg --glob exactly (it is passed to `rg --files --glob`, and
// the native walker implements the same rules): doublestar syntax with
// {a,b} alternates and [..] classes; a pattern without '/' matches the file
// name at any depth ("*.go"); a pattern with '/' is anchored to Root
// ("src/*.go", "src/**"), as is one starting with "./" ("./main.go" is
// only Root's main.go); a leading "!" inverts it. As with rg --glob, a
// matching file is listed even when it is hidden or ignored (a glob
// whitelists), but hidden and ignored directories are not descended unless
// Hidden / NoIgnore; .git never appears; symbolic links are not followed. A
// pattern climbing out of Root ("../x", an absolute path outside Root) is
// refused; an absolute pattern inside Root is made relative to it.
type GlobQuery struct {
	Root     string
	Pattern  string
	Hidden   bool
	NoIgnore bool
	Limit    int // at most this many files in Files; 0 = no limit
	Sort     GlobSort
	// PathsOnly, with GlobSortPath, leaves each file's ModTime and Size
	// zero: the files are listed from their directories' entries alone,
	// as rg --files lists them, without a stat of each (a fifth of the
	// time of listing GOROOT/src). GlobSortModified needs the times and
	// reads them whatever this says.
	PathsOnly bool
	// Ripgrep, when set and available, lists the files (rg --files); nil or
	// unavailable means the native walker. *Ripgrep satisfies it.
	Ripgrep interface {
		Available(ctx context.Context) (search.Info, error)
	}
	// Confine, when set, is the directory Root names, held open by the
	// caller: the listing is made by the native walker beneath it (see
	// native.WalkOptions.Confine), never by rg, which opens path strings,
	// so a directory swapped for a link mid-listing cannot add names from
	// outside.
	Confine *os.Root
	// Getenv is how HOME, XDG_CONFIG_HOME, GIT_CONFIG_GLOBAL and
	// GIT_CONFIG_SYSTEM are found for the global git excludes file (and
	// passed to rg); nil = os.Getenv.
	Getenv func(string) string
}

// GlobFile is one matching file.
type GlobFile struct {
	Path    string // relative to Root, forward slashes
	ModTime time.Time
	Size    int64
}

// GlobResult is what Glob found.
type GlobResult struct {
	Files     []GlobFile // sorted, at most Limit
	Total     int        // matching files before Limit
	Truncated bool       // Total > len(Files)
	Backend   string     // "ripgrep" or "native"
}

// ErrGlobOutsideRoot is a Glob pattern that reaches above its root.
var ErrGlobOutsideRoot = errors.New("glob pattern reaches outside the root")

// Glob lists the files matching q.Pattern, sorted and capped in the library
// whichever engine listed them.
func Glob(ctx context.Context, q GlobQuery) (GlobResult, error) {
	root, pattern, err := normalizeGlobQuery(q)
	if err != nil {
		return GlobResult{}, err
	}
	q.Root, q.Pattern = root, pattern
	if q.Getenv == nil {
		q.Getenv = os.Getenv
	}
	var files []GlobFile
	backend := "native"
	if rg, ok := q.Ripgrep.(*ripgrep.Engine); ok && rg == nil {
		q.Ripgrep = nil // a nil *Ripgrep means native only, too
	}
	if q.Ripgrep != nil && q.Confine == nil {
		// Only an rg that selects files as the reference does lists them
		// (an older rg reads some globs and ignore files differently); a
		// confined listing never goes to rg, which opens path strings.
		if info, err := q.Ripgrep.Available(ctx); err == nil && info.Path != "" && selectsLikeReference(info.Version) {
			files, err = globRipgrep(ctx, info.Path, q)
			switch {
			case err == nil:
				backend = "ripgrep"
			case ctx.Err() != nil:
				return GlobResult{}, err
			default:
				files = nil // rg failed to run: the native walker answers
			}
		}
	}
	if backend == "native" {
		if files, err = globNative(ctx, q); err != nil {
			return GlobResult{}, err
		}
	}
	sortGlobFiles(files, q.Sort)
	res := GlobResult{Total: len(files), Backend: backend, Files: files}
	if q.Limit > 0 && len(files) > q.Limit {
		res.Files = files[:q.Limit:q.Limit]
		res.Truncated = true
	}
	return res, nil
}

// normalizeGlobQuery checks the root and the pattern and returns them in the
// form both engines receive.
func normalizeGlobQuery(q GlobQuery) (root, pattern string, err error) {
	root = q.Root
	if root == "" {
		root = "."
	}
	if root, err = filepath.Abs(root); err != nil {
		return "", "", err
	}
	var fi os.FileInfo
	if q.Confine != nil {
		fi, err = q.Confine.Stat(".")
	} else {
		fi, err = os.Stat(root)
	}
	if err != nil {
		return "", "", fmt.Errorf("glob root: %w", err)
	}
	if !fi.IsDir() {
		return "", "", fmt.Errorf("glob root %s: not a directory", root)
	}
	pattern = q.Pattern
	if pattern == "" {
		return "", "", errors.New("glob: empty pattern")
	}
	neg := strings.HasPrefix(pattern, "!")
	body := strings.TrimPrefix(pattern, "!")
	if filepath.IsAbs(body) {
		rel, err := filepath.Rel(root, filepath.Clean(body))
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "", "", fmt.Errorf("%w: %q is not under %s", ErrGlobOutsideRoot, q.Pattern, root)
		}
		if rel == "." {
			return "", "", fmt.Errorf("glob: pattern %q names the root itself, not files", q.Pattern)
		}
		// Anchored to Root, as an absolute path is.
		body = "/" + filepath.ToSlash(rel)
		if strings.HasSuffix(q.Pattern, "/") {
			body += "/"
		}
	}
	for _, part := range strings.Split(body, "/") {
		if part == ".." {
			return "", "", fmt.Errorf("%w: %q has a '..' component", ErrGlobOutsideRoot, q.Pattern)
		}
	}
	if strings.HasPrefix(body, "./") {
		body = body[1:] // "./x" anchors to Root, like rg's "/x"
	}
	if neg {
		body = "!" + body
	}
	if err := native.CheckGlob(body); err != nil {
		return "", "", err
	}
	return root, body, nil
}

// globNative lists the matches with the native walker.
func globNative(ctx context.Context, q GlobQuery) ([]GlobFile, error) {
	var mu sync.Mutex
	var files []GlobFile
	_, err := native.Walk(ctx, native.WalkOptions{
		Root:     q.Root,
		Hidden:   q.Hidden,
		NoIgnore: q.NoIgnore,
		Globs:    []string{q.Pattern},
		Getenv:   q.Getenv,
		Confine:  q.Confine,
		NoStat:   q.pathsOnly(),
	}, func(f native.File) error {
		mu.Lock()
		files = append(files, GlobFile{Path: f.Path, ModTime: f.ModTime, Size: max(f.Size, 0)}) // -1: not read (PathsOnly)
		mu.Unlock()
		return nil
	})
	return files, err
}

// pathsOnly says the files' times and sizes are not wanted (PathsOnly).
func (q GlobQuery) pathsOnly() bool { return q.PathsOnly && q.Sort == GlobSortPath }

// sortGlobFiles orders files: newest first or by path; ties by path, so the
// order is the same whichever engine listed them.
func sortGlobFiles(files []GlobFile, by GlobSort) {
	slices.SortFunc(files, func(a, b GlobFile) int {
		if by == GlobSortModified {
			if c := b.ModTime.Compare(a.ModTime); c != 0 {
				return c
			}
		}
		return cmp.Compare(a.Path, b.Path)
	})
}

// selectsLikeReference reports whether ripgrep release v lists the same
// files as the reference (search.Differences has no file-selection row).
func selectsLikeReference(v string) bool {
	diffs, err := search.Differences(v)
	if err != nil {
		return false
	}
	for _, d := range diffs {
		switch d {
		case search.FileSelection15, search.FileSelection14, search.ParentIgnoreUnderSubpath, search.TypeTable:
			return false
		}
	}
	return true
}
