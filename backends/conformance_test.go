package backends_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rgkit/rgkit/backends/gitgrep"
	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/backends/ripgrep"
	"github.com/rgkit/rgkit/backends/sysgrep"
	"github.com/rgkit/rgkit/internal/conformance"
	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/search"
)

// The differential conformance test: every available engine runs every case
// of conformance.Queries() over the corpus of conformance.Build, and must
// give exactly what the reference rg (search.ReferenceVersion, run with
// plain rg flags by conformance.RawRipgrep) gives. The ripgrep engine is
// one of the engines under test, whichever rg is first on PATH:
//
//	PATH=/opt/rg14:$PATH RGKIT_REFERENCE_RG=/opt/rg15/rg go test ./backends
//
// A difference is a bug or a documented exception (conformance.Exceptions,
// with its recorded diff under testdata/conformance/exceptions). The
// system-grep column is how grep is held to rg (an earlier test compared
// grep with the native engine case by case; both are now compared with the
// reference here, and grep may never report a case unavailable).

var updateExceptions = flag.Bool("update-exceptions", false, "rewrite ../testdata/conformance/exceptions/*.diff from the engines' current output")

// referenceEngine is the engine every other one is compared with: the
// reference rg itself.
const referenceEngine = "rg-raw"

// engineUnderTest is one column of the matrix.
type engineUnderTest struct {
	b search.Engine
}

// conformanceEngines lists every engine rgkit has, plus the reference rg
// (ref, its path).
func conformanceEngines(ref string) []engineUnderTest {
	return []engineUnderTest{
		{b: ripgrep.New(nil)},
		{b: gitgrep.New()},
		{b: sysgrep.New()},
		{b: native.New()},
		{b: conformance.RawRipgrep{Path: ref}},
	}
}

// outcome of one (case, engine) cell.
type outcome struct {
	status  string // ok, unsupported, unavailable, DIFF, ERR, exception, exception(bug)
	render  []string
	files   []string
	lines   []int
	err     error
	diff    []string
	violate []string
}

// TestConformance runs every case on every engine and compares each answer
// with the reference rg's. By default the git grep and grep columns are
// sampled (cellSampled: one case in three each); RGKIT_TEST_FULL=1 fills
// every cell.
func TestConformance(t *testing.T) {
	c, engines, ref := conformanceSetup(t)
	cases := conformance.Queries()
	var mu sync.Mutex
	matrix := map[string]map[string]outcome{}
	supported, unavailable, sampledOut := map[string]int{}, map[string]int{}, map[string]int{}
	nSearch, ran := 0, 0
	for _, cs := range cases {
		if !cs.Invalid {
			nSearch++
		}
	}
	// The summary runs once every case (a parallel subtest) has finished.
	t.Cleanup(func() {
		if ran < nSearch {
			return // a -run filter picked some cases: no matrix to judge
		}
		for _, e := range engines {
			name := e.b.Name()
			// Refusing a query is allowed (the Chain moves on) but every engine
			// must honour the large majority of the cases it can run (git
			// grep is unavailable outside a work tree: the rows tree).
			if n := nSearch - unavailable[name] - sampledOut[name]; e.b.Name() != referenceEngine && supported[name]*4 < n*3 {
				t.Errorf("%s honours only %d of the %d cases it can run (want at least 3/4)", name, supported[name], n)
			}
		}
		logMatrix(t, cases, engines, matrix, nSearch, supported)
	})
	for _, cs := range cases {
		t.Run(cs.Name, func(t *testing.T) {
			t.Parallel()
			if cs.Invalid {
				_, err := search.Normalize(c.Query(cs))
				var ipe *search.InvalidPatternError
				if !errors.As(err, &ipe) {
					t.Errorf("Normalize(%q) = %v, want *InvalidPatternError", cs.Query.Pattern, err)
				}
				return
			}
			row := map[string]outcome{}
			for _, e := range engines {
				if !cellSampled(e.b.Name(), cs.Name) {
					row[e.b.Name()] = outcome{status: "sampled"}
					continue
				}
				o, err := runCase(c, e.b, cs)
				if err != nil {
					t.Fatalf("Normalize: %v", err)
				}
				row[e.b.Name()] = o
			}
			refOut := row[ref]
			if refOut.status != "ok" {
				t.Errorf("reference %s: %s %v", ref, refOut.status, refOut.err)
			}
			var honoured []string
			for _, e := range engines {
				name := e.b.Name()
				o := row[name]
				if o.status == "sampled" {
					continue
				}
				if o.status == "ok" && name != ref {
					if d := conformance.Diff(refOut.render, o.render); len(d) > 0 {
						o.status, o.diff = "DIFF", d
					}
				}
				if exc, ok := conformance.ExceptionFor(exceptionEngine(name), cs.Name); ok && o.status == "DIFF" {
					o.status = "exception"
					if exc.Bug {
						o.status = "exception(bug)"
					}
				}
				if o.status == "ok" || strings.HasPrefix(o.status, "exception") {
					honoured = append(honoured, name)
				}
				row[name] = o
				if name == ref {
					checkSpec(t, c, cs, name, ref, o)
					continue
				}
				checkSpec(t, c, cs, name, ref, o)
				switch o.status {
				case "unavailable":
					// Only git grep may be unavailable for a case (outside a
					// work tree); the other engines can always run.
					if name != "gitgrep" {
						t.Errorf("%s: unavailable: %v", name, o.err)
					}
				case "DIFF":
					t.Errorf("%s differs from %s (- %s, + %s):\n%s", name, ref, ref, name, head(o.diff, 40))
				case "ERR":
					t.Errorf("%s: %v", name, o.err)
				}
				if len(o.violate) > 0 {
					t.Errorf("%s breaks the Sink contract:\n%s", name, head(o.violate, 10))
				}
			}
			mu.Lock()
			defer mu.Unlock()
			ran++
			matrix[cs.Name] = row
			for _, name := range honoured {
				supported[name]++
			}
			for name, o := range row {
				switch o.status {
				case "unavailable":
					unavailable[name]++
				case "sampled":
					sampledOut[name]++
				}
			}
		})
	}
}

