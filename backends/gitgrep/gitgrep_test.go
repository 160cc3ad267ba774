package gitgrep

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/internal/searchtest"
	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/search"
)

func requireGit(t *testing.T) string {
	t.Helper()
	git := testtool.Need(t, "git")
	return git
}

// gitRun runs git in dir with a clean, deterministic identity.
func gitRun(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// gitCorpus is a repository holding every way git grep's file set differs
// from rg's (see the Engine doc comment).
func gitCorpus(t *testing.T) string {
	requireGit(t)
	late := "needle one\n" + strings.Repeat("filler line\n", 20000) + "\x00\nneedle two\n"
	root := searchtest.WriteTree(t, map[string]string{
		".gitignore":          "ignored.txt\nnode_modules/\ntracked_ignored.txt\n",
		".ignore":             "dotignored.txt\n",
		".gitattributes":      "attr_binary.txt binary\n",
		"a.txt":               "needle\nhay\nneedle hay needle\nhay\nhay\nneedle\n",
		".hid/h.txt":          "needle hidden tracked\n",
		"tracked_ignored.txt": "needle tracked but ignored\n",
		"ignored.txt":         "needle ignored\n",
		"dotignored.txt":      "needle in .ignore\n",
		"node_modules/m.js":   "needle\n",
		"untracked.txt":       "needle untracked\n",
		"bin_early.dat":       "needle\n\x00 needle\n",
		"bin_late.dat":        late,
		"utf16.txt":           "\xff\xfen\x00e\x00e\x00d\x00l\x00e\x00\n\x00",
		"bom8.txt":            "\xef\xbb\xbfneedle at start\n",
		"attr_binary.txt":     "needle in a file .gitattributes calls binary\n",
		"crlf.txt":            "needle\r\nneedle$\r\n",
		"latin1.txt":          "caf\xe9 needle\n",
		"nested/.git/":        "",
		"nested/inner.txt":    "needle in a nested repository\n",
		"src/code.go":         "package x // Needle NEEDLE needle\n",
		"src/words.txt":       "needles needle_x needle-x xneedle\n",
		"-rf":                 "needle dash file\n",
		"name with space.md":  "needle\n",
	})
	gitRun(t, filepath.Join(root, "nested"), "init", "-q")
	gitRun(t, root, "init", "-q")
	gitRun(t, root, "add", "-A", "--", ".", ":(exclude)nested")
	gitRun(t, root, "add", "-f", "tracked_ignored.txt")
	gitRun(t, root, "rm", "-q", "--cached", "untracked.txt")
	searchtest.Must(t, os.Symlink("a.txt", filepath.Join(root, "link.txt")))
	gitRun(t, root, "add", "link.txt")
	gitRun(t, root, "commit", "-q", "-m", "corpus")
	return root
}

var gitQueries = []search.Query{
	{Pattern: "needle"},
	{Pattern: "needle", Mode: search.ModeFilesWithMatches},
	{Pattern: "needle", Mode: search.ModeCount},
	{Pattern: "needle", Before: 1, After: 1},
	{Pattern: "needle", MaxCountPerFile: 1, After: 2},
	{Pattern: "needle", Hidden: true},
	{Pattern: "needle", NoIgnore: true},
	{Pattern: "needle", Hidden: true, NoIgnore: true},
	{Pattern: "needle", Word: true},
	{Pattern: "NEEDLE", Case: search.CaseInsensitive},
	{Pattern: "^needle"},
	{Pattern: `needle\$?$`},
	{Pattern: "caf. needle"},
	{Pattern: `\bneedle\b`},
	{Pattern: "needle", Globs: []string{"*.txt", "!a.txt"}},
	{Pattern: "needle", Types: []string{"go"}},
	{Pattern: "needle", Paths: []string{"src", "-rf", "link.txt"}},
	{Pattern: "needle.hay", Fixed: true},
	{Pattern: "e{2}d"},
	{Pattern: "nomatchanywhere"},
	{Pattern: "needle hay", Multiline: true},
	{Pattern: `needle [a-z]`, Multiline: true, MaxCountPerFile: 1},
}

// TestGitGrepAgreesWithNative: whatever git grep's own file set and binary
// rules, the engine's answer is the native engine's.
// One engine answers every query, so git's version and PCRE support are
// probed once (a new engine probes again: two more git processes).
// With the byte statistics skipped git grep prunes the tracked files it
// finds nothing in; without, nothing is pruned and they are rg's too.
func TestGitGrepAgreesWithNative(t *testing.T) {
	root := gitCorpus(t)
	pruning, exact := New(), New()
	pruning.SkipByteStats()
	for i, q := range gitQueries {
		q.Root = root
		g := pruning
		if i%2 == 1 {
			g = exact
		}
		t.Run(fmt.Sprintf("%s NoStats=%v", q.Pattern, g.NoStats), func(t *testing.T) {
			want, wantSt, err := searchtest.Run(t, native.New(), q)
			if err != nil {
				t.Fatalf("native: %v", err)
			}
			got, gotSt, err := searchtest.Run(t, g, q)
			if err != nil {
				t.Fatalf("gitgrep: %v", err)
			}
			if got.String() != want.String() {
				t.Errorf("query %+v\ngitgrep:\n%s\nnative:\n%s", q, got, want)
			}
			if gotSt.FilesMatched != wantSt.FilesMatched || gotSt.MatchedLines != wantSt.MatchedLines {
				t.Errorf("stats: gitgrep %+v, native %+v", gotSt, wantSt)
			}
			if !g.NoStats && (gotSt.BytesSearched != wantSt.BytesSearched || gotSt.Binary != wantSt.Binary) {
				t.Errorf("byte stats: gitgrep %+v, native %+v", gotSt, wantSt)
			}
		})
	}
}

// TestGitGrepPrunesTrackedFilesWithoutMatches checks that git does the
// filtering it is there for: git grep -l lists only matching tracked files.
func TestGitGrepPrunesTrackedFilesWithoutMatches(t *testing.T) {
	root := gitCorpus(t)
	g := New()
	git, err := g.locate()
	searchtest.Must(t, err)
	set, res, err := g.nulList(context.Background(), git, root, "C", append(cloneArgs(hardenedGit), "grep", "-l", "-z", "-E", "-e", "needle hay", "--")...)
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("git grep: %v, exit %d %s", err, res.ExitCode, res.Stderr)
	}
	var got []string
	for p := range set {
		got = append(got, p)
	}
	sort.Strings(got)
	if !slices.Equal(got, []string{"a.txt"}) {
		t.Errorf("candidates = %q, want [a.txt]", got)
	}
	walked := []native.File{{Path: "a.txt"}, {Path: "b.txt", Size: 7}, {Path: "new.txt"}, {Path: "bom.txt"}, {Path: "named"}}
	tracked := map[string]bool{"a.txt": true, "b.txt": true, "bom.txt": true, "named": true}
	todo, pruned, prunedBytes := gitTodo(walked, tracked, map[string]bool{"a.txt": true}, map[string]bool{"bom.txt": true},
		func(p string) bool { return p == "named" })
	var names []string
	for _, f := range todo {
		names = append(names, f.Path)
	}
	if !slices.Equal(names, []string{"a.txt", "new.txt", "bom.txt", "named"}) || pruned != 1 || prunedBytes != 7 {
		t.Errorf("todo %q, pruned %d (%d bytes); want b.txt alone pruned", names, pruned, prunedBytes)
	}
}

