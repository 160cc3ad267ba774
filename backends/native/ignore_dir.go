package native

import (
	"os"
	"path/filepath"
	"strings"
)

// ignoreDir is the ignore state of one directory: its own ignore files and a
// link to its parent's. The chain runs from the directory being listed up to
// the filesystem root, like the ignore crate's Ignore stack in rg.
type ignoreDir struct {
	parent *ignoreDir
	// rel is the directory's path relative to the walk's Root ("" for Root)
	// for directories at or below the start of a walk. For a directory above
	// it, above is true and up is the start's path relative to it.
	rel   string
	above bool
	up    string
	// startRel is the walk start's path relative to Root, stripped from
	// entry paths when matching the files of directories above the start.
	startRel string

	hasGit bool // the directory holds a .git or .jj entry (a repository root)
	anyGit bool // this directory or an ancestor is a repository root

	rgignore, ignore, gitignore, exclude *ignoreFile
}

// hasRules reports whether the directory contributes any ignore rules.
func (d *ignoreDir) hasRules() bool {
	return d.rgignore != nil || d.ignore != nil || d.gitignore != nil || d.exclude != nil
}

// matchPath is the path of entry (relative to Root) as d's ignore files see
// it: relative to d.
func (d *ignoreDir) matchPath(entry string) string {
	if d.above {
		within := entry
		if d.startRel != "" {
			within = strings.TrimPrefix(strings.TrimPrefix(entry, d.startRel), "/")
		}
		if d.up == "" {
			return within
		}
		return d.up + "/" + within
	}
	if d.rel == "" {
		return entry
	}
	return entry[len(d.rel)+1:]
}

// ignoreNames are the files a directory listing is checked for.
const (
	nameGit       = ".git"
	nameJJ        = ".jj" // a Jujutsu repository: rg 15 treats it as a git one
	nameGitignore = ".gitignore"
	nameIgnore    = ".ignore"
	nameRgignore  = ".rgignore"
)

// dirMarkers records which ignore-relevant names a directory listing holds,
// so that ignore files are opened only where they exist.
type dirMarkers struct {
	git, jj, gitignore, ignore, rgignore bool
}

func (m *dirMarkers) note(name string) {
	if len(name) < 3 || name[0] != '.' {
		return
	}
	switch name {
	case nameGit:
		m.git = true
	case nameJJ:
		m.jj = true
	case nameGitignore:
		m.gitignore = true
	case nameIgnore:
		m.ignore = true
	case nameRgignore:
		m.rgignore = true
	}
}

// ignoreOpts says which ignore files a walk reads, after rg's switches
// (--no-ignore-dot, --no-ignore-vcs, --no-ignore-exclude,
// --no-ignore-global, --no-ignore-parent, --no-require-git).
type ignoreOpts struct {
	dot        bool // .ignore and .rgignore
	vcs        bool // .gitignore
	exclude    bool // .git/info/exclude
	global     bool // the global excludes file
	parents    bool // the files of directories above a walk's start
	requireGit bool // git's files apply only inside a repository
	fold       bool // globs compared ignoring ASCII case
}

// ignoreOptsFor reads the switches of o.
func ignoreOptsFor(o WalkOptions) ignoreOpts {
	if o.NoIgnore {
		return ignoreOpts{requireGit: !o.NoRequireGit}
	}
	vcs := !o.NoIgnoreVCS
	return ignoreOpts{
		dot:        !o.NoIgnoreDot,
		vcs:        vcs,
		exclude:    vcs && !o.NoIgnoreExclude,
		global:     vcs && !o.NoIgnoreGlobal,
		parents:    !o.NoIgnoreParent,
		requireGit: !o.NoRequireGit,
		fold:       o.IgnoreCaseInsensitive,
	}
}

// anyFiles reports whether any kind of ignore file is read.
func (o *ignoreOpts) anyFiles() bool { return o.dot || o.vcs || o.exclude || o.global }

// child builds the ignore state of directory abs (relative path rel) whose
// listing held the names in m.
func (d *ignoreDir) child(abs, rel string, m dirMarkers, o *ignoreOpts) *ignoreDir {
	c := &ignoreDir{parent: d, rel: rel}
	c.load(abs, m, o, false)
	c.anyGit = c.hasGit || (d != nil && d.anyGit)
	return c
}