// checkSpec checks an engine's answer against the case's own specification.
func checkSpec(t *testing.T, c conformance.Corpus, cs conformance.Case, name, ref string, o outcome) {
	t.Helper()
	if o.status != "ok" && o.status != "DIFF" {
		return
	}
	if want, ok := c.Want(cs); ok && !(len(want) == 0 && len(o.files) == 0) && !reflect.DeepEqual(o.files, want) {
		if _, exc := conformance.ExceptionFor(exceptionEngine(name), cs.Name); !exc {
			t.Errorf("%s: %s's files differ from the case's (- case, + %s):\n%s", cs.Name, name, name, head(conformance.Diff(want, o.files), 20))
		}
	}
	if cs.WantLines != nil && !(len(cs.WantLines) == 0 && len(o.lines) == 0) && !reflect.DeepEqual(o.lines, cs.WantLines) {
		if _, exc := conformance.ExceptionFor(exceptionEngine(name), cs.Name); !exc {
			t.Errorf("%s: %s matches lines %v of %s, the case says %v", cs.Name, name, o.lines, cs.Query.Paths[0], cs.WantLines)
		}
	}
}

func head(lines []string, n int) string {
	if len(lines) > n {
		lines = append(lines[:n:n], fmt.Sprintf("... %d more", len(lines)-n))
	}
	return strings.Join(lines, "\n")
}

// logMatrix prints the case x engine matrix (and writes it as Markdown to
// $RGKIT_CONFORMANCE_MATRIX when set, for the README).
func logMatrix(t *testing.T, cases []conformance.Case, engines []engineUnderTest, matrix map[string]map[string]outcome, nSearch int, supported map[string]int) {
	var b strings.Builder
	fmt.Fprintf(&b, "| case |")
	for _, e := range engines {
		fmt.Fprintf(&b, " %s |", e.b.Name())
	}
	b.WriteString("\n|---|")
	for range engines {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, cs := range cases {
		row, ok := matrix[cs.Name]
		if !ok {
			continue
		}
		fmt.Fprintf(&b, "| %s |", cs.Name)
		for _, e := range engines {
			fmt.Fprintf(&b, " %s |", row[e.b.Name()].status)
		}
		b.WriteString("\n")
	}
	b.WriteString("| **honoured** |")
	for _, e := range engines {
		fmt.Fprintf(&b, " %d/%d |", supported[e.b.Name()], nSearch)
	}
	b.WriteString("\n")
	t.Logf("conformance matrix: %d search cases x %d engines (+%d invalid patterns)\n%s",
		nSearch, len(engines), len(cases)-nSearch, b.String())
	if p := os.Getenv("RGKIT_CONFORMANCE_MATRIX"); p != "" {
		if !testtool.Full() {
			t.Errorf("RGKIT_CONFORMANCE_MATRIX needs %s=1: the default run samples the git grep and grep columns", testtool.FullEnv)
			return
		}
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Error(err)
		}
	}
}

