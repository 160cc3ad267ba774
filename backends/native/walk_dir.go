package native

import (
	"io/fs"
	"os"
)

// dirent is one directory entry: its name and type bits (fs.ModeDir,
// fs.ModeSymlink, ... ; 0 for a regular file).
type dirent struct {
	name string
	typ  fs.FileMode
}

// listDir lists one directory: builds its ignore state, filters its entries
// like rg, queues subdirectories and passes files to fn.
func (w *walker) listDir(it work, buf []dirent) []dirent {
	ents, err := readDirents(it.abs, buf)
	if err != nil {
		w.unreadable.Add(1)
		return ents
	}
	var m dirMarkers
	for i := range ents {
		m.note(ents[i].name)
	}
	ig := it.parent.child(it.abs, it.rel, m, w.useIgnore)
	for i := range ents {
		if w.stopped.Load() {
			return ents
		}
		w.entry(it, ig, &ents[i])
	}
	return ents
}

// entry handles one directory entry.
func (w *walker) entry(it work, ig *ignoreDir, e *dirent) {
	if e.name == nameGit {
		w.skipped.Add(1) // .git is never searched, even with Hidden
		return
	}
	rel := e.name
	if it.rel != "" {
		rel = it.rel + "/" + e.name
	}
	abs := it.abs + string(os.PathSeparator) + e.name
	typ := e.typ
	var info fs.FileInfo // the link target's, when following a link
	if typ&fs.ModeSymlink != 0 {
		if !w.o.FollowSymlinks {
			w.skipped.Add(1)
			return
		}
		fi, err := os.Stat(abs)
		if err != nil {
			w.unreadable.Add(1) // broken link, as rg reports it
			return
		}
		info, typ = fi, fi.Mode().Type()
	}
	isDir := typ.IsDir()
	var loop *loopLink
	if isDir && info != nil {
		var isLoop bool
		loop, isLoop = w.followLink(it.loop, info)
		if isLoop {
			w.skipped.Add(1)
			return
		}
	}
	if w.excluded(ig, rel, e.name, isDir) {
		w.skipped.Add(1)
		return
	}
	if isDir {
		if loop == nil {
			loop = w.loopLink(it.loop, abs)
		}
		w.q.push(work{abs: abs, rel: rel, parent: ig, loop: loop})
		return
	}
	if !typ.IsRegular() {
		w.skipped.Add(1) // FIFOs, sockets, devices: never opened
		return
	}
	if info == nil {
		fi, err := os.Lstat(abs)
		if err != nil {
			w.unreadable.Add(1)
			return
		}
		info = fi
	}
	if w.o.MaxFileSize > 0 && info.Size() > w.o.MaxFileSize {
		w.tooLarge.Add(1)
		return
	}
	if err := w.emit(rel, abs, info); err != nil {
		w.stop(err)
	}
}

// excluded applies rg's precedence to one entry (the ignore crate's
// Ignore::matched): glob overrides decide first; then ignore files (an
// ignore verdict excludes, a whitelist verdict protects from the hidden
// rule); then types; then hidden.
func (w *walker) excluded(ig *ignoreDir, rel, name string, isDir bool) bool {
	switch w.over.match(rel, isDir) {
	case matchWhitelist:
		return false
	case matchIgnore:
		return true
	}
	whitelisted := false
	if w.useIgnore {
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
// directory on the chain holds .git), and only up to the nearest repository
// root.
func (w *walker) ignoreVerdict(d *ignoreDir, rel string, isDir bool) ignoreMatch {
	anyGit := d.anyGit
	var mRg, mIg, mGi, mEx ignoreMatch
	sawGit := false
	for x := d; x != nil; x = x.parent {
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
	if anyGit {
		return w.global.match(rel, isDir)
	}
	return matchNone
}