// load reads the directory's ignore files. Whether it is a repository root
// is asked as rg 15.2 asks it: only when git's files apply only inside a
// repository, and for a directory above the walk's start only when
// .gitignore files are read.
func (d *ignoreDir) load(abs string, m dirMarkers, o *ignoreOpts, above bool) {
	checkVCS := o.requireGit && (o.vcs || o.exclude)
	if above {
		checkVCS = o.requireGit && o.vcs
	}
	gitFound := false
	if m.git {
		if _, err := os.Stat(filepath.Join(abs, nameGit)); err == nil {
			gitFound = true
			d.hasGit = checkVCS
		}
	}
	if checkVCS && m.jj && !d.hasGit {
		if _, err := os.Stat(filepath.Join(abs, nameJJ)); err == nil {
			d.hasGit = true
		}
	}
	if above && !o.parents {
		return // only its being a repository counts (rg --no-ignore-parent)
	}
	if o.dot && m.rgignore {
		d.rgignore = readIgnoreFile(filepath.Join(abs, nameRgignore), o.fold)
	}
	if o.dot && m.ignore {
		d.ignore = readIgnoreFile(filepath.Join(abs, nameIgnore), o.fold)
	}
	if o.vcs && m.gitignore {
		d.gitignore = readIgnoreFile(filepath.Join(abs, nameGitignore), o.fold)
	}
	if o.exclude && gitFound {
		if path := gitExcludePath(abs); path != "" {
			d.exclude = readIgnoreFile(path, o.fold)
		}
	}
}

// gitExcludePath is the repository's info/exclude file: .git/info/exclude,
// or, for a worktree whose .git is a file, the one in the common git
// directory, as rg resolves it: the file's first line "gitdir: DIR" names
// the worktree's git directory (a relative DIR is taken from the process's
// working directory, as rg takes it, not from dir), whose commondir file names
// the common one (relative to DIR when it starts with '.'). Without a
// commondir file (a submodule's .git) rg reads no exclude file: "" then.
func gitExcludePath(dir string) string {
	dotgit := filepath.Join(dir, nameGit)
	fi, err := os.Stat(dotgit)
	if err != nil || fi.IsDir() {
		return filepath.Join(dotgit, "info", "exclude")
	}
	gitdir, ok := strings.CutPrefix(firstLine(dotgit), "gitdir: ")
	if !ok {
		return ""
	}
	common, ok := fileFirstLine(filepath.Join(gitdir, "commondir"))
	if !ok {
		return ""
	}
	if strings.HasPrefix(common, ".") {
		common = filepath.Join(gitdir, common)
	}
	return filepath.Join(common, "info", "exclude")
}

// firstLine is the first line of a file without its terminator ("" when
// it cannot be read).
func firstLine(path string) string {
	line, _ := fileFirstLine(path)
	return line
}

// fileFirstLine is the first line of a file without its "\n" or "\r\n",
// and whether the file could be read.
func fileFirstLine(path string) (string, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", false
	}
	line, _, _ := strings.Cut(string(data), "\n")
	return strings.TrimSuffix(line, "\r"), true
}

// ancestors builds the chain of directories above a walk's start directory
// (canonical absolute path canon, relative path startRel from Root), from the
// filesystem root down to the start's parent, reading their ignore files.
func ancestors(canon, startRel string, o *ignoreOpts) *ignoreDir {
	var dirs []string
	for p := filepath.Dir(canon); ; p = filepath.Dir(p) {
		dirs = append(dirs, p)
		if p == filepath.Dir(p) {
			break
		}
	}
	var chain *ignoreDir
	for i := len(dirs) - 1; i >= 0; i-- {
		p := dirs[i]
		up, err := filepath.Rel(p, canon)
		if err != nil {
			continue
		}
		c := &ignoreDir{parent: chain, above: true, up: filepath.ToSlash(up), startRel: startRel}
		c.load(p, markersOf(p), o, true)
		c.anyGit = c.hasGit || (chain != nil && chain.anyGit)
		chain = c
	}
	return chain
}

// markersOf checks a directory that is not listed (an ancestor of the walk)
// for the ignore-relevant names.
func markersOf(dir string) dirMarkers {
	var m dirMarkers
	for _, n := range []string{nameGit, nameJJ, nameGitignore, nameIgnore, nameRgignore} {
		if _, err := os.Lstat(filepath.Join(dir, n)); err == nil {
			m.note(n)
		}
	}
	return m
}