// TestConformanceThroughChain runs every case through a one-engine Chain
// and requires the Chain's output to be the engine's own (sorted by path
// and line), and an unsupported query to surface as ErrUnsupported. The
// engine's own answer is the one TestConformance judged (runCase runs each
// engine once per case), so only the Chain runs here. By default only a
// sample of the cases the engine answers goes through the Chain (every
// refusal does; see chainSampleEvery); RGKIT_TEST_FULL=1 runs every case.
func TestConformanceThroughChain(t *testing.T) {
	c, engines, _ := conformanceSetup(t)
	for ei, e := range engines {
		if e.b.Name() == "rg-raw" {
			continue
		}
		chain := &search.Chain{Engines: []search.Engine{e.b}}
		for i, cs := range conformance.SearchCases(conformance.Queries()) {
			t.Run(e.b.Name()+"/"+cs.Name, func(t *testing.T) {
				t.Parallel()
				skipUnsampledCell(t, e.b.Name(), cs.Name)
				q := c.Query(cs)
				direct, err := runCase(c, e.b, cs)
				if err != nil {
					t.Fatal(err)
				}
				inChainSample(t, i, ei, direct)
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				defer cancel()
				col := &conformance.Collector{Mode: q.Mode}
				res, err := chain.Search(ctx, q, col)
				switch {
				case direct.status == "unsupported" || direct.status == "unavailable":
					if !errors.Is(err, search.ErrUnsupported) && !errors.Is(err, search.ErrUnavailable) {
						t.Errorf("the engine refuses the query but the Chain returned %v", err)
					}
				case err != nil:
					t.Errorf("Chain: %v", err)
				default:
					if res.Backend != e.b.Name() {
						t.Errorf("Result.Backend = %q", res.Backend)
					}
					if d := conformance.Diff(direct.render, col.Render()); len(d) > 0 {
						t.Errorf("Chain output differs from the engine's (- engine, + chain):\n%s", head(d, 30))
					}
					if v := col.Violations(); len(v) > 0 {
						t.Errorf("Chain breaks the Sink contract:\n%s", head(v, 10))
					}
				}
			})
		}
	}
}

// TestConformanceFallbackChain runs every case through a Chain of the
// engines other than the reference, in the default order (git grep, system
// grep, native): whichever engine the Chain settles on (git grep is
// unavailable outside a work tree; git grep and grep refuse multiline), the
// answer must be the reference engine's. By default the cases git grep
// answers itself are sampled (chainSampleEvery) and every case where the
// Chain falls back runs; RGKIT_TEST_FULL=1 runs every case.
func TestConformanceFallbackChain(t *testing.T) {
	c, engines, ref := conformanceSetup(t)
	var chain search.Chain
	var refEngine search.Engine
	for _, e := range engines {
		switch {
		case e.b.Name() == ref:
			refEngine = e.b
		case e.b.Name() != "ripgrep":
			// The ripgrep engine answers every case itself, so with it first
			// the Chain would never fall back (it did, before: the test
			// compared the ripgrep engine with the reference once more).
			chain.Engines = append(chain.Engines, e.b)
		}
	}
	if len(chain.Engines) < 2 {
		t.Skipf("need at least two non-reference engines, have %d", len(chain.Engines))
	}
	var mu sync.Mutex
	ran := map[string]int{}
	t.Cleanup(func() { t.Logf("fallback chain: cases answered per engine: %v", ran) })
	for i, cs := range conformance.SearchCases(conformance.Queries()) {
		t.Run(cs.Name, func(t *testing.T) {
			t.Parallel()
			skipUnsampledCell(t, chain.Engines[0].Name(), cs.Name)
			q := c.Query(cs)
			first, err := runCase(c, chain.Engines[0], cs)
			if err != nil {
				t.Fatal(err)
			}
			inChainSample(t, i, 0, first)
			want, err := runCase(c, refEngine, cs)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			col := &conformance.Collector{Mode: q.Mode}
			res, err := chain.Search(ctx, q, col)
			if err != nil {
				t.Fatalf("Chain: %v", err)
			}
			mu.Lock()
			ran[res.Backend]++
			mu.Unlock()
			if _, ok := conformance.ExceptionFor(exceptionEngine(res.Backend), cs.Name); ok {
				return
			}
			if d := conformance.Diff(want.render, col.Render()); len(d) > 0 {
				t.Errorf("the Chain ran %s (skipped %v) and differs from %s (- %s, + chain):\n%s",
					res.Backend, res.Skipped, ref, ref, head(d, 30))
			}
		})
	}
}

