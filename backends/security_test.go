package backends_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rgkit/rgkit/internal/conformance"
	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/search"
)

// Security tests: hostile trees and environments (docs/design.md, "Security"). Each attack is first
// shown to work against the bare tool (a control that creates the marker),
// so a test cannot pass because the payload was broken.

// securityEngines are the available rgkit engines (not the raw rg baseline).
func securityEngines(t *testing.T) []search.Engine {
	t.Helper()
	var out []search.Engine
	for _, e := range conformanceEngines("") {
		if e.b.Name() == referenceEngine {
			continue
		}
		if _, err := e.b.Available(context.Background()); err != nil {
			t.Logf("engine %s unavailable: %v", e.b.Name(), err)
			continue
		}
		out = append(out, e.b)
	}
	if len(out) == 0 {
		t.Log("no rgkit engine available yet: only the controls ran")
	}
	return out
}

// canary writes an executable shell script that creates marker when run and
// then prints its first file argument (so rg --pre still sees text).
func canary(t *testing.T, script, marker string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("shell-script canaries need a Unix shell")
	}
	body := fmt.Sprintf("#!/bin/sh\necho fired >> %q\nfor a in \"$@\"; do [ -f \"$a\" ] && cat \"$a\"; done\nexit 0\n", marker)
	testtool.WriteExecutable(t, script, []byte(body))
}

func fired(marker string) bool {
	_, err := os.Stat(marker)
	return err == nil
}

func mustRun(t *testing.T, dir string, env []string, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("%s %q: %v\n%s", name, args, err, out)
	}
}

// gitRepo makes dir a git repository with everything in it committed.
func gitRepo(t *testing.T, dir string) {
	t.Helper()
	testtool.Need(t, "git")
	ctx := context.Background()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "x"}} {
		if _, err := conformance.Git(ctx, dir, args...); err != nil {
			t.Fatal(err)
		}
	}
}

// search runs one engine on q (normalised) under a safety-net deadline.
// It fails the test if the deadline, rather than the engine, ended the search.
func runSearch(t *testing.T, b search.Engine, q search.Query) (*conformance.Collector, error) {
	t.Helper()
	return searchWithin(t, b, q, time.Minute)
}