func TestGitGrepRefusals(t *testing.T) {
	requireGit(t)
	notRepo := searchtest.WriteTree(t, map[string]string{"a.txt": "needle\n"})
	repo := gitCorpus(t)
	cases := []struct {
		q    search.Query
		want error
	}{
		{search.Query{Pattern: "needle", Root: notRepo}, search.ErrUnavailable},
		{search.Query{Pattern: "needle.", Root: repo, Multiline: true}, search.ErrUnsupported},
		{search.Query{Pattern: `needle\n`, Root: repo, Multiline: true}, search.ErrUnsupported},
		{search.Query{Pattern: `\Aneedle`, Root: repo, Multiline: true}, search.ErrUnsupported},
		{search.Query{Pattern: "needle", Root: repo, FollowSymlinks: true}, search.ErrUnsupported},
	}
	for _, c := range cases {
		log, _, err := searchtest.Run(t, New(), c.q)
		if !errors.Is(err, c.want) {
			t.Errorf("%+v: err = %v, want %v", c.q, err, c.want)
		}
		if log.String() != "" {
			t.Errorf("%+v: emitted before refusing:\n%s", c.q, log)
		}
	}
	g := New()
	g.LookPath = func(string) (string, error) { return "", exec.ErrNotFound }
	if _, err := g.Available(context.Background()); !errors.Is(err, search.ErrUnavailable) {
		t.Errorf("no git: err = %v, want ErrUnavailable", err)
	}
}