// TestConformanceExceptions asserts every documented exception exactly: the
// engine's difference from the reference must be the recorded one. It fails
// when an exception disappears (remove it from the table and the README) or
// changes (look at it, then -update-exceptions).
func TestConformanceExceptions(t *testing.T) {
	excs := conformance.Exceptions()
	if len(excs) == 0 {
		t.Skip("no documented exceptions")
	}
	c, engines, ref := conformanceSetup(t)
	byName := map[string]search.Engine{}
	for _, e := range engines {
		byName[exceptionEngine(e.b.Name())] = e.b
	}
	cases := map[string]conformance.Case{}
	for _, cs := range conformance.Queries() {
		cases[cs.Name] = cs
	}
	dir := filepath.Join("..", "testdata", "conformance", "exceptions")
	var known []string
	for _, exc := range excs {
		known = append(known, exc.GoldenName())
		t.Run(exc.Engine+"/"+exc.Case, func(t *testing.T) {
			cs, ok := cases[exc.Case]
			if !ok {
				t.Fatalf("no case %q", exc.Case)
			}
			b, ok := byName[exc.Engine]
			if !ok {
				t.Skipf("engine %s unavailable here", exc.Engine)
			}
			refOut, err := runCase(c, byName[exceptionEngine(ref)], cs)
			if err != nil {
				t.Fatal(err)
			}
			got, err := runCase(c, b, cs)
			if err != nil {
				t.Fatal(err)
			}
			if got.status != "ok" {
				t.Fatalf("%s: %s %v", exc.Engine, got.status, got.err)
			}
			d := conformance.Diff(refOut.render, got.render)
			golden := filepath.Join(dir, exc.GoldenName())
			text := strings.Join(d, "\n") + "\n"
			if *updateExceptions {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if len(d) == 0 {
				t.Fatalf("the exception is gone: %s now agrees with %s on %s; remove it from conformance.Exceptions and the README", exc.Engine, ref, exc.Case)
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("no recorded difference (run with -update-exceptions): %v", err)
			}
			if string(want) != text {
				t.Errorf("the exception changed (- recorded, + now):\n%s", head(conformance.Diff(strings.Split(strings.TrimSpace(string(want)), "\n"), d), 40))
			}
		})
	}
	// A recorded difference without a table entry is stale.
	entries, _ := os.ReadDir(dir)
	sort.Strings(known)
	for _, e := range entries {
		if i := sort.SearchStrings(known, e.Name()); i == len(known) || known[i] != e.Name() {
			t.Errorf("%s has no entry in conformance.Exceptions", filepath.Join(dir, e.Name()))
		}
	}
}

// TestConformanceFileListing compares the native walker, which decides the
// candidate files of the native and system-grep engines, with `rg --files`
// for every case's file-selection options over the corpus. A listing
// difference would show up in many content cases; here it shows up once,
// with the files named.
func TestConformanceFileListing(t *testing.T) {
	t.Parallel()
	rg := testtool.ReferenceRg(t)
	c, _, _ := conformanceSetup(t)
	seen := map[string]bool{}
	for _, cs := range conformance.SearchCases(conformance.Queries()) {
		q, err := search.Normalize(c.Query(cs))
		if err != nil {
			t.Fatalf("%s: %v", cs.Name, err)
		}
		key := fmt.Sprintf("%s|%q|%v|%v|%v|%d|%q|%q|%+v", q.Root, q.Paths, q.Hidden, q.NoIgnore, q.FollowSymlinks, q.MaxFileSize, q.Globs, q.Types,
			[]any{q.NoIgnoreDot, q.NoIgnoreVCS, q.NoIgnoreExclude, q.NoIgnoreGlobal, q.NoIgnoreParent, q.NoRequireGit, q.IgnoreCaseInsensitive,
				q.IgnoreFiles, q.IGlobs, q.GlobCaseInsensitive, q.TypeSelections, q.MaxDepth, q.MaxDepthSet, q.OneFileSystem, q.GitDir})
		if seen[key] {
			continue
		}
		seen[key] = true
		want := rgFiles(t, rg, q)
		got := walkFiles(t, q)
		if d := conformance.Diff(want, got); len(d) > 0 {
			t.Errorf("%s: native.Walk differs from rg --files (- rg, + walker):\n%s", cs.Name, head(d, 30))
		}
	}
}

func rgFiles(t *testing.T, rg string, q search.Query) []string {
	t.Helper()
	args := conformance.RipgrepFilesArgs(q)
	cmd := exec.Command(rg, args...)
	cmd.Dir = q.Root
	cmd.Env = append(os.Environ(), "RIPGREP_CONFIG_PATH=")
	out, err := cmd.Output()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() <= 2) {
		t.Fatalf("rg %q: %v", args, err)
	}
	var files []string
	for _, l := range strings.Split(string(out), "\x00") {
		if l != "" {
			files = append(files, strings.TrimPrefix(l, "./"))
		}
	}
	sort.Strings(files)
	return files
}

