package gitgrep

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sync"
	"time"

	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/internal/dialect"
	"github.com/rgkit/rgkit/internal/proc"
	"github.com/rgkit/rgkit/internal/version"
	"github.com/rgkit/rgkit/search"
)

// Engine is the engine that runs git grep inside a git work tree.
//
// git grep's own answer differs from rg's in many ways (it searches hidden and tracked-but-ignored files, skips untracked and
// nested-repository files, symlinks and UTF-16 files, reads only the first
// 8000 bytes for its binary check, honours .gitattributes). So rgkit uses
// it as what it is good at, an index-backed filter, and keeps the semantics
// in one place:
//
//  1. native.Walk computes the files rg would search (one implementation of
//     the ignore rules, globs, types, hidden files, size limit);
//  2. git ls-files says which of them git tracks, and git grep -l, given the
//     pattern translated to PCRE (or ERE), says which tracked files can
//     match; every other tracked file is skipped unread;
//  3. the candidates, the untracked files, files starting with a byte-order
//     mark and files named explicitly are searched by the native matcher,
//     which yields the lines, columns, context and counts.
//
// The result is the native engine's by construction; git saves reading the
// tracked files that cannot match. Multiline and FollowSymlinks queries are
// refused (ErrUnsupported): git grep is line-based and never follows links.
type Engine struct {
	// LookPath finds git; nil = exec.LookPath (a relative result is refused).
	LookPath func(file string) (string, error)
	// Environ is the environment git's is built from; nil = os.Environ. All
	// GIT_* variables are dropped and the configuration is pinned.
	Environ func() []string
	// Workers bounds the files searched at once; 0 = GOMAXPROCS.
	Workers int
	// Grace is the SIGTERM-to-SIGKILL delay on cancel; 0 = 2s.
	Grace time.Duration
	// NoStats says the caller reads neither Stats.BytesSearched nor
	// Stats.Binary (see search.ByteStatsOptional), so the tracked files git
	// grep finds nothing in are skipped unread, counted at their size.
	// Without it they are searched natively like the rest (rg counts a
	// binary file's bytes only up to where it stops), and git grep is not
	// run at all: it could prune nothing.
	NoStats bool
	// MaxMemory caps each git's resident anonymous memory, in bytes; 0 =
	// DefaultMaxMemory, negative = none. Enforced on Linux (proc.Spec): a
	// git stopped there fails the search with search.ErrMemoryCap (or, when
	// an allocation fails first, with git's own error), and a Chain
	// searches again with its next engine.
	MaxMemory int64

	mu     sync.Mutex
	probes map[string]gitProbe // PCRE support, by git binary
}

var _ search.Engine = (*Engine)(nil)

// New returns the git grep engine with its defaults.
func New() *Engine { return &Engine{} }

// DefaultMaxMemory is a git's memory cap when Engine.MaxMemory is 0: git
// grep and ls-files cost tens of MB on a large tree (the index is mapped,
// which does not count); gigabytes mean a pattern made its matcher explode.
const DefaultMaxMemory int64 = 512 << 20

// maxMemory is the cap handed to proc.Spec (<= 0 there = none).
func (g *Engine) maxMemory() int64 {
	if g.MaxMemory == 0 {
		return DefaultMaxMemory
	}
	return g.MaxMemory
}

// memoryCapped rewords a git stopped for its memory cap as search.ErrMemoryCap.
func (g *Engine) memoryCapped(res proc.Result, err error) error {
	if res.MemoryCapped {
		return fmt.Errorf("%w: git needed more than %s of memory and was stopped", search.ErrMemoryCap, proc.FormatBytes(g.maxMemory()))
	}
	return err
}

// SkipByteStats sets NoStats (search.ByteStatsOptional).
func (g *Engine) SkipByteStats() { g.NoStats = true }

// Name is "gitgrep".
func (g *Engine) Name() string { return "gitgrep" }

// gitProbe caches what a git binary can do.
type gitProbe struct {
	size    int64
	modTime time.Time
	version string
	pcre    bool // -P works with UTF-8 (probed in a repository)
	probed  bool
}

var gitVersionRE = sync.OnceValue(func() *regexp.Regexp { // (not at every start)
	return regexp.MustCompile(`^git version (\d+\.\d+(?:\.\d+)?)`)
})

