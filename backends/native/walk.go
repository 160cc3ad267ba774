package native

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rgkit/rgkit/search"
)

// ErrStopWalk is returned by a Walk callback to end the walk early without an
// error.
var ErrStopWalk = errors.New("native: stop walk")

// WalkOptions selects the files Walk lists. The zero value of every field is
// rg's default file selection.
type WalkOptions struct {
	// Root is the directory result paths are relative to.
	Root string
	// Paths are files or directories under Root to walk; empty means Root.
	// Like rg, a path given here is walked even if it is hidden or ignored,
	// a file given here is listed without any filter, and a symbolic link
	// given here is followed.
	Paths []string
	// Hidden lists hidden files and descends into hidden directories.
	Hidden bool
	// NoIgnore disables every ignore file the walk finds (.gitignore,
	// .ignore, .rgignore, .git/info/exclude, the global excludes file);
	// IgnoreFiles still apply, as rg's --ignore-file does under --no-ignore.
	NoIgnore bool
	// NoIgnoreDot, NoIgnoreVCS, NoIgnoreExclude, NoIgnoreGlobal,
	// NoIgnoreParent and NoRequireGit are rg's finer switches (see
	// search.Query); NoIgnore is the first five together.
	NoIgnoreDot, NoIgnoreVCS, NoIgnoreExclude, NoIgnoreGlobal, NoIgnoreParent bool
	NoRequireGit                                                              bool
	// IgnoreCaseInsensitive compares the globs of ignore files ignoring
	// ASCII case (not IgnoreFiles', as in rg).
	IgnoreCaseInsensitive bool
	// IgnoreFiles are rg --ignore-file files: below every other ignore
	// file, the later above the earlier, matched against paths relative
	// to Root, applied whatever the other switches say. A file that cannot
	// be read adds no rules (see IgnoreFileErrors).
	IgnoreFiles []string
	// IGlobs are Globs compared ignoring ASCII case, after Globs (rg
	// --iglob); GlobCaseInsensitive folds Globs too.
	IGlobs              []string
	GlobCaseInsensitive bool
	// TypeSelections are resolved rg -t/-T selections after TypeGlobs
	// (see search.Query.TypeSelections).
	TypeSelections []search.TypeSelection
	// MaxDepth, when MaxDepthSet, lists only entries at most this many
	// levels below each start directory (rg -d; 0 lists none).
	MaxDepth    int
	MaxDepthSet bool
	// OneFileSystem does not descend into a directory on another device
	// than its start directory (rg --one-file-system).
	OneFileSystem bool
	// GlobBase is prefixed (with a '/') to a path relative to Root before
	// Globs, IGlobs, IgnoreFiles and the global excludes file match it
	// (see search.Query.GlobBase).
	GlobBase string
	// GlobCwd is removed from the front of a path so prefixed, with the
	// slash after it (search.Query.GlobCwd).
	GlobCwd string
	// GitDir treats .git as an ordinary hidden directory (rg's rule);
	// unset, .git is never entered.
	GitDir bool
	// FollowSymlinks follows symbolic links while recursing; a link back to
	// an ancestor directory is skipped (loop detection by device and inode).
	FollowSymlinks bool
	// MaxFileSize skips files larger than this many bytes; 0 = no limit.
	MaxFileSize int64
	// Globs are rg --glob overrides: a plain glob whitelists, "!glob"
	// excludes, the last match wins (see overrides).
	Globs []string
	// TypeGlobs are rg --type globs (matched against file names); when
	// non-empty a file must match one.
	TypeGlobs []string
	// NoStat skips the per-file stat unless one is needed anyway
	// (MaxFileSize, following a link): File.Size is then -1 (unknown) and
	// File.ModTime zero. Listing costs one system call per directory
	// instead of one per file, like rg --files; a caller that opens the
	// file can fstat it itself.
	NoStat bool
	// Workers bounds the goroutines listing directories and calling fn;
	// 0 means GOMAXPROCS.
	Workers int
	// Confine, when set, is the directory Root names, held open by the
	// caller: start paths are resolved beneath it (links followed only
	// while they stay inside) and every directory below a start is opened
	// beneath the start's handle, never through a path string from "/", so
	// a directory swapped for a link to elsewhere mid-walk cannot lead the
	// walk out. A start path leading outside is counted unreadable.
	// FollowSymlinks with Confine is refused.
	Confine *os.Root
	// OnError, when set, hears of every directory the walk could not list
	// and every entry it could not follow or stat (a broken link, a loop
	// under FollowSymlinks): rg reports each one. It may be called from
	// several goroutines at once. WalkStats.Unreadable counts them either
	// way.
	OnError func(search.FileError)
	// Getenv looks up HOME, XDG_CONFIG_HOME, GIT_CONFIG_GLOBAL and
	// GIT_CONFIG_SYSTEM to find the global git excludes file, as rg does;
	// nil means os.Getenv.
	Getenv func(string) string
	// openAt hands each File the directory listing it came from, so the
	// file can be opened relative to the directory's descriptor by its
	// one-component name (see dirList.openFile) instead of resolving its whole
	// path again. Only for a callback that is done with the file when it
	// returns: the descriptor is closed once the directory is listed.
	openAt bool
	// inOrder, when set, has the walk visit every directory's entries in
	// name order (its subdirectories are queued before its files are
	// passed on), and is called as the walk moves on: every file whose path sorts
	// before upTo (search.ComparePaths) has been passed to the callback,
	// and the callback has returned. It may be called from several
	// goroutines at once, and an upTo may come after a later one. rg
	// --sort path prints as it walks, in order, instead of holding the
	// whole output until the end (Engine.InOrder).
	inOrder func(upTo string)
}

