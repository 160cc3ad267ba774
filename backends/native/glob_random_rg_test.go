package native

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/rgkit/rgkit/internal/conformance"
)

// globDiffTree holds names for the glob differential test: depth, dots,
// glob metacharacters, commas, dashes, a newline and non-ASCII letters.
var globDiffTree = fixture{
	"ac": "", "bc": "", "ab": "", "ba": "", "a.b": "", "a.": "", ".a": "", "abc": "", "a-b": "", "a,b": "",
	"a/b": "", "a/b.c": "", "a/a/b": "", "a/bb/c": "", "a/.b/c": "", "b/a/ab": "", "b/ab/a": "", "b/c/d/e": "",
	"c/{a}": "", "c/[a]": "", "c/a*": "", "c/a?": "", "c/a\\b": "", "c/!a": "", "c/#a": "", "c/a b": "",
	"d/e/f/a.c": "", "d/e/f/b.cc": "", "d/a.c": "", "d/x\ny/a.c": "",
	"é/a": "", "éé": "", "aé": "", "ü.c": "", "c/日本": "",
}

// randomGlob draws a glob from pieces that cover globset's parser: literals,
// '*', '?', "**" in every position, classes (negated, ranges, ']' and '-'
// members, non-ASCII), escapes, groups (empty, nested, holding '**').
func randomGlob(r *rand.Rand) string {
	pieces := []string{"a", "b", "c", ".", "/", "/", "*", "*", "**", "**/", "/**", "/**/", "?", "??",
		"{a,b}", "{a,}", "{,b}", "{}", "{a,{b,c}}", "{*,?}", "{**/a,b}", "{a/**,c}", "{a/b,c}", "{*.c,*.cc}",
		"[ab]", "[!a]", "[^b]", "[a-c]", "[]a]", "[-a]", "[a-]", "[é]", "[a-é]", "[!é]", "[.]",
		"\\*", "\\?", "\\[", "\\{", "\\,", "é", "ü", "日本", "-", ",", "e/", "f", "x\ny"}
	var b strings.Builder
	for range 1 + r.IntN(5) {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

// rgGlobFiles lists root with `rg --files --hidden --no-ignore -g glob`;
// rejected is rg's exit 2 for a glob it refuses.
func rgGlobFiles(t *testing.T, rg, root, glob string) (files []string, rejected bool) {
	t.Helper()
	return rgGlobFilesFlag(t, rg, root, "--glob="+glob)
}

// rgGlobFilesFlag is rgGlobFiles with the glob flag given whole
// ("--iglob=x").
func rgGlobFilesFlag(t *testing.T, rg, root, globFlag string) (files []string, rejected bool) {
	t.Helper()
	glob := globFlag
	cmd := exec.Command(rg, "--files", "--no-config", conformance.Threads, "--hidden", "--no-ignore", "--null", globFlag, "--", root)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee) && ee.ExitCode() == 2 && strings.Contains(stderr.String(), "glob"):
		return nil, true
	case err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1):
		t.Fatalf("rg -g %q: %v: %s", glob, err, stderr.Bytes())
	}
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			files = append(files, filepath.ToSlash(strings.TrimPrefix(p, root+string(filepath.Separator))))
		}
	}
	slices.Sort(files)
	return files, false
}