// hardenedGit are the options every git run gets, whatever the repository's
// configuration says: no fsmonitor or hook program runs, no pager, no
// external diff, and grep's own settings cannot change the pattern language,
// the path form or fall back to --no-index.
var hardenedGit = []string{
	"-c", "core.fsmonitor=false",
	"-c", "core.hooksPath=" + os.DevNull,
	"-c", "core.pager=cat",
	"-c", "diff.external=",
	"-c", "core.untrackedCache=false",
	"-c", "grep.fullName=false",
	"-c", "grep.fallbackToNoIndex=false",
	"-c", "grep.patternType=default",
	"-c", "grep.extendedRegexp=false",
	"--no-pager", "--no-optional-locks", "--literal-pathspecs",
}

func (g *Engine) locate() (string, error) {
	lookPath := g.LookPath
	if lookPath == nil {
		lookPath = exec.LookPath
	}
	p, err := lookPath("git")
	if err != nil {
		return "", fmt.Errorf("%w: git not found: %w", search.ErrUnavailable, err)
	}
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("%w: refusing git at relative path %q", search.ErrUnavailable, p)
	}
	return p, nil
}

// env is git's environment: no GIT_* variable from the caller (GIT_DIR,
// GIT_CONFIG_*, GIT_EXTERNAL_DIFF...), no system or global configuration, C
// locale (or C.UTF-8 for PCRE's UTF mode).
func (g *Engine) env(locale string) []string {
	environ := g.Environ
	if environ == nil {
		environ = os.Environ
	}
	env := proc.AllowEnv(environ(), "PATH", "HOME", "USERPROFILE", "SYSTEMROOT", "TMPDIR", "TEMP", "TMP")
	return append(env,
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_OPTIONAL_LOCKS=0",
		"GIT_TERMINAL_PROMPT=0", "GIT_NO_REPLACE_OBJECTS=1", "LC_ALL="+locale, "TERM=dumb")
}

// Available locates git and reads its version.
func (g *Engine) Available(ctx context.Context) (search.Info, error) {
	info := search.Info{Name: g.Name()}
	path, err := g.locate()
	if err != nil {
		return info, err
	}
	info.Path = path
	p, err := g.probe(ctx, path, "")
	if err != nil {
		return info, err
	}
	info.Version = p.version
	if p.pcre {
		info.Flavor = "pcre"
	}
	return info, nil
}

// probe returns the cached facts about git at path: its version, and, once
// dir (a work tree) is known, whether -P works in UTF-8 mode.
func (g *Engine) probe(ctx context.Context, path, dir string) (gitProbe, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return gitProbe{}, fmt.Errorf("%w: %w", search.ErrUnavailable, err)
	}
	g.mu.Lock()
	p, ok := g.probes[path]
	g.mu.Unlock()
	if !ok || p.size != fi.Size() || !p.modTime.Equal(fi.ModTime()) {
		p = gitProbe{size: fi.Size(), modTime: fi.ModTime()}
		out, res, err := g.output(ctx, path, "", "C", "--version")
		m := gitVersionRE().FindSubmatch(out)
		if err != nil || res.ExitCode != 0 || m == nil {
			return p, fmt.Errorf("%w: %s --version: %v %q", search.ErrUnavailable, path, err, proc.FirstLine(out))
		}
		p.version = string(m[1])
		if !gitAtLeast(p.version, 2, 15) {
			return p, fmt.Errorf("%w: %s is git %s; --no-optional-locks needs 2.15", search.ErrUnavailable, path, p.version)
		}
	}
	if dir != "" && !p.probed {
		// A pattern only UTF-mode PCRE accepts (\x{212A} is above 0xFF), on a
		// path that cannot exist: exit 1 means -P works with UTF-8; 128
		// means no PCRE, or no UTF-8 locale.
		// --no-index: the answer is the binary's, wherever it runs, work
		// tree or not (the search itself finds out which).
		args := append(cloneArgs(hardenedGit), "grep", "--no-index", "-q", "-P", "-e", `\x{212A}`, "--", ".rgkit-pcre-probe-\x01")
		_, res, err := g.output(ctx, path, dir, "C.UTF-8", args...)
		if err != nil {
			return p, err
		}
		p.pcre, p.probed = res.ExitCode == 1, true
	}
	if ctx.Err() == nil {
		g.mu.Lock()
		if g.probes == nil {
			g.probes = map[string]gitProbe{}
		}
		g.probes[path] = p
		g.mu.Unlock()
	}
	return p, nil
}