func walkFiles(t *testing.T, q search.Query) []string {
	t.Helper()
	types, err := search.TypeGlobs(q.Types)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var files []string
	_, err = native.Walk(context.Background(), native.WalkOptionsFor(q, types, 0), func(f native.File) error {
		mu.Lock()
		defer mu.Unlock()
		files = append(files, f.Path)
		return nil
	})
	if err != nil {
		t.Errorf("native.Walk: %v", err)
	}
	sort.Strings(files)
	return files
}

// TestUnreadableFileIsCountedAndTheSearchGoesOn: an unreadable file
// (mode 000) is skipped, counted in Stats.Unreadable, and does not fail the
// search: one bad file must not cost the whole answer. Root reads mode-000
// files, so this needs a non-root user (CI images often run as root; run the
// compiled test binary as another user to exercise it).
func TestUnreadableFileIsCountedAndTheSearchGoesOn(t *testing.T) {
	c, engines, _ := conformanceSetup(t)
	if !c.Features.UnreadableEnforced {
		t.Skipf("unreadable.txt is readable here: %s", c.Features.Skipped["UnreadableEnforced"])
	}
	for _, e := range engines {
		if e.b.Name() == referenceEngine {
			continue
		}
		q, err := search.Normalize(search.Query{Root: c.Repo, Pattern: "needle"})
		if err != nil {
			t.Fatal(err)
		}
		col := &conformance.Collector{}
		st, err := e.b.Search(context.Background(), q, col)
		if err != nil {
			t.Errorf("%s: an unreadable file failed the search: %v", e.b.Name(), err)
		}
		files := col.Files()
		if i := sort.SearchStrings(files, "unreadable.txt"); i < len(files) && files[i] == "unreadable.txt" {
			t.Errorf("%s reported unreadable.txt", e.b.Name())
		}
		if i := sort.SearchStrings(files, "src/main.go"); i == len(files) || files[i] != "src/main.go" {
			t.Errorf("%s: the search did not go on past the unreadable file: %q", e.b.Name(), files)
		}
		if st.Unreadable < 1 {
			t.Errorf("%s: Stats.Unreadable = %d, want at least 1", e.b.Name(), st.Unreadable)
		}
	}
}

