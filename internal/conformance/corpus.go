// Package conformance builds the corpus and the query matrix behind rgkit's
// differential test: every engine runs every query over the same tree and
// must give the same answer as ripgrep.
//
// The builder is a package, not a testdata/ script, so that the engines'
// tests and the bench can import it and only fixtures live
// under backends/testdata/conformance.
//
// The corpus holds every file-selection and content case where the engines
// could differ from rg: hidden,
// ignored, untracked and tracked-but-ignored files, nested and parent
// .gitignore files with negations, directory-only and anchored patterns,
// .git/info/exclude, .ignore and .rgignore, binary files with an early and a
// late NUL, Latin-1, UTF-16 with a BOM, CRLF, no final newline, a 1 MB
// one-line file, awkward names, symlinks of every kind, an unreadable file, a
// FIFO, and a separate tree with a .gitignore but no git repository.
package conformance

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/rgkit/rgkit/search"
)

// Tree names one of the corpus trees a Case searches.
type Tree int

const (
	// TreeRepo is the git work tree (the default search root).
	TreeRepo Tree = iota
	// TreeRepoSrc is the src/ directory of the git work tree used as the
	// search root, so ignore files above the root must still apply.
	TreeRepoSrc
	// TreeNoGit is a tree with a .gitignore and a .ignore but no git
	// repository: rg ignores the .gitignore there and honours the .ignore.
	TreeNoGit
	// TreeParentIgnore is parent/tree, outside git, whose parent directory
	// holds a .ignore (applied below it, as rg reads parent ignore files)
	// and a .gitignore (not applied: no git).
	TreeParentIgnore
	// TreeRows is Dir/rows, outside git: one directory per behaviour that
	// differs between rg releases (see rows.go), some of them repositories.
	TreeRows
)

// Corpus describes a built corpus.
type Corpus struct {
	Dir     string // the directory given to Build
	Repo    string // the git work tree, Dir/repo
	NoGit   string // the tree without git, Dir/nogit
	Outside string // a directory outside Repo that a symlink points into, Dir/outside

	// Entries lists everything Build created under Repo, NoGit and
	// Dir/parent (not .git/ or outside/), sorted by path (slash-separated,
	// relative to Dir).
	Entries []Entry

	// Features says which platform-dependent entries exist, and why not.
	Features Features
}

// EntryKind says what sort of file system object an Entry is.
type EntryKind int

const (
	KindFile    EntryKind = iota // a regular file
	KindDir                      // a directory
	KindSymlink                  // a symbolic link (not followed when listed)
	KindFIFO                     // a named pipe
)

// Entry is one created file system object.
type Entry struct {
	Path    string // relative to Corpus.Dir, forward slashes
	Kind    EntryKind
	Size    int64
	Tracked bool   // committed to the git repository
	Note    string // which case it exercises
}

// Features records the optional parts of the corpus. A false flag comes with
// the reason in Skipped, so tests can skip with that reason.
type Features struct {
	Symlinks     bool // symlink loop, broken link, links to a file, a dir and outside
	FIFO         bool // repo/fifo
	NonUTF8Names bool // a file name holding the byte 0xFF
	NewlineNames bool // a file name holding '\n'
	// UnreadableEnforced is true when repo/unreadable.txt (mode 000) really
	// cannot be read. It is false when the tests run as root, where mode 000
	// is still readable and every engine searches the file.
	UnreadableEnforced bool
	Skipped            map[string]string // feature -> reason it is missing or weakened
}

// Root returns the absolute search root of a tree.
func (c Corpus) Root(t Tree) string {
	switch t {
	case TreeRepoSrc:
		return filepath.Join(c.Repo, "src")
	case TreeNoGit:
		return c.NoGit
	case TreeParentIgnore:
		return filepath.Join(c.Dir, "parent", "tree")
	case TreeRows:
		return filepath.Join(c.Dir, "rows")
	default:
		return c.Repo
	}
}

// Query returns the case's query with Root set to its tree in this corpus.
func (c Corpus) Query(cs Case) search.Query {
	q := cs.Query
	q.Root = c.Root(cs.Tree)
	return q
}