// gitAtLeast reports whether a "2.39.5"-style version is at least major.minor.
func gitAtLeast(v string, major, minor int) bool {
	got, ok := version.Prefix(v)
	return ok && got.AtLeast(major, minor, 0)
}

func cloneArgs(s []string) []string { return append([]string(nil), s...) }

// output runs git and returns its (capped) stdout.
func (g *Engine) output(ctx context.Context, git, dir, locale string, args ...string) ([]byte, proc.Result, error) {
	var out bytes.Buffer
	res, err := proc.Run(ctx, proc.Spec{Unavailable: search.ErrUnavailable, Path: git, Args: args, Dir: dir, Env: g.env(locale), MaxStdout: 1 << 20, Grace: g.Grace, MaxMemory: g.maxMemory()},
		func(r io.Reader) error { _, err := io.Copy(&out, r); return err })
	return out.Bytes(), res, g.memoryCapped(res, err)
}

// Search runs q in the git work tree containing q.Root.
func (g *Engine) Search(ctx context.Context, q search.Query, sink search.Sink) (search.Stats, error) {
	start := time.Now()
	// git grep only prunes files; the native matcher does the matching. So a
	// multiline query whose pattern cannot match a line break (rg, and the
	// native engine, then search line by line anyway) can use it too.
	prefilter := q
	if q.PCRE2 {
		return search.Stats{}, fmt.Errorf("%w: git grep's prefilter reads rg's default regex syntax, not PCRE2's", search.ErrUnsupported)
	}
	if q.Multiline {
		if !lineModeEquivalent(q) {
			return search.Stats{}, fmt.Errorf("%w: git grep matches line by line (multiline)", search.ErrUnsupported)
		}
		prefilter.Multiline = false
	}
	if q.FollowSymlinks {
		return search.Stats{}, fmt.Errorf("%w: git grep never follows symbolic links", search.ErrUnsupported)
	}
	if c := q.CustomReading(); c != "" {
		return search.Stats{}, fmt.Errorf("%w: git grep reads files as they are (%s)", search.ErrUnsupported, c)
	}
	git, err := g.locate()
	if err != nil {
		return search.Stats{}, err
	}
	if search.Within(q.Root, git) {
		return search.Stats{}, fmt.Errorf("%w: refusing to run %s from inside the search root", search.ErrUnavailable, git)
	}
	var st search.Stats
	// Whether q.Root is inside a work tree is git ls-files' answer below
	// (it fails outside one, and in a .git directory): asking first with
	// git rev-parse cost a git start per search.
	probe, err := g.probe(ctx, git, q.Root)
	if err != nil {
		return st, err
	}
	d, locale := dialect.ERE, "C"
	if probe.pcre {
		d, locale = dialect.PCRE, "C.UTF-8"
	}
	tr, err := dialect.Translate(prefilter, d)
	if err != nil {
		return st, err
	}
	if d == dialect.ERE && !tr.Fixed && g.NoStats {
		if err := dialect.CheckDFAWeight(prefilter); err != nil {
			return st, err // git grep -E's regcomp would grow as grep's does
		}
	}
	fs, err := newFileSearch(ctx, q, sink)
	if err != nil {
		return st, err
	}
	defer fs.close()

	// The walk, the index listing and git grep -l run at once.
	var (
		wg                  sync.WaitGroup
		walked              []native.File
		bom                 map[string]bool
		ws                  native.WalkStats
		walkErr             error
		tracked, candidates map[string]bool
		trackErr, grepErr   error
		trackRes, grepRes   proc.Result
	)
	// Outside a work tree git ls-files fails at once (in a .git directory
	// git grep does); the walk, and git grep, are then stopped rather than
	// left to finish for nothing.
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	walkCtx, stopWalk := context.WithCancel(runCtx)
	defer stopWalk()
	wg.Add(2)
	go func() {
		defer wg.Done()
		walked, bom, ws, walkErr = walkWithBOM(walkCtx, q, g.Workers)
	}()
	go func() {
		defer wg.Done()
		tracked, trackRes, trackErr = g.nulList(runCtx, git, q.Root, locale, append(append(cloneArgs(hardenedGit), "ls-files", "-z", "--"), q.Paths...)...)
		if trackErr != nil || trackRes.ExitCode != 0 {
			stop()
		}
	}()
	prune := func() {
		defer wg.Done()
		args := append(cloneArgs(hardenedGit), "grep", "--no-textconv", "--no-color", "-l", "-z", "--no-recurse-submodules")
		switch {
		case tr.Fixed:
			args = append(args, "-F")
		case d == dialect.PCRE:
			args = append(args, "-P")
		default:
			args = append(args, "-E")
		}
		args = append(args, "-e", tr.Pattern, "--")
		candidates, grepRes, grepErr = g.nulList(runCtx, git, q.Root, locale, append(args, q.Paths...)...)
		if grepErr != nil || grepRes.ExitCode > 1 {
			stopWalk() // ls-files, left to finish, says why when it can
		}
	}
	var insideOut []byte
	wg.Add(1)
	if g.NoStats {
		go prune()
	} else {
		// Nothing to prune, but inside a .git directory, where ls-files
		// works and git grep fails, git is still not searching a work tree.
		go func() {
			defer wg.Done()
			insideOut, grepRes, grepErr = g.output(runCtx, git, q.Root, locale, append(cloneArgs(hardenedGit), "rev-parse", "--is-inside-work-tree")...)
			if grepErr == nil && grepRes.ExitCode == 0 && string(bytes.TrimSpace(insideOut)) != "true" {
				grepRes.ExitCode, grepRes.Stderr = 128, []byte("not inside a work tree (git rev-parse)")
			}
			if grepErr != nil || grepRes.ExitCode > 1 {
				stopWalk()
			}
		}()
	}
	wg.Wait()
	st.ProcessCPU += trackRes.CPU + grepRes.CPU
	st.ProcessPeakRSS = max(trackRes.PeakRSS, grepRes.PeakRSS)
	if err := ctx.Err(); err != nil {
		return st, err
	}
	// A failure stopped the walk (ls-files' also git grep): ls-files says
	// best why git cannot search here.
	if trackErr == nil && trackRes.ExitCode != 0 {
		return st, fmt.Errorf("%w: %s is not inside a git work tree: %s (git ls-files, exit %d)", search.ErrUnavailable, q.Root, proc.Brief(trackRes.Stderr), trackRes.ExitCode)
	}
	if grepErr == nil && grepRes.ExitCode > 1 {
		return st, fmt.Errorf("%w: git grep: exit %d: %s", search.ErrUnavailable, grepRes.ExitCode, proc.Brief(grepRes.Stderr))
	}
	if err := firstCause(trackErr, grepErr, walkErr); err != nil {
		return st, err
	}

	if !g.NoStats {
		tracked = nil // every walked file is searched: nothing is pruned
	}
	todo, pruned, prunedBytes := gitTodo(walked, tracked, candidates, bom, fs.isExplicit)
	fs.searchAll(todo, g.Workers)
	st = mergeFileStats(st, fs.stats())
	st.FilesSearched += pruned
	st.BytesSearched += prunedBytes
	st.Unreadable += ws.Unreadable
	st.TooLarge = ws.TooLarge
	st.Elapsed = time.Since(start)
	return st, fs.result()
}