// TestGitGrepRepoConfigRunsNothing: a repository's .git/config naming
// programs (fsmonitor, hooks, pager, textconv, external diff) and changing
// grep's pattern language runs none of them under rgkit, and the results
// stay those of a clean repository. The control shows plain git status
// does run the fsmonitor program, so the test is not vacuous.
func TestGitGrepRepoConfigRunsNothing(t *testing.T) {
	root := gitCorpus(t)
	clean, _, err := searchtest.Run(t, New(), search.Query{Pattern: "needle", Root: root})
	searchtest.Must(t, err)

	marker := filepath.Join(t.TempDir(), "marker")
	script := filepath.Join(t.TempDir(), "payload.sh")
	testtool.WriteExecutable(t, script, []byte("#!/bin/sh\necho \"$0 $*\" >> "+marker+"\ncat\n"))
	hooks := filepath.Join(root, ".git", "hooks")
	searchtest.Must(t, os.MkdirAll(hooks, 0o755))
	for _, h := range []string{"pre-commit", "post-checkout", "post-index-change"} {
		testtool.WriteExecutable(t, filepath.Join(hooks, h), []byte("#!/bin/sh\necho hook >> "+marker+"\n"))
	}
	cfg, err := os.OpenFile(filepath.Join(root, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
	searchtest.Must(t, err)
	_, err = cfg.WriteString("[core]\n\tfsmonitor = " + script + "\n\tpager = " + script + "\n" +
		"[diff \"x\"]\n\ttextconv = " + script + "\n[diff]\n\texternal = " + script + "\n" +
		"[grep]\n\tpatternType = perl\n\tfullName = true\n\tlineNumber = true\n")
	searchtest.Must(t, err)
	searchtest.Must(t, cfg.Close())
	searchtest.Must(t, os.WriteFile(filepath.Join(root, ".gitattributes"), []byte("*.txt diff=x\nattr_binary.txt binary\n"), 0o644))

	// Control: the attack is real.
	cmd := exec.Command("git", "status", "--short")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null")
	_ = cmd.Run()
	if _, err := os.Stat(marker); err != nil {
		t.Fatalf("control: plain git status did not run core.fsmonitor (%v); the test would prove nothing", err)
	}
	searchtest.Must(t, os.Remove(marker))

	g := New()
	g.Environ = func() []string {
		return append(os.Environ(), "GIT_DIR=/nonexistent", "GIT_CONFIG_PARAMETERS='core.fsmonitor'='"+script+"'", "GIT_EXTERNAL_DIFF="+script)
	}
	got, _, err := searchtest.Run(t, g, search.Query{Pattern: "needle", Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(marker); err == nil {
		t.Fatalf("a configured program ran under rgkit: %s", b)
	}
	if got.String() != clean.String() {
		t.Errorf("results changed by the repository's config:\n%s\nclean:\n%s", got, clean)
	}
}

func TestGitAtLeast(t *testing.T) {
	for v, want := range map[string]bool{"2.39.5": true, "2.15": true, "2.14.9": false, "1.9.0": false, "3.0": true, "x": false} {
		if got := gitAtLeast(v, 2, 15); got != want {
			t.Errorf("gitAtLeast(%q, 2, 15) = %v", v, got)
		}
	}
}

// TestGitGrepDubiousOwnershipFallsBack: git refuses a repository owned by
// someone else; the engine reports ErrUnavailable (the Chain moves on) and
// never overrides safe.directory.
func TestGitGrepDubiousOwnershipFallsBack(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give the repository to another user")
	}
	root := gitCorpus(t)
	if out, err := exec.Command("chown", "-R", "65534:65534", root).CombinedOutput(); err != nil {
		t.Skipf("chown: %v %s", err, out)
	}
	log, _, err := searchtest.Run(t, New(), search.Query{Pattern: "needle", Root: root})
	if !errors.Is(err, search.ErrUnavailable) || !strings.Contains(err.Error(), "dubious ownership") {
		t.Errorf("err = %v, want ErrUnavailable naming the dubious ownership", err)
	}
	if log.String() != "" {
		t.Errorf("emitted results:\n%s", log)
	}
}

// TestGitGrepOutsideAWorkTreeIsUnavailable: without asking git rev-parse
// first, a root outside any work tree, and one inside a .git directory,
// are still refused as unavailable (git ls-files' answer), say why, and
// emit nothing; and the PCRE probe that ran there gives the binary's
// answer, the same as an engine whose first search was in a work tree
// (probed in the root, outside a work tree it would have read "no PCRE").
func TestGitGrepOutsideAWorkTreeIsUnavailable(t *testing.T) {
	t.Parallel()
	requireGit(t)
	notRepo := searchtest.WriteTree(t, map[string]string{"a.txt": "needle\n", "sub/b.txt": "needle\n"})
	repo := gitCorpus(t)
	outside := New()
	for _, root := range []string{notRepo, filepath.Join(repo, ".git")} {
		log, _, err := searchtest.Run(t, outside, search.Query{Pattern: "needle", Root: root})
		if !errors.Is(err, search.ErrUnavailable) || !strings.Contains(err.Error(), "work tree") {
			t.Errorf("%s: err = %v, want ErrUnavailable saying it is not in a work tree", root, err)
		}
		if log.String() != "" {
			t.Errorf("%s: emitted before refusing:\n%s", root, log)
		}
	}
	inside := New()
	if _, _, err := searchtest.Run(t, inside, search.Query{Pattern: "needle", Root: repo}); err != nil {
		t.Fatal(err)
	}
	git, err := outside.locate()
	if err != nil {
		t.Fatal(err)
	}
	a, b := outside.probes[git], inside.probes[git]
	if !a.probed || !b.probed || a.pcre != b.pcre {
		t.Errorf("PCRE probe after a search outside a work tree %+v, inside one %+v: want the same answer", a, b)
	}
}

// TestGitsFailureIsReportedBeforeTheWalksCancellation: a git stopped at
// its cap stops the walk, so the search has two errors, and the Chain must
// see the cap's (it falls back on ErrMemoryCap; on "context canceled" it
// gives up). CI once saw "gitgrep: context canceled" here.
func TestGitsFailureIsReportedBeforeTheWalksCancellation(t *testing.T) {
	t.Parallel()
	capped := fmt.Errorf("%w: git needed more", search.ErrMemoryCap)
	for _, c := range []struct {
		name                      string
		track, grep, walk, wanted error
	}{
		{"git grep capped", nil, capped, context.Canceled, capped},
		{"ls-files capped", capped, context.Canceled, context.Canceled, capped},
		{"the walk alone", nil, nil, context.Canceled, context.Canceled},
		{"nothing", nil, nil, nil, nil},
	} {
		if got := firstCause(c.track, c.grep, c.walk); got != c.wanted {
			t.Errorf("%s: %v, want %v", c.name, got, c.wanted)
		}
	}
}