// File is one file Walk lists.
type File struct {
	Path    string // relative to Root, forward slashes
	Abs     string // absolute path
	Size    int64  // -1 when not stat'ed (NoStat)
	ModTime time.Time
	// dir and nameOff, set by a walk with WalkOptions.openAt, are the open
	// listing the file was found in and its name's place there; valid only
	// while the walk's callback runs.
	dir     *dirList
	nameOff int
}

// WalkStats counts what a walk saw.
type WalkStats struct {
	Files      int64 // files passed to fn
	TooLarge   int64 // files skipped for MaxFileSize
	Unreadable int64 // directories or files that could not be read or stat'ed (incl. broken links when following)
	Skipped    int64 // entries excluded by ignore rules, globs, types, hidden, .git, symlinks not followed, or not regular files
}

// Walk lists the files rg would search under o.Root (rg 15.2's default file
// selection, adjusted by o; Root is taken as rg's working directory) and calls fn for each, concurrently from up to
// o.Workers goroutines, in no particular order. fn returning ErrStopWalk ends
// the walk without error; any other error ends it and is returned. Only
// regular files (or links to them when following) are passed; FIFOs,
// sockets and devices never are, so nothing here can block on open.
func Walk(ctx context.Context, o WalkOptions, fn func(File) error) (WalkStats, error) {
	w, err := newWalker(ctx, o, fn)
	if err != nil {
		return WalkStats{}, err
	}
	w.run()
	st := WalkStats{
		Files:      w.files.Load(),
		TooLarge:   w.tooLarge.Load(),
		Unreadable: w.unreadable.Load(),
		Skipped:    w.skipped.Load(),
	}
	if err := w.err(); err != nil {
		return st, err
	}
	return st, ctx.Err()
}

// walker is one Walk in progress.
type walker struct {
	ctx      context.Context
	o        WalkOptions
	fn       func(File) error
	root     string // absolute, clean
	ign      ignoreOpts
	explicit []*ignoreFile // IgnoreFiles, the last first
	over     *overrides
	types    *typeFilter
	global   *ignoreFile

	q workQueue

	files, tooLarge, unreadable, skipped atomic.Int64

	rootsMu sync.Mutex
	roots   []*walkRoot // closed when the walk ends

	stopped  atomic.Bool
	errMu    sync.Mutex
	firstErr error
}

func newWalker(ctx context.Context, o WalkOptions, fn func(File) error) (*walker, error) {
	root, err := filepath.Abs(o.Root)
	if err != nil {
		return nil, err
	}
	if o.Confine != nil && o.FollowSymlinks {
		return nil, errConfinedFollow
	}
	w := &walker{ctx: ctx, o: o, fn: fn, root: root, ign: ignoreOptsFor(o)}
	if w.over, err = newOverridesFold(o.Globs, o.IGlobs, o.GlobCaseInsensitive); err != nil {
		return nil, err
	}
	if w.types, err = newTypeFilterSelections(o.TypeGlobs, o.TypeSelections); err != nil {
		return nil, err
	}
	if w.ign.global {
		getenv := o.Getenv
		if getenv == nil {
			getenv = os.Getenv
		}
		if p := globalExcludesPath(getenv); p != "" {
			w.global = readIgnoreFile(p, w.ign.fold)
		}
	}
	for i := len(o.IgnoreFiles) - 1; i >= 0; i-- {
		if f := readIgnoreFile(o.IgnoreFiles[i], false); f != nil {
			w.explicit = append(w.explicit, f)
		}
	}
	return w, nil
}

// stop ends the walk; the first non-nil err is the walk's result.
func (w *walker) stop(err error) {
	if err != nil && !errors.Is(err, ErrStopWalk) {
		w.errMu.Lock()
		if w.firstErr == nil {
			w.firstErr = err
		}
		w.errMu.Unlock()
	}
	w.stopped.Store(true)
	w.q.close()
}