// firstCause is the error a search reports when its parts failed: git's
// own (ls-files', then git grep's) before the walk's, since a git that
// failed (say, stopped at its memory cap) stops the walk, whose "context
// canceled" is then only the consequence.
func firstCause(trackErr, grepErr, walkErr error) error {
	return cmp.Or(trackErr, grepErr, walkErr)
}

// lineModeEquivalent reports whether the native matcher searches a
// multiline query line by line (Matcher.Multiline): its pattern can never
// match '\n' and holds no anchor, of the text (\A, \z) or of a line (rg
// searches whole texts then, and prints matches on adjacent lines as one
// block), so git grep's line-by-line pruning finds the same files.
func lineModeEquivalent(q search.Query) bool {
	m, err := native.Compile(native.MatchOptionsFor(q))
	return err == nil && !m.Multiline()
}

// gitTodo picks the files the native matcher must search: all but the
// tracked ones git grep found nothing in. Untracked files (git grep was not
// asked), files with a byte-order mark and files named explicitly (git
// skips symlinks; rg follows a named one) are always searched.
func gitTodo(walked []native.File, tracked, candidates, bom map[string]bool, explicit func(string) bool) (todo []native.File, pruned, prunedBytes int64) {
	for _, f := range walked {
		if !tracked[f.Path] || candidates[f.Path] || bom[f.Path] || explicit(f.Path) {
			todo = append(todo, f)
			continue
		}
		pruned++
		prunedBytes += f.Size
	}
	return todo, pruned, prunedBytes
}