// TestRandomGlobsAgreeWithRipgrepAndDoublestar draws seeded random globs
// (50 by default, 200 under RGKIT_TEST_FULL=1 (sampleSize); RGKIT_GLOB_DIFF=N
// for N) and requires, for each, the same verdict on
// every file of a tree from: rg 15.2.0's `--files -g`, the walker's glob
// matcher, the regexp translation alone, and doublestar alone wherever the
// matcher hands the glob to doublestar (on ASCII paths, or on every path
// when the glob has no '?', class or non-ASCII literal).
func TestRandomGlobsAgreeWithRipgrepAndDoublestar(t *testing.T) {
	rg := rgPath(t) // random globs use syntax whose meaning rg 15 changed
	n := sampleSize(200, 50)
	if testing.Short() {
		n = 50
	}
	if v, err := strconv.Atoi(os.Getenv("RGKIT_GLOB_DIFF")); err == nil && v > 0 {
		n = v
	}
	root := t.TempDir()
	globDiffTree.build(t, root)
	all, _ := rgGlobFiles(t, rg, root, "**")
	if len(all) != len(globDiffTree) {
		t.Fatalf("rg lists %d of the tree's %d files", len(all), len(globDiffTree))
	}
	r := rand.New(rand.NewPCG(15, 2))
	viaDoublestar := 0
	for range n {
		glob := randomGlob(r)
		want, rejected := rgGlobFiles(t, rg, root, glob)
		rule, ok, err := parseIgnoreLine(glob, false)
		if rejected {
			if err == nil {
				t.Errorf("%q: rg refuses it, the walker accepts it", glob)
			}
			continue
		}
		if err != nil || !ok {
			t.Errorf("%q: rg accepts it, the walker: ok=%v err=%v", glob, ok, err)
			continue
		}
		g := rule.g
		toks, err := parseGlob(g.src, false)
		if err != nil {
			t.Fatalf("%q: %v", g.src, err)
		}
		re := regexp.MustCompile(globRegexp(toks, true))
		// A directory-only glob ("x/") never matches a file.
		files := !rule.dirOnly
		var got, gotRe []string
		for _, p := range all {
			if files && g.match(p) {
				got = append(got, p)
			}
			if files && re.MatchString(byteRunes(p)) {
				gotRe = append(gotRe, p)
			}
		}
		if !slices.Equal(got, want) || !slices.Equal(gotRe, want) {
			t.Errorf("%q (as %q):\n  matcher %q\n   regexp %q\n       rg %q", glob, g.src, got, gotRe, want)
			continue
		}
		if g.ds == "" || !files {
			continue
		}
		viaDoublestar++
		for _, p := range all {
			if g.dsBytewise && !isASCIIString(p) {
				continue
			}
			ds, err := doublestar.Match(g.ds, p)
			if err != nil || ds != slices.Contains(want, p) {
				t.Errorf("%q as doublestar %q on %q: %v (err %v), rg %v", glob, g.ds, p, ds, err, !ds)
			}
		}
	}
	t.Logf("%d random globs, %d of them matched through doublestar", n, viaDoublestar)
}

// TestRandomIglobsAgreeWithRipgrep draws seeded random globs with their
// letters' case changed at random and requires the walker's folded
// matcher (--iglob) to select what rg 15.2.0's `--files --iglob` selects:
// ASCII letters compare either case, other characters (É against é)
// exactly.
func TestRandomIglobsAgreeWithRipgrep(t *testing.T) {
	rg := rgPath(t)
	n := sampleSize(200, 50)
	root := t.TempDir()
	globDiffTree.build(t, root)
	all, _ := rgGlobFiles(t, rg, root, "**")
	r := rand.New(rand.NewPCG(15, 3))
	for range n {
		var b strings.Builder
		for _, c := range randomGlob(r) {
			if r.IntN(2) == 0 {
				b.WriteString(strings.ToUpper(string(c)))
			} else {
				b.WriteRune(c)
			}
		}
		glob := b.String()
		want, rejected := rgGlobFilesFlag(t, rg, root, "--iglob="+glob)
		rule, ok, err := parseIgnoreLineFold(glob, false, true)
		if rejected || err != nil || !ok {
			if rejected != (err != nil) {
				t.Errorf("%q: rg rejects it: %v; the walker: ok=%v err=%v", glob, rejected, ok, err)
			}
			continue
		}
		var got []string
		for _, p := range all {
			if !rule.dirOnly && rule.g.match(p) {
				got = append(got, p)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("--iglob %q:\n  walker %q\n      rg %q", glob, got, want)
		}
	}
}