// TestConformancePagingAcrossEngines: the Chain applies Limit, Offset and
// MaxColumns over a deterministic order, so a page is the same whichever
// engine filled it.
func TestConformancePagingAcrossEngines(t *testing.T) {
	t.Parallel()
	c, engines, ref := conformanceSetup(t)
	pick := map[string]bool{"select/default": true, "context/both-overlap": true, "mode/files": true,
		"mode/count": true, "dialect/lazy": true, "select/long-line": true}
	for _, cs := range conformance.SearchCases(conformance.Queries()) {
		if !pick[cs.Name] {
			continue
		}
		for _, page := range []struct{ limit, offset, cols int }{{5, 0, 0}, {7, 3, 20}, {0, 2, 8}} {
			q := c.Query(cs)
			q.Limit, q.Offset, q.MaxColumns = page.limit, page.offset, page.cols
			var want []string
			// The reference first: its page is what the others must give.
			refFirst := slices.Clone(engines)
			slices.SortStableFunc(refFirst, func(a, b engineUnderTest) int {
				return boolInt(b.b.Name() == ref) - boolInt(a.b.Name() == ref)
			})
			for _, e := range refFirst {
				chain := &search.Chain{Engines: []search.Engine{e.b}}
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				col := &conformance.Collector{Mode: q.Mode}
				_, err := chain.Search(ctx, q, col)
				cancel()
				if errors.Is(err, search.ErrUnsupported) || errors.Is(err, search.ErrUnavailable) {
					continue
				}
				if err != nil {
					t.Errorf("%s %+v: %s: %v", cs.Name, page, e.b.Name(), err)
					continue
				}
				got := col.Render()
				if e.b.Name() == ref {
					want = got
					if len(got) == 0 && page.offset == 0 {
						t.Errorf("%s %+v: the reference page is empty", cs.Name, page)
					}
					continue
				}
				if d := conformance.Diff(want, got); len(d) > 0 {
					t.Errorf("%s %+v: %s's page differs from %s's (- %s, + %s):\n%s", cs.Name, page, e.b.Name(), ref, ref, e.b.Name(), head(d, 20))
				}
			}
		}
	}
}

// TestConformanceGlobalGitExcludes: rg also applies the user's global git
// excludes ($XDG_CONFIG_HOME/git/ignore, or core.excludesFile in
// ~/.gitconfig), so every engine must: here each one lists a different file,
// and the engines must agree with rg on both.
func TestConformanceGlobalGitExcludes(t *testing.T) {
	rg := testtool.ReferenceRg(t)
	c, engines, ref := conformanceSetup(t)
	home, xdg := t.TempDir(), t.TempDir()
	write := func(p, s string) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(xdg, "git", "ignore"), "untracked.txt\n")
	write(filepath.Join(home, "excludes"), "script.py\n")
	write(filepath.Join(home, ".gitconfig"), "[core]\n\texcludesFile = "+filepath.Join(home, "excludes")+"\n")
	for _, env := range []struct{ name, home, xdg, gone string }{
		{"xdg-ignore", t.TempDir(), xdg, "untracked.txt"},
		{"core.excludesFile", home, t.TempDir(), "script.py"},
	} {
		t.Run(env.name, func(t *testing.T) {
			t.Setenv("HOME", env.home)
			t.Setenv("XDG_CONFIG_HOME", env.xdg)
			q, err := search.Normalize(search.Query{Root: c.Repo, Pattern: "needle"})
			if err != nil {
				t.Fatal(err)
			}
			raw := runEngine(t, conformance.RawRipgrep{Path: rg}, q, "")
			for _, f := range raw.files {
				if f == env.gone {
					t.Fatalf("control: rg itself still searches %s; the global excludes file was not picked up", env.gone)
				}
			}
			want := runEngine(t, byName(engines, ref), q, "")
			if d := conformance.Diff(raw.render, want.render); len(d) > 0 {
				t.Errorf("%s differs from rg itself (- rg, + %s):\n%s", ref, ref, head(d, 20))
			}
			for _, e := range engines {
				if e.b.Name() == ref {
					continue
				}
				got := runEngine(t, e.b, q, "")
				if got.status != "ok" {
					t.Logf("%s: %s %v", e.b.Name(), got.status, got.err)
					continue
				}
				if d := conformance.Diff(want.render, got.render); len(d) > 0 {
					t.Errorf("%s differs from %s (- %s, + %s):\n%s", e.b.Name(), ref, ref, e.b.Name(), head(d, 20))
				}
			}
		})
	}
}

func byName(engines []engineUnderTest, name string) search.Engine {
	for _, e := range engines {
		if e.b.Name() == name {
			return e.b
		}
	}
	return nil
}