// nulList runs git and collects its NUL-separated path list (-z output).
func (g *Engine) nulList(ctx context.Context, git, dir, locale string, args ...string) (map[string]bool, proc.Result, error) {
	set := map[string]bool{}
	res, err := proc.Run(ctx, proc.Spec{Unavailable: search.ErrUnavailable, Path: git, Args: args, Dir: dir, Env: g.env(locale), MaxStdout: proc.DefaultMaxStdout, Grace: g.Grace, MaxMemory: g.maxMemory()},
		func(r io.Reader) error {
			return proc.ReadNulList(r, func(p string) error { set[p] = true; return nil })
		})
	err = g.memoryCapped(res, err)
	if err == nil && res.StdoutCapped {
		err = fmt.Errorf("%w: git output passed the engine's byte cap", search.ErrUnavailable)
	}
	return set, res, err
}

// walkWithBOM lists the files rg would search, and which of them start
// with a byte-order mark (rg strips UTF-8's and transcodes UTF-16; git grep
// does neither, so those files are always searched natively).
func walkWithBOM(ctx context.Context, q search.Query, workers int) ([]native.File, map[string]bool, native.WalkStats, error) {
	typeGlobs, err := search.TypeGlobs(q.Types)
	if err != nil {
		return nil, nil, native.WalkStats{}, err
	}
	var mu sync.Mutex
	var files []native.File
	bom := map[string]bool{}
	// FollowSymlinks queries never get here: git grep refuses them.
	ws, err := native.Walk(ctx, native.WalkOptionsFor(q, typeGlobs, workers), func(f native.File) error {
		has := f.Size >= 2 && startsWithBOM(f.Abs)
		mu.Lock()
		files = append(files, f)
		if has {
			bom[f.Path] = true
		}
		mu.Unlock()
		return nil
	})
	return files, bom, ws, err
}

func startsWithBOM(path string) bool {
	fh, err := os.Open(path)
	if err != nil {
		return true // let the native search count it as unreadable
	}
	defer fh.Close()
	var b [3]byte
	n, _ := io.ReadFull(fh, b[:])
	h := b[:n]
	return bytes.HasPrefix(h, []byte{0xEF, 0xBB, 0xBF}) || bytes.HasPrefix(h, []byte{0xFF, 0xFE}) || bytes.HasPrefix(h, []byte{0xFE, 0xFF})
}

func mergeFileStats(a, b search.Stats) search.Stats {
	a.FilesSearched += b.FilesSearched
	a.FilesMatched += b.FilesMatched
	a.MatchedLines += b.MatchedLines
	a.BytesSearched += b.BytesSearched
	a.Binary += b.Binary
	a.Unreadable += b.Unreadable
	return a
}

// gitFileSearch searches chosen files with the native matcher, exactly as
// the native engine does, through native.FileSearcher.
type gitFileSearch struct {
	ctx context.Context
	run *native.FileSearcher
	src *native.Source
	err error
}

func newFileSearch(ctx context.Context, q search.Query, sink search.Sink) (*gitFileSearch, error) {
	m, err := native.Compile(native.MatchOptionsFor(q))
	if err != nil {
		return nil, fmt.Errorf("%w: native matcher: %w", search.ErrUnsupported, err)
	}
	src, err := (&native.Reader{}).OpenFor(q)
	if err != nil {
		return nil, err
	}
	run := native.NewFileSearcher(ctx, q, m, sink, src)
	return &gitFileSearch{ctx: ctx, run: run, src: src}, nil
}

func (s *gitFileSearch) close() { s.src.Close() }

func (s *gitFileSearch) isExplicit(p string) bool { return s.run.IsExplicit(p) }

// searchAll searches files on up to workers goroutines; a sink error or ctx
// ending stops it.
func (s *gitFileSearch) searchAll(files []native.File, workers int) {
	s.err = s.run.SearchFiles(files, workers)
}

func (s *gitFileSearch) stats() search.Stats { return s.run.Stats() }

// result is Search's error: a sink error, ctx's, or a file search error.
func (s *gitFileSearch) result() error {
	if err := s.run.SinkErr(); err != nil {
		return err
	}
	if s.err != nil && !errors.Is(s.err, s.ctx.Err()) {
		return s.err
	}
	return s.ctx.Err()
}