// fail counts an entry the walk could not read and reports it.
func (w *walker) fail(rel string, err error) {
	w.unreadable.Add(1)
	if w.o.OnError != nil {
		w.o.OnError(search.FileError{Path: rel, Walk: true, Err: err})
	}
}

func (w *walker) err() error {
	w.errMu.Lock()
	defer w.errMu.Unlock()
	return w.firstErr
}

// run walks every start path with a pool of workers.
func (w *walker) run() {
	paths := w.o.Paths
	if len(paths) == 0 {
		paths = []string{""}
	}
	var missing error
	var starts []work
	for _, p := range paths {
		rel := filepath.ToSlash(filepath.Clean(p))
		if rel == "." {
			rel = ""
		}
		abs := w.root
		if rel != "" {
			abs = filepath.Join(w.root, filepath.FromSlash(rel))
		}
		fi, err := w.statStart(rel, abs) // explicit paths are followed, like rg
		if err != nil {
			w.unreadable.Add(1)
			if missing == nil {
				missing = err
			}
			continue
		}
		switch {
		case fi.IsDir():
			starts = append(starts, w.startWork(abs, rel))
		case fi.Mode().IsRegular():
			if err := w.emit(rel, abs, fi); err != nil {
				w.stop(err)
				return
			}
		default:
			w.skipped.Add(1)
		}
	}
	if w.o.inOrder != nil {
		w.q.ordered = true
		slices.Reverse(starts) // the queue is a stack: the first start is listed first
	}
	for _, it := range starts {
		w.q.push(it)
	}
	n := w.o.Workers
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.worker()
		}()
	}
	wg.Wait()
	for _, r := range w.roots {
		r.close()
	}
	if missing != nil && !w.stopped.Load() {
		w.stop(fmt.Errorf("walk: %w", missing))
	}
}

// startWork is the work item for a start directory: the ignore chain of its
// ancestors (read once), and its own path.
func (w *walker) startWork(abs, rel string) work {
	canon, err := filepath.EvalSymlinks(abs)
	if err != nil {
		canon = abs
	}
	it := work{abs: abs, rel: rel, loop: w.loopLink(nil, abs, rel)}
	if w.ign.parents || w.ign.vcs || w.ign.exclude || w.ign.global {
		// rg reads the directories above only when their files or
		// their being a repository can matter (Ignore::add_parents).
		it.parent = ancestors(canon, rel, &w.ign)
	}
	if w.o.OneFileSystem {
		it.dev, it.devKnown = deviceOf(abs)
	}
	if (useRoot || w.o.Confine != nil) && !w.o.FollowSymlinks {
		// The start itself may be a link (rg follows a named one); below
		// it the walk stays inside.
		if r, err := w.openStart(rel, abs); err == nil {
			w.rootsMu.Lock()
			w.roots = append(w.roots, r)
			w.rootsMu.Unlock()
			it.root, it.inRoot = r, "."
		} else if w.o.Confine != nil {
			it.unreachable = true // never listed by its path string
		}
	}
	return it
}

// errOutsideRoot is a confined start directory that could not be opened
// beneath the root.
var errOutsideRoot = errors.New("cannot be opened beneath the root")

// errConfinedFollow refuses WalkOptions with both Confine and FollowSymlinks.
var errConfinedFollow = errors.New("walk: following symbolic links cannot be confined beneath the root")

// statStart describes a start path, following links: beneath Confine when
// set (a link leading outside is an error), else by its path.
func (w *walker) statStart(rel, abs string) (fs.FileInfo, error) {
	if w.o.Confine == nil {
		return os.Stat(abs)
	}
	return w.o.Confine.Stat(filepath.FromSlash(relOrDot(rel)))
}

// openStart holds a start directory open for the walk below it: beneath
// Confine when set, else by its path.
func (w *walker) openStart(rel, abs string) (*walkRoot, error) {
	var r *os.Root
	var err error
	if w.o.Confine != nil {
		r, err = w.o.Confine.OpenRoot(filepath.FromSlash(relOrDot(rel)))
	} else {
		r, err = os.OpenRoot(abs)
	}
	if err != nil {
		return nil, err
	}
	return newWalkRoot(r), nil
}

func relOrDot(rel string) string {
	if rel == "" {
		return "."
	}
	return rel
}

// emit passes one file to fn.
func (w *walker) emit(rel, abs string, fi fs.FileInfo) error {
	w.files.Add(1)
	return w.fn(File{Path: rel, Abs: abs, Size: fi.Size(), ModTime: fi.ModTime()})
}

func (w *walker) worker() {
	var l dirList
	var later deferredEntries
	for {
		it, ok := w.q.pop()
		if !ok {
			return
		}
		if w.ctx.Err() != nil {
			w.stop(nil)
		} else if !w.stopped.Load() {
			w.listDir(it, &l, &later)
		}
		if upTo, ok := w.q.done(it); ok {
			w.o.inOrder(upTo)
		}
	}
}
