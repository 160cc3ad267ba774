package conformance

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/search"
)

// rawRgFiles runs the real rg (RawRipgrep: plain rg flags, no dialect
// translation) and returns the files it reports. It is the corpus's check
// against rg itself, independent of rgkit's engines.
func rawRgFiles(t *testing.T, rg string, q search.Query) []string {
	t.Helper()
	col := &Collector{Mode: q.Mode}
	if _, err := (RawRipgrep{Path: rg}).Search(context.Background(), q, col); err != nil {
		t.Fatalf("rg: %v", err)
	}
	return col.Files()
}

func buildCorpus(t *testing.T) Corpus {
	t.Helper()
	testtool.Need(t, "git")
	c, err := Build(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestMain removes the shared corpus after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	RemoveShared()
	os.Exit(code)
}

// sharedCorpus is the corpus built once per test binary (Shared), for
// tests that only read it.
func sharedCorpus(t *testing.T) Corpus {
	t.Helper()
	testtool.Need(t, "git")
	c, err := Shared()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCorpusMatchesRipgrep is the corpus's specification: for every case
// with WantFiles, the real rg reports exactly those files. If rg changes or
// the corpus drifts, this fails before any engine is blamed.
func TestCorpusMatchesRipgrep(t *testing.T) {
	rg := testtool.ReferenceRg(t)
	c := sharedCorpus(t)
	for _, f := range []string{"NonUTF8Names", "NewlineNames", "FIFO", "Symlinks", "UnreadableEnforced"} {
		if why, ok := c.Features.Skipped[f]; ok {
			t.Logf("corpus feature %s: %s", f, why)
		}
	}
	for _, cs := range Queries() {
		want, ok := c.Want(cs)
		if !ok || cs.Invalid {
			continue
		}
		t.Run(cs.Name, func(t *testing.T) {
			t.Parallel()
			got := rawRgFiles(t, rg, c.Query(cs))
			if !(len(got) == 0 && len(want) == 0) && !reflect.DeepEqual(got, want) {
				t.Errorf("rg's files differ from the case's (- case, + rg):\n%s", strings.Join(Diff(want, got), "\n"))
			}
		})
	}
}

// TestCorpusIsAGitRepoWithTheRightStatus checks the git facts the cases rely
// on: what is tracked, untracked, and tracked although ignored.
func TestCorpusIsAGitRepoWithTheRightStatus(t *testing.T) {
	c := sharedCorpus(t)
	byPath := map[string]Entry{}
	for _, e := range c.Entries {
		byPath[e.Path] = e
	}
	for path, tracked := range map[string]bool{
		"repo/tracked_ignored.txt": true,
		"repo/.hidden/h.txt":       true,
		"repo/link_file.txt":       c.Features.Symlinks,
		"repo/untracked.txt":       false,
		"repo/ignored.txt":         false,
		"repo/src/x.gen.go":        false,
		"repo/src/keep.gen.go":     true,
	} {
		e, ok := byPath[path]
		if !ok {
			if path == "repo/link_file.txt" && !c.Features.Symlinks {
				continue
			}
			t.Errorf("%s: not in the corpus", path)
			continue
		}
		if e.Tracked != tracked {
			t.Errorf("%s: tracked = %v, want %v", path, e.Tracked, tracked)
		}
	}
	out, err := Git(context.Background(), c.Repo, "check-ignore", "-q", "--no-index", "tracked_ignored.txt")
	if err != nil {
		t.Errorf("tracked_ignored.txt should match .gitignore: %v %s", err, out)
	}
}

// TestBuildIsDeterministic builds again and compares every regular file
// with the shared build.
func TestBuildIsDeterministic(t *testing.T) {
	a, b := sharedCorpus(t), buildCorpus(t)
	if len(a.Entries) != len(b.Entries) {
		t.Fatalf("entries: %d vs %d", len(a.Entries), len(b.Entries))
	}
	for i, e := range a.Entries {
		if e.Path != b.Entries[i].Path || e.Kind != b.Entries[i].Kind || e.Size != b.Entries[i].Size {
			t.Errorf("entry %d: %+v vs %+v", i, e, b.Entries[i])
			continue
		}
		if e.Kind != KindFile || e.Path == "repo/unreadable.txt" {
			continue
		}
		x, _ := os.ReadFile(filepath.Join(a.Dir, filepath.FromSlash(e.Path)))
		y, _ := os.ReadFile(filepath.Join(b.Dir, filepath.FromSlash(e.Path)))
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between builds", e.Path)
		}
	}
	ha, _ := Git(context.Background(), a.Repo, "rev-parse", "HEAD")
	hb, _ := Git(context.Background(), b.Repo, "rev-parse", "HEAD")
	if !bytes.Equal(ha, hb) {
		t.Errorf("commits differ: %s vs %s", ha, hb)
	}
}

// TestMatrixShape keeps the matrix at least as large as the brief demands and
// its names unique.
func TestMatrixShape(t *testing.T) {
	cases := Queries()
	if n := len(SearchCases(cases)); n < 40 {
		t.Errorf("%d search cases, want at least 40", n)
	}
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[c.Name] {
			t.Errorf("duplicate case name %q", c.Name)
		}
		seen[c.Name] = true
		if c.Query.Root != "" {
			t.Errorf("%s: Root must be left to Corpus.Query", c.Name)
		}
		if c.WantLines != nil && len(c.Query.Paths) == 0 {
			t.Errorf("%s: WantLines needs a single Paths entry", c.Name)
		}
	}
}