// gitEnv isolates the builder's git runs from the user's configuration and
// makes commits reproducible.
func gitEnv() []string {
	env := []string{
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=" + os.DevNull,
		"GIT_AUTHOR_NAME=conformance", "GIT_AUTHOR_EMAIL=conformance@example.invalid",
		"GIT_COMMITTER_NAME=conformance", "GIT_COMMITTER_EMAIL=conformance@example.invalid",
		"GIT_AUTHOR_DATE=2024-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2024-01-01T00:00:00Z",
	}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	return env
}

// Git runs git with args in dir, isolated from the user's configuration.
// Exported for the tests that build their own small repositories.
func Git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	git, err := exec.LookPath("git")
	if err != nil {
		return nil, fmt.Errorf("conformance: git not found: %w", err)
	}
	cmd := exec.CommandContext(ctx, git, args...)
	cmd.Dir = dir
	cmd.Env = gitEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("conformance: git %s: %w: %s", strings.Join(args, " "), err, stderr.String())
	}
	return out, nil
}

// Build creates the corpus inside dir, which should be empty (t.TempDir()).
// It needs git; everything else is created with the os package. The content
// is deterministic: two builds differ only in inode numbers and times.
func Build(dir string) (Corpus, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Corpus{}, err
	}
	// Resolve symlinks in the temp dir itself (macOS /tmp -> /private/tmp) so
	// that engines which canonicalise the root report the same paths.
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	c := Corpus{
		Dir:     abs,
		Repo:    filepath.Join(abs, "repo"),
		NoGit:   filepath.Join(abs, "nogit"),
		Outside: filepath.Join(abs, "outside"),
		Features: Features{
			Skipped: map[string]string{},
		},
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	b := &builder{c: &c}
	for _, d := range []string{c.Repo, c.NoGit, c.Outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return Corpus{}, err
		}
	}
	if _, err := Git(ctx, c.Repo, "init", "-q", "-b", "main"); err != nil {
		return Corpus{}, err
	}
	// Committed content first.
	for _, f := range append(repoFiles(), gitignoreSyntaxFiles()...) {
		if err := b.writeFile("repo/"+f.path, f.data, f.note); err != nil {
			return Corpus{}, err
		}
	}
	b.optionalNames()
	b.symlinks()
	if err := b.writeFile("repo/.git/info/exclude", []byte("excluded.txt\n"), ".git/info/exclude"); err != nil {
		return Corpus{}, err
	}
	// .git/ is never searched, not even with Hidden and NoIgnore.
	if err := b.writeFile("repo/.git/needle.txt", []byte("needle inside .git\n"), ".git is never searched"); err != nil {
		return Corpus{}, err
	}
	if _, err := Git(ctx, c.Repo, "add", "-A"); err != nil {
		return Corpus{}, err
	}
	// Tracked but ignored: committed with -f, still listed in .gitignore.
	if err := b.writeFile("repo/tracked_ignored.txt", []byte("needle tracked but ignored\n"), "tracked and gitignored"); err != nil {
		return Corpus{}, err
	}
	if _, err := Git(ctx, c.Repo, "add", "-f", "tracked_ignored.txt"); err != nil {
		return Corpus{}, err
	}
	if _, err := Git(ctx, c.Repo, "commit", "-q", "-m", "corpus"); err != nil {
		return Corpus{}, err
	}
	tracked, err := Git(ctx, c.Repo, "ls-files", "-z")
	if err != nil {
		return Corpus{}, err
	}
	// Untracked content and objects git cannot or should not hold.
	for _, f := range untrackedFiles() {
		if err := b.writeFile("repo/"+f.path, f.data, f.note); err != nil {
			return Corpus{}, err
		}
	}
	// A nested repository inside the work tree (untracked by the outer one):
	// rg applies its own .gitignore but none of the outer repo's rules
	// (*.log, *.tmp), and git grep does not descend into it at all.
	for _, f := range subrepoFiles() {
		if err := b.writeFile("repo/subrepo/"+f.path, f.data, f.note); err != nil {
			return Corpus{}, err
		}
	}
	if _, err := Git(ctx, filepath.Join(c.Repo, "subrepo"), "init", "-q", "-b", "main"); err != nil {
		return Corpus{}, err
	}
	for _, f := range noGitFiles() {
		if err := b.writeFile("nogit/"+f.path, f.data, f.note); err != nil {
			return Corpus{}, err
		}
	}
	for _, f := range parentIgnoreFiles() {
		if err := b.writeFile("parent/"+f.path, f.data, f.note); err != nil {
			return Corpus{}, err
		}
	}
	if err := b.buildRows(); err != nil {
		return Corpus{}, err
	}
	if err := b.writeFile("outside/secret.txt", []byte("needle outside the root\n"), "target of an escaping symlink"); err != nil {
		return Corpus{}, err
	}
	b.unreadable()
	b.fifo()

	set := map[string]bool{}
	for _, p := range bytes.Split(tracked, []byte{0}) {
		if len(p) > 0 {
			set["repo/"+string(p)] = true
		}
	}
	var entries []Entry
	for _, e := range b.entries {
		if strings.HasPrefix(e.Path, "outside/") || strings.HasPrefix(e.Path, "repo/.git/") {
			continue
		}
		e.Tracked = set[e.Path]
		entries = append(entries, e)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Path < entries[j].Path })
	c.Entries = entries
	return c, nil
}