// TestConformanceRandomQueries runs generated queries (conformance.RandomCases,
// fixed seeds, so every run sees the same ones) through every engine and
// requires the reference's answer, empty spans inside a multi-byte
// character included. A failure names the case; copy it into
// conformance.Queries() with what it proves. By default it runs the first
// 12 queries of seed 1 (each query a parallel subtest);
// RGKIT_TEST_FULL=1 runs 100 per seed, as RGKIT_CONFORMANCE_SEEDS=N does
// for N seeds.
func TestConformanceRandomQueries(t *testing.T) {
	c, engines, ref := conformanceSetup(t)
	var mu sync.Mutex
	invalid, compared := 0, 0
	// One seed of 12 queries by default (100 under RGKIT_TEST_FULL=1),
	// none under -short; a deeper run:
	// RGKIT_CONFORMANCE_SEEDS=50 go test ./backends -run RandomQueries
	seeds, perSeed := uint64(1), 12
	if n, err := strconv.ParseUint(os.Getenv("RGKIT_CONFORMANCE_SEEDS"), 10, 64); err == nil && n > 0 {
		seeds, perSeed = n, 100
	} else if testing.Short() {
		t.Skip("randomised differential test skipped in -short mode (RGKIT_CONFORMANCE_SEEDS=N runs it)")
	}
	if testtool.Full() {
		perSeed = 100
	}
	t.Cleanup(func() {
		t.Logf("random queries: %d engine runs compared, %d patterns refused by Normalize", compared, invalid)
	})
	for seed := uint64(1); seed <= seeds; seed++ {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			t.Parallel()
			for _, cs := range conformance.RandomCases(seed, perSeed) {
				t.Run(cs.Name, func(t *testing.T) {
					t.Parallel()
					q, err := search.Normalize(c.Query(cs))
					if err != nil {
						var ipe *search.InvalidPatternError
						if !errors.As(err, &ipe) {
							t.Errorf("%s (%s): Normalize: %v", cs.Name, cs.Why, err)
						}
						mu.Lock()
						invalid++
						mu.Unlock()
						return
					}
					render := func(b search.Engine) outcome {
						ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
						defer cancel()
						col := &conformance.Collector{Mode: q.Mode}
						_, err := b.Search(ctx, q, col)
						return outcome{err: err, render: col.Render(), violate: col.Violations()}
					}
					want := render(byName(engines, ref))
					if want.err != nil {
						t.Errorf("%s (%s): %s: %v", cs.Name, cs.Why, ref, want.err)
						return
					}
					for _, e := range engines {
						if e.b.Name() == ref {
							continue
						}
						got := render(e.b)
						switch {
						case errors.Is(got.err, search.ErrUnsupported), errors.Is(got.err, search.ErrUnavailable):
							continue
						case got.err != nil:
							t.Errorf("%s (%s): %s: %v", cs.Name, cs.Why, e.b.Name(), got.err)
						default:
							mu.Lock()
							compared++
							mu.Unlock()
							if d := conformance.Diff(want.render, got.render); len(d) > 0 {
								t.Errorf("%s (%s): %s differs from %s (- %s, + %s):\n%s", cs.Name, cs.Why, e.b.Name(), ref, ref, e.b.Name(), head(d, 12))
							}
							if len(got.violate) > 0 {
								t.Errorf("%s (%s): %s breaks the Sink contract:\n%s", cs.Name, cs.Why, e.b.Name(), head(got.violate, 5))
							}
						}
					}
				})
			}
		})
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// olderRg reports whether the ripgrep engine runs an rg older than the
// reference (it then only prunes files for the native matcher).
var olderRg = sync.OnceValue(func() bool {
	info, err := ripgrep.New(nil).Available(context.Background())
	if err != nil {
		return false
	}
	d, err := search.Differences(info.Version)
	return err != nil || len(d) > 0
})

// exceptionEngine is the name an engine's documented exceptions are filed
// under: "ripgrep-older" for the ripgrep engine running an rg older than
// the reference (its answers are the native matcher's, so are its
// exceptions), else the engine's name.
func exceptionEngine(name string) string {
	if name == "ripgrep" && olderRg() {
		return "ripgrep-older"
	}
	return name
}