func searchWithin(t *testing.T, b search.Engine, q search.Query, safety time.Duration) (*conformance.Collector, error) {
	t.Helper()
	nq, err := search.Normalize(q)
	if err != nil {
		t.Fatalf("Normalize: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), safety)
	defer cancel()
	col := &conformance.Collector{Mode: nq.Mode}
	_, err = b.Search(ctx, nq, col)
	if ctx.Err() != nil {
		t.Fatalf("%s: still running when the safety-net deadline expired (hang): %v", b.Name(), err)
	}
	return col, err
}

// flagPatterns are patterns that an engine passing the pattern positionally
// would read as options of rg, grep or git grep.
var flagPatterns = []string{"--pre=./x.sh", "-f/etc/passwd", "--files", "-r", "-O cat", "-O./x.sh", "--open-files-in-pager=./x.sh"}

func TestSecurityFlagLikePatternIsSearchedAsText(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(t.TempDir(), "marker")
	canary(t, filepath.Join(dir, "x.sh"), marker)
	var text strings.Builder
	for _, p := range flagPatterns {
		text.WriteString("option " + p + " end\n")
	}
	if err := os.WriteFile(filepath.Join(dir, "patterns.txt"), []byte(text.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "foo.txt"), []byte("foo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitRepo(t, dir)

	// Controls: the bare tools run the payload.
	if rg, err := exec.LookPath("rg"); err == nil {
		mustRun(t, dir, nil, rg, "--pre=./x.sh", "foo", ".")
		if !fired(marker) {
			t.Fatal("control: rg --pre=./x.sh did not run the canary; the test would be vacuous")
		}
		os.Remove(marker)
	}
	mustRun(t, dir, nil, "git", "grep", "-O./x.sh", "foo")
	if !fired(marker) {
		t.Fatal("control: git grep -O./x.sh did not run the canary; the test would be vacuous")
	}
	os.Remove(marker)

	for _, b := range securityEngines(t) {
		for i, p := range flagPatterns {
			t.Run(b.Name()+"/"+p, func(t *testing.T) {
				col, err := runSearch(t, b, search.Query{Root: dir, Pattern: p})
				if errors.Is(err, search.ErrUnsupported) {
					t.Skipf("%s refuses the query: %v", b.Name(), err)
				}
				if err != nil {
					t.Fatalf("%s: %v", b.Name(), err)
				}
				if fired(marker) {
					t.Fatalf("%s ran the canary for pattern %q", b.Name(), p)
				}
				got := col.MatchLines("patterns.txt")
				if len(got) != 1 || got[0] != i+1 {
					t.Errorf("%s: pattern %q matched lines %v of patterns.txt, want [%d]; files %q", b.Name(), p, got, i+1, col.Files())
				}
			})
		}
	}
}

func TestSecurityRepoConfigCannotRunCommands(t *testing.T) {
	dir := t.TempDir()
	markers := t.TempDir()
	scripts := t.TempDir()
	kinds := []string{"fsmonitor", "pager", "textconv", "hook", "editor"}
	for _, k := range kinds {
		canary(t, filepath.Join(scripts, k+".sh"), filepath.Join(markers, k))
	}
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("needle in a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitRepo(t, dir)
	ctx := context.Background()
	script := func(k string) string { return filepath.Join(scripts, k+".sh") }
	for _, kv := range [][2]string{
		{"core.fsmonitor", script("fsmonitor")},
		{"core.pager", script("pager")},
		{"pager.grep", script("pager")},
		{"diff.x.textconv", script("textconv")},
		{"core.hooksPath", scripts}, // any hook named like a script would run
		{"core.editor", script("editor")},
		{"grep.patternType", "perl"},
	} {
		if _, err := conformance.Git(ctx, dir, "config", kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, ".gitattributes"), []byte("* diff=x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	reset := func() {
		for _, k := range kinds {
			os.Remove(filepath.Join(markers, k))
		}
	}
	// Controls: plain git runs the fsmonitor and the textconv driver.
	mustRun(t, dir, nil, "git", "status")
	if !fired(filepath.Join(markers, "fsmonitor")) {
		t.Fatal("control: git status did not run core.fsmonitor; the test would be vacuous")
	}
	reset()
	mustRun(t, dir, nil, "git", "grep", "--textconv", "needle")
	if !fired(filepath.Join(markers, "textconv")) {
		t.Fatal("control: git grep --textconv did not run the textconv driver; the test would be vacuous")
	}
	reset()

	check := func(t *testing.T, who string, col *conformance.Collector, err error) {
		t.Helper()
		for _, k := range kinds {
			if fired(filepath.Join(markers, k)) {
				t.Errorf("%s ran the repository's %s command", who, k)
			}
		}
		if err != nil && !errors.Is(err, search.ErrUnsupported) && !errors.Is(err, search.ErrUnavailable) {
			t.Errorf("%s: %v", who, err)
		}
		if err == nil {
			if got := col.MatchLines("a.txt"); len(got) != 1 {
				t.Errorf("%s: a.txt lines %v, want [1] (results must match a clean repo)", who, got)
			}
		}
		reset()
	}
	for _, b := range securityEngines(t) {
		t.Run(b.Name(), func(t *testing.T) {
			col, err := runSearch(t, b, search.Query{Root: dir, Pattern: "needle"})
			check(t, b.Name(), col, err)
			chain := &search.Chain{Engines: []search.Engine{b}}
			cctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			ccol := &conformance.Collector{}
			_, err = chain.Search(cctx, search.Query{Root: dir, Pattern: "needle"}, ccol)
			check(t, "Chain("+b.Name()+")", ccol, err)
		})
	}
}

func TestSecurityRipgrepConfigPathIsIgnored(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(t.TempDir(), "marker")
	x := filepath.Join(t.TempDir(), "x.sh")
	canary(t, x, marker)
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("needle\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(t.TempDir(), "ripgreprc")
	// --pre runs the canary; --invert-match would report no line of a.txt.
	if err := os.WriteFile(cfg, []byte("--pre="+x+"\n--invert-match\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitRepo(t, dir)
	t.Setenv("RIPGREP_CONFIG_PATH", cfg)
	rg := testtool.Need(t, "rg")
	mustRun(t, dir, nil, rg, "needle", "a.txt")
	if !fired(marker) {
		t.Fatal("control: rg with RIPGREP_CONFIG_PATH did not run the canary; the test would be vacuous")
	}
	os.Remove(marker)
	for _, b := range securityEngines(t) {
		t.Run(b.Name(), func(t *testing.T) {
			col, err := runSearch(t, b, search.Query{Root: dir, Pattern: "needle"})
			if err != nil && !errors.Is(err, search.ErrUnsupported) {
				t.Fatal(err)
			}
			if fired(marker) {
				t.Fatalf("%s honoured RIPGREP_CONFIG_PATH and ran --pre", b.Name())
			}
			if err == nil {
				if got := col.MatchLines("a.txt"); len(got) != 1 {
					t.Errorf("%s: a.txt lines %v, want [1] (the config's --invert-match must not apply)", b.Name(), got)
				}
			}
		})
	}
}

func TestSecurityPathsOutsideTheRootAreRefused(t *testing.T) {
	parent := t.TempDir()
	root := filepath.Join(parent, "root")
	elsewhere := filepath.Join(parent, "elsewhere")
	for _, d := range []string{root, elsewhere} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(elsewhere, "x"), []byte("needle\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A sibling whose name extends the root's: a string-prefix check would let it in.
	if err := os.MkdirAll(root+"_secret", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{
		"../elsewhere/x",
		"../x",
		"..",
		filepath.Join(elsewhere, "x"),
		root + "_secret",
		"a/../../elsewhere",
	} {
		_, err := search.Normalize(search.Query{Root: root, Pattern: "needle", Paths: []string{p}})
		if err == nil {
			t.Errorf("Normalize accepted the path %q outside the root", p)
			continue
		}
		if !strings.Contains(err.Error(), "outside the root") {
			t.Errorf("Normalize(%q): error %q does not say the path is outside the root", p, err)
		}
	}
}

func TestSecurityFIFOIsSkipped(t *testing.T) {
	c := buildSecurityCorpus(t)
	if !c.Features.FIFO {
		t.Skipf("no FIFO: %s", c.Features.Skipped["FIFO"])
	}
	for _, b := range securityEngines(t) {
		for _, q := range []search.Query{
			{Root: c.Repo, Pattern: "needle"},
			{Root: c.Repo, Pattern: "needle", Hidden: true, NoIgnore: true},
			{Root: c.Repo, Pattern: "needle", Mode: search.ModeFilesWithMatches},
		} {
			col, err := runSearch(t, b, q)
			if err != nil && !errors.Is(err, search.ErrUnsupported) {
				t.Errorf("%s: %v", b.Name(), err)
			}
			for _, f := range col.Files() {
				if f == "fifo" {
					t.Errorf("%s reported the FIFO", b.Name())
				}
			}
		}
	}
}

// TestSecurityExplicitFIFOIsRefused: a FIFO named as a search path blocks
// rg and grep on open, so Normalize must refuse
// it before any engine runs.
func TestSecurityExplicitFIFOIsRefused(t *testing.T) {
	c := buildSecurityCorpus(t)
	if !c.Features.FIFO {
		t.Skipf("no FIFO: %s", c.Features.Skipped["FIFO"])
	}
	_, err := search.Normalize(search.Query{Root: c.Repo, Pattern: "needle", Paths: []string{"fifo"}})
	if err == nil {
		t.Fatal("Normalize accepted a FIFO as a search path; rg blocks opening it")
	}
	t.Logf("refused: %v", err)
}

func TestSecuritySymlinkOutsideIsNotFollowed(t *testing.T) {
	c := buildSecurityCorpus(t)
	if !c.Features.Symlinks {
		t.Skipf("no symlinks: %s", c.Features.Skipped["Symlinks"])
	}
	for _, b := range securityEngines(t) {
		for _, q := range []search.Query{
			{Root: c.Repo, Pattern: "outside"},
			{Root: c.Repo, Pattern: "outside", Hidden: true, NoIgnore: true},
			{Root: c.Repo, Pattern: "outside", Globs: []string{"link_out/**"}},
		} {
			col, err := runSearch(t, b, q)
			if err != nil && !errors.Is(err, search.ErrUnsupported) {
				t.Errorf("%s: %v", b.Name(), err)
			}
			if f := col.Files(); len(f) > 0 {
				t.Errorf("%s (hidden=%v no-ignore=%v globs=%q) returned files through the escaping symlink: %q",
					b.Name(), q.Hidden, q.NoIgnore, q.Globs, f)
			}
		}
	}
}

// TestSecurityExplicitSymlinkOutsideIsRefused: a path inside the root that
// is a symlink resolving outside it is a path outside the root
// because rg follows a symlink named explicitly.
func TestSecurityExplicitSymlinkOutsideIsRefused(t *testing.T) {
	c := buildSecurityCorpus(t)
	if !c.Features.Symlinks {
		t.Skipf("no symlinks: %s", c.Features.Skipped["Symlinks"])
	}
	for _, p := range []string{"link_out", "link_out/secret.txt"} {
		_, err := search.Normalize(search.Query{Root: c.Repo, Pattern: "outside", Paths: []string{p}})
		if err == nil {
			t.Errorf("Normalize accepted %q, which resolves to %s outside the root", p, c.Outside)
		} else if !strings.Contains(err.Error(), "outside the root") {
			t.Errorf("Normalize(%q): error %q does not say the path is outside the root", p, err)
		}
	}
	// A link that stays inside the root is fine (case 39).
	if _, err := search.Normalize(search.Query{Root: c.Repo, Pattern: "x", Paths: []string{"link_dir"}}); err != nil {
		t.Errorf("Normalize refused link_dir, which resolves inside the root: %v", err)
	}
}

// buildSecurityCorpus is the conformance corpus (its FIFO, its links out
// of the root), the package's shared copy: these tests only read it, and
// building one costs a git init, add and commit and some hundred files.
func buildSecurityCorpus(t *testing.T) conformance.Corpus {
	t.Helper()
	testtool.Need(t, "git")
	c, err := conformance.Shared()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestSecurityEnvironmentCannotRedirectTheSearch: GIT_DIR / GIT_WORK_TREE in
// the caller's environment would make git search another repository, and
// GREP_OPTIONS / GREP_COLORS could change grep's output. Engines scrub them; results come from the requested root.
func TestSecurityEnvironmentCannotRedirectTheSearch(t *testing.T) {
	root, other := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "mine.txt"), []byte("needle mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "theirs.txt"), []byte("needle theirs\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitRepo(t, root)
	gitRepo(t, other)
	t.Setenv("GIT_DIR", filepath.Join(other, ".git"))
	t.Setenv("GIT_WORK_TREE", other)
	t.Setenv("GREP_OPTIONS", "--count")
	t.Setenv("GREP_COLORS", "mt=01;31")
	t.Setenv("GREP_COLOR", "01;31")
	// Control: plain git grep in root now searches the other repository.
	cmd := exec.Command("git", "grep", "-l", "needle")
	cmd.Dir = root
	out, _ := cmd.Output()
	if !strings.Contains(string(out), "theirs.txt") {
		t.Fatalf("control: GIT_DIR did not redirect plain git grep (%q); the test would be vacuous", out)
	}
	for _, b := range securityEngines(t) {
		col, err := runSearch(t, b, search.Query{Root: root, Pattern: "needle"})
		if err != nil && !errors.Is(err, search.ErrUnsupported) && !errors.Is(err, search.ErrUnavailable) {
			t.Errorf("%s: %v", b.Name(), err)
			continue
		}
		if err != nil {
			continue
		}
		if got := col.Files(); len(got) != 1 || got[0] != "mine.txt" {
			t.Errorf("%s: files %q, want [mine.txt] from the requested root", b.Name(), got)
		}
		if got := col.MatchLines("mine.txt"); len(got) != 1 || got[0] != 1 {
			t.Errorf("%s: mine.txt lines %v, want [1]", b.Name(), got)
		}
	}
}

// TestResidualRiskFollowSymlinksLeavesTheRoot pins a residual risk
// (a known way out of the root is pinned, not left implicit): with Query.FollowSymlinks the
// engines that follow links (rg -L semantics) reach a link to outside the
// root, so repo/link_out -> ../outside yields outside/secret.txt; git grep
// refuses the query. The defaults (TestSecuritySymlinkOutsideIsNotFollowed)
// never follow. When the engines start refusing or filtering targets outside
// the root, this test fails: turn it into a
// TestSecurity test that requires no result from outside.
func TestResidualRiskFollowSymlinksLeavesTheRoot(t *testing.T) {
	c := buildSecurityCorpus(t)
	if !c.Features.Symlinks {
		t.Skipf("no symlinks: %s", c.Features.Skipped["Symlinks"])
	}
	for _, b := range securityEngines(t) {
		col, err := runSearch(t, b, search.Query{Root: c.Repo, Pattern: "outside", FollowSymlinks: true})
		switch {
		case errors.Is(err, search.ErrUnsupported):
			t.Logf("%s refuses to follow symlinks: %v", b.Name(), err)
		case err != nil:
			t.Errorf("%s: %v", b.Name(), err)
		default:
			if got := col.Files(); len(got) != 1 || got[0] != "link_out/secret.txt" {
				t.Errorf("%s with FollowSymlinks now returns %q (was [link_out/secret.txt]): if the escape is closed, make this a TestSecurity test", b.Name(), got)
			} else {
				t.Logf("%s follows link_out out of the root (residual risk): %q", b.Name(), got)
			}
		}
	}
}