// builder creates entries and records them.
type builder struct {
	c       *Corpus
	entries []Entry
}

func (b *builder) writeFile(rel string, data []byte, note string) error {
	p := filepath.Join(b.c.Dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		return err
	}
	b.entries = append(b.entries, Entry{Path: rel, Kind: KindFile, Size: int64(len(data)), Note: note})
	return nil
}

// optionalNames creates files whose names not every file system accepts.
func (b *builder) optionalNames() {
	try := func(feature, name, note string) bool {
		err := b.writeFile("repo/names/"+name, []byte("needle in an awkward name\n"), note)
		if err != nil {
			b.c.Features.Skipped[feature] = fmt.Sprintf("file system refused %q: %v", name, err)
			return false
		}
		return true
	}
	b.c.Features.NonUTF8Names = try("NonUTF8Names", "bad\xffname.txt", "a name that is not UTF-8")
	b.c.Features.NewlineNames = try("NewlineNames", "new\nline.txt", "a name with a newline")
}

// symlinks creates the link cases; on systems without symlinks it records why.
func (b *builder) symlinks() {
	links := []struct{ name, target, note string }{
		{"link_file.txt", "src/main.go", "symlink to a file (not followed while recursing)"},
		{"link_dir", "src", "symlink to a directory (not followed while recursing)"},
		{"link_out", "../outside", "symlink to a directory outside the root"},
		{"broken_link", "does-not-exist.txt", "broken symlink"},
		{"loop_a", "loop_b", "symlink loop"},
		{"loop_b", "loop_a", "symlink loop"},
	}
	for _, l := range links {
		p := filepath.Join(b.c.Repo, l.name)
		if err := os.Symlink(l.target, p); err != nil {
			b.c.Features.Skipped["Symlinks"] = err.Error()
			return
		}
		b.entries = append(b.entries, Entry{Path: "repo/" + l.name, Kind: KindSymlink, Note: l.note})
	}
	b.c.Features.Symlinks = true
}

// unreadable creates a mode-000 file and records whether the mode is enforced
// (it is not for root).
func (b *builder) unreadable() {
	rel := "repo/unreadable.txt"
	if err := b.writeFile(rel, []byte("needle unreadable\n"), "mode 000 (unreadable unless root)"); err != nil {
		b.c.Features.Skipped["UnreadableEnforced"] = err.Error()
		return
	}
	p := filepath.Join(b.c.Dir, filepath.FromSlash(rel))
	if err := os.Chmod(p, 0); err != nil {
		b.c.Features.Skipped["UnreadableEnforced"] = err.Error()
		return
	}
	if _, err := os.ReadFile(p); err == nil {
		b.c.Features.Skipped["UnreadableEnforced"] = "mode 000 is still readable here (running as root?): every engine searches the file"
		return
	} else if !errors.Is(err, os.ErrPermission) {
		b.c.Features.Skipped["UnreadableEnforced"] = err.Error()
		return
	}
	b.c.Features.UnreadableEnforced = true
}

// fifo creates repo/fifo where the platform has named pipes.
func (b *builder) fifo() {
	p := filepath.Join(b.c.Repo, "fifo")
	if err := mkfifo(p); err != nil {
		b.c.Features.Skipped["FIFO"] = err.Error()
		return
	}
	b.entries = append(b.entries, Entry{Path: "repo/fifo", Kind: KindFIFO, Note: "a FIFO: must be skipped, never opened"})
	b.c.Features.FIFO = true
}
