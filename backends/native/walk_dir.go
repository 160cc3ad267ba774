package native

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rgkit/rgkit/search"
)

// dirent is one directory entry: its name and type bits (fs.ModeDir,
// fs.ModeSymlink, ... ; 0 for a regular file; fs.ModeIrregular when the
// file system did not say). off is platform data (the name's offset in the
// raw getdents buffer on Linux).
type dirent struct {
	name string
	typ  fs.FileMode
	off  int
}

// fileMeta is what Walk needs from a stat.
type fileMeta struct {
	size  int64
	mtime time.Time
	typ   fs.FileMode
}

// listDir lists one directory: builds its ignore state, filters its entries
// like rg, queues subdirectories and passes files to fn.
func (w *walker) listDir(it work, l *dirList, later *deferredEntries) {
	defer l.close()
	if it.unreachable {
		w.fail(it.rel, &fs.PathError{Op: "open", Path: it.abs, Err: errOutsideRoot})
		return
	}
	if err := l.open(&it); err != nil {
		w.fail(it.rel, err)
		return
	}
	var m dirMarkers
	for i := range l.ents {
		m.note(l.ents[i].name)
	}
	ig := it.parent.child(it.abs, it.rel, m, &w.ign)
	if w.o.inOrder != nil {
		slices.SortFunc(l.ents, func(a, b dirent) int { return strings.Compare(a.name, b.name) })
		later.dirs, later.files = later.dirs[:0], later.files[:0]
	} else {
		later = nil
	}
	for i := range l.ents {
		if w.stopped.Load() {
			return
		}
		w.entry(it, ig, l, &l.ents[i], later)
	}
	if later != nil {
		w.passInOrder(it, later)
	}
}

// deferredEntries is what a walk in path order (WalkOptions.inOrder) found
// in a directory: its subdirectories are queued once it is listed, the
// last first, so that the workers' stack hands them out in name order, and
// then its files are passed on in name order.
type deferredEntries struct {
	dirs  []work
	files []File
}

// passInOrder queues a listed directory's subdirectories and passes on
// its files (see deferredEntries), telling inOrder how far the walk has
// come before each file.
func (w *walker) passInOrder(it work, later *deferredEntries) {
	for i := len(later.dirs) - 1; i >= 0; i-- {
		w.q.push(later.dirs[i])
		later.dirs[i] = work{}
	}
	for i := range later.files {
		if w.stopped.Load() {
			break
		}
		f := later.files[i]
		later.files[i] = File{}
		if upTo, ok := w.q.advance(it.pend, f.Path); ok {
			w.o.inOrder(upTo)
		}
		if err := w.fn(f); err != nil {
			w.stop(err)
			break
		}
	}
	clear(later.files)
}

// entry handles one directory entry.
func (w *walker) entry(it work, ig *ignoreDir, l *dirList, e *dirent, later *deferredEntries) {
	if e.name == nameGit && !w.o.GitDir {
		w.skipped.Add(1) // .git is never searched, even with Hidden
		return
	}
	if w.o.MaxDepthSet && it.depth+1 > w.o.MaxDepth {
		w.skipped.Add(1) // below rg's --max-depth
		return
	}
	l.statType(e)
	// One allocation holds both paths: abs is Root/rel and rel its tail
	// (every queued directory's abs is Root joined with its rel).
	abs := joinPath(it.abs, e.name)
	rel := abs[len(w.root):]
	if len(rel) > 0 && os.IsPathSeparator(rel[0]) {
		rel = rel[1:]
	}
	if os.PathSeparator != '/' {
		rel = filepath.ToSlash(rel)
	}
	typ := e.typ
	var meta fileMeta
	haveMeta := false
	var loop *loopLink
	if typ&fs.ModeSymlink != 0 {
		if !w.o.FollowSymlinks {
			w.skipped.Add(1)
			return
		}
		fi, err := os.Stat(abs)
		if err != nil {
			w.fail(rel, err) // a broken link, as rg reports it
			return
		}
		typ = fi.Mode().Type()
		meta, haveMeta = fileMeta{size: fi.Size(), mtime: fi.ModTime(), typ: typ}, true
		if typ.IsDir() {
			var ancestor *loopLink
			if loop, ancestor = w.followLink(it.loop, fi, rel); ancestor != nil {
				w.fail(rel, &search.LoopError{Ancestor: ancestor.rel})
				return
			}
		}
	}
	isDir := typ.IsDir()
	if w.excluded(ig, rel, e.name, isDir) {
		w.skipped.Add(1)
		return
	}
	if isDir {
		if loop == nil {
			loop = w.loopLink(it.loop, abs, rel)
		}
		child := work{abs: abs, rel: rel, parent: ig, loop: loop, depth: it.depth + 1, dev: it.dev, devKnown: it.devKnown}
		if w.o.MaxDepthSet && child.depth >= w.o.MaxDepth {
			return // rg lists it but does not read it
		}
		if it.devKnown {
			if dev, ok := deviceOf(abs); ok && dev != it.dev {
				w.skipped.Add(1) // another file system (--one-file-system)
				return
			}
		}
		l.childWork(&it, &child, e.name, w.o.FollowSymlinks)
		if later != nil {
			later.dirs = append(later.dirs, child)
		} else {
			w.q.push(child)
		}
		return
	}
	if !typ.IsRegular() {
		w.skipped.Add(1) // FIFOs, sockets, devices: never opened
		return
	}
	switch {
	case haveMeta:
	case w.o.NoStat && w.o.MaxFileSize <= 0:
		meta.size = -1 // unknown: not stat'ed
	default:
		var err error
		if meta, err = l.stat(e); err != nil {
			w.fail(rel, err)
			return
		}
		if !meta.typ.IsRegular() {
			w.skipped.Add(1) // replaced since it was listed
			return
		}
	}
	if w.o.MaxFileSize > 0 && meta.size > w.o.MaxFileSize {
		w.tooLarge.Add(1)
		return
	}
	w.files.Add(1)
	f := File{Path: rel, Abs: abs, Size: meta.size, ModTime: meta.mtime}
	if w.o.openAt {
		f.dir, f.nameOff = l, e.off
	}
	if later != nil {
		later.files = append(later.files, f)
		return
	}
	if err := w.fn(f); err != nil {
		w.stop(err)
	}
}

// excluded applies rg's precedence to one entry (the ignore crate's
// Ignore::matched): glob overrides decide first; then ignore files (an
// ignore verdict excludes, a whitelist verdict protects from the hidden
// rule); then types; then hidden.
func (w *walker) excluded(ig *ignoreDir, rel, name string, isDir bool) bool {
	if w.over != nil {
		switch w.over.match(w.globPath(rel), isDir) {
		case matchWhitelist:
			return false
		case matchIgnore:
			return true
		}
	}
	whitelisted := false
	if w.ign.anyFiles() || len(w.explicit) > 0 {
		switch w.ignoreVerdict(ig, rel, isDir) {
		case matchIgnore:
			return true
		case matchWhitelist:
			whitelisted = true
		}
	}
	switch w.types.match(name, isDir) {
	case matchIgnore:
		return true
	case matchWhitelist:
		whitelisted = true
	}
	return !whitelisted && !w.o.Hidden && len(name) > 0 && name[0] == '.'
}

// ignoreVerdict combines the ignore files along d's chain with rg's
// precedence: .rgignore over .ignore over .gitignore over .git/info/exclude
// over the global excludes file; within one kind the deepest file with a
// matching rule decides. Git files apply only inside a repository (some
// directory on the chain holds .git or .jj), and only up to the nearest
// repository root. The global excludes file is matched against the path
// relative to Root, as rg 15 matches it relative to its working directory
// (the ripgrep engine runs rg from Root), so "/top.txt" there means Root's
// top.txt.
func (w *walker) ignoreVerdict(d *ignoreDir, rel string, isDir bool) ignoreMatch {
	anyGit := d.anyGit || !w.ign.requireGit
	var mRg, mIg, mGi, mEx ignoreMatch
	sawGit := false
	for x := d; x != nil; x = x.parent {
		if x.above && !w.ign.parents {
			break // rg --no-ignore-parent
		}
		if x.hasRules() {
			p := x.matchPath(rel)
			if mRg == matchNone {
				mRg = x.rgignore.match(p, isDir)
			}
			if mIg == matchNone {
				mIg = x.ignore.match(p, isDir)
			}
			if anyGit && !sawGit {
				if mGi == matchNone {
					mGi = x.gitignore.match(p, isDir)
				}
				if mEx == matchNone {
					mEx = x.exclude.match(p, isDir)
				}
			}
		}
		sawGit = sawGit || x.hasGit
	}
	for _, m := range [...]ignoreMatch{mRg, mIg, mGi, mEx} {
		if m != matchNone {
			return m
		}
	}
	if anyGit && w.global != nil {
		if m := w.global.match(w.globPath(rel), isDir); m != matchNone {
			return m
		}
	}
	for _, f := range w.explicit { // --ignore-file: the last given first
		if m := f.match(w.globPath(rel), isDir); m != matchNone {
			return m
		}
	}
	return matchNone
}

// globPath is rel as rg's globs see it: behind GlobBase when set.
func (w *walker) globPath(rel string) string {
	if w.o.GlobBase == "" {
		return rel
	}
	p := w.o.GlobBase + "/" + rel
	if cwd := w.o.GlobCwd; cwd != "" && strings.HasPrefix(p, cwd) {
		p = strings.TrimLeft(p[len(cwd):], "/")
	}
	return p
}

// joinPath is dir + separator + name, without doubling a separator (Root
// may be "/").
func joinPath(dir, name string) string {
	if len(dir) > 0 && os.IsPathSeparator(dir[len(dir)-1]) {
		return dir + name
	}
	return dir + string(os.PathSeparator) + name
}
