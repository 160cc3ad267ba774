package backends

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rgkit/rgkit/backends/ripgrep"
	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/search"
)

// systemRg makes an installed rg available to Glob, the way a *Ripgrep does.
type systemRg struct{ path, version string }

func (s systemRg) Available(context.Context) (search.Info, error) {
	return search.Info{Name: "ripgrep", Path: s.path, Version: s.version}, nil
}

// missingRg is an rg that is not installed.
type missingRg struct{}

func (missingRg) Available(context.Context) (search.Info, error) {
	return search.Info{}, search.ErrUnavailable
}

// requireRg is the reference rg (the engines' answers are its answers).
func requireRg(t *testing.T) systemRg {
	t.Helper()
	return systemRg{testtool.ReferenceRg(t), search.ReferenceVersion}
}

// TestGlobOlderRgDoesNotList: an rg whose file selection is not the
// reference's (14.1.1 reads some ignore files differently) is not asked to
// list; the native walker answers.
func TestGlobOlderRgDoesNotList(t *testing.T) {
	rg := requireRg(t)
	root := globTree(t, []string{"a.go"}, nil)
	for v, want := range map[string]string{"14.1.1": "native", "13.0.0": "native", "15.1.0": "native", search.ReferenceVersion: "ripgrep"} {
		res, err := Glob(context.Background(), GlobQuery{Root: root, Pattern: "*.go", Ripgrep: systemRg{rg.path, v}})
		if err != nil || res.Backend != want || res.Total != 1 {
			t.Errorf("rg %s: Glob = %+v, %v; want backend %s", v, res, err, want)
		}
	}
}

// globTree writes files (path -> content) under a fresh root with distinct
// modification times: later entries in order are newer.
func globTree(t *testing.T, order []string, extra map[string]string) string {
	t.Helper()
	root := t.TempDir()
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	write := func(rel, content string) string {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for rel, c := range extra {
		write(rel, c)
	}
	for i, rel := range order {
		p := write(rel, strings.Repeat("x", i))
		mt := base.Add(time.Duration(i) * time.Hour)
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

var globFixture = []string{
	"src/a.go", "src/b_test.go", "src/sub/c.go", "docs/readme.md", "main.go",
	"web/app.ts", "web/app.tsx", "node_modules/pkg/index.js", ".hidden/x.go", ".env", "ignored.go",
}

var globExtra = map[string]string{
	".gitignore": "node_modules/\nignored.go\n",
	".git/HEAD":  "ref: refs/heads/main\n",
}

func paths(files []GlobFile) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.Path
	}
	return out
}

// TestGlobEnginesAgree runs each query through rg --files and through the
// native walker and requires the same result, in the same order.
func TestGlobEnginesAgree(t *testing.T) {
	rg := requireRg(t)
	root := globTree(t, globFixture, globExtra)
	home := t.TempDir()
	getenv := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	for _, q := range []GlobQuery{
		{Pattern: "*.go"},
		{Pattern: "**/*.go"},
		{Pattern: "src/**"},
		{Pattern: "src/*.go"},
		{Pattern: "*.{ts,tsx}"},
		{Pattern: "*.go", Hidden: true},
		{Pattern: "*.go", NoIgnore: true},
		{Pattern: "*.js"},
		{Pattern: "*.js", NoIgnore: true},
		{Pattern: "ignored.go"},
		{Pattern: "*", Hidden: true, NoIgnore: true},
		{Pattern: "!*.go"},
		{Pattern: "*.go", Sort: GlobSortPath},
		{Pattern: "**", Sort: GlobSortPath, PathsOnly: true},
		{Pattern: "*.go", Sort: GlobSortPath, PathsOnly: true, Hidden: true, NoIgnore: true},
		{Pattern: "*.go", Limit: 2},
		{Pattern: "./main.go"},
		{Pattern: "./src/*.go"},
		{Pattern: "nothing*"},
	} {
		q.Root, q.Getenv = root, getenv
		nq := q
		rq := q
		rq.Ripgrep = rg
		got, err := Glob(context.Background(), nq)
		if err != nil {
			t.Fatalf("%+v native: %v", q, err)
		}
		want, err := Glob(context.Background(), rq)
		if err != nil {
			t.Fatalf("%+v rg: %v", q, err)
		}
		if got.Backend != "native" || want.Backend != "ripgrep" {
			t.Fatalf("backends %q/%q", got.Backend, want.Backend)
		}
		if !slices.Equal(paths(got.Files), paths(want.Files)) || got.Total != want.Total || got.Truncated != want.Truncated {
			t.Errorf("%q (hidden=%v noignore=%v limit=%d): native %q (total %d) vs rg %q (total %d)",
				q.Pattern, q.Hidden, q.NoIgnore, q.Limit, paths(got.Files), got.Total, paths(want.Files), want.Total)
		}
	}
}

func TestGlobSortAndLimit(t *testing.T) {
	root := globTree(t, []string{"b.go", "a.go", "c.go", "d.txt"}, nil)
	tests := []struct {
		name      string
		q         GlobQuery
		want      []string
		total     int
		truncated bool
	}{
		{"newest first by default", GlobQuery{Pattern: "*.go"}, []string{"c.go", "a.go", "b.go"}, 3, false},
		{"by path", GlobQuery{Pattern: "*.go", Sort: GlobSortPath}, []string{"a.go", "b.go", "c.go"}, 3, false},
		{"limit keeps the newest", GlobQuery{Pattern: "*.go", Limit: 2}, []string{"c.go", "a.go"}, 3, true},
		{"limit equal to total is not truncated", GlobQuery{Pattern: "*.go", Limit: 3}, []string{"c.go", "a.go", "b.go"}, 3, false},
		{"no match", GlobQuery{Pattern: "*.rs"}, []string{}, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.q.Root = root
			tc.q.Ripgrep = missingRg{}
			res, err := Glob(context.Background(), tc.q)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(paths(res.Files), tc.want) || res.Total != tc.total || res.Truncated != tc.truncated || res.Backend != "native" {
				t.Errorf("got %q total %d truncated %v backend %s", paths(res.Files), res.Total, res.Truncated, res.Backend)
			}
		})
	}
}

func TestGlobFileMetadata(t *testing.T) {
	root := globTree(t, []string{"a.go", "b.go"}, nil)
	for _, rg := range []interface {
		Available(context.Context) (search.Info, error)
	}{missingRg{}, nil} {
		res, err := Glob(context.Background(), GlobQuery{Root: root, Pattern: "b.go", Ripgrep: rg})
		if err != nil || len(res.Files) != 1 {
			t.Fatalf("Glob = %v, %+v", err, res)
		}
		f := res.Files[0]
		if f.Size != 1 || !f.ModTime.Equal(time.Date(2024, 1, 1, 1, 0, 0, 0, time.UTC)) {
			t.Errorf("file = %+v", f)
		}
	}
}

// TestGlobPathsOnly: PathsOnly with the path order lists the same files
// without their times and sizes (no stat of each, whichever engine lists);
// the modified order reads them whatever PathsOnly says.
func TestGlobPathsOnly(t *testing.T) {
	root := globTree(t, []string{"b.go", "a.go", "c.go", "d.txt"}, nil)
	type lister = interface {
		Available(context.Context) (search.Info, error)
	}
	for _, e := range []struct {
		name string
		rg   func(t *testing.T) lister
	}{
		{"native", func(*testing.T) lister { return missingRg{} }},
		{"ripgrep", func(t *testing.T) lister { return requireRg(t) }},
	} {
		t.Run(e.name, func(t *testing.T) {
			e := struct {
				name string
				rg   lister
			}{e.name, e.rg(t)}
			full, err := Glob(context.Background(), GlobQuery{Root: root, Pattern: "*", Sort: GlobSortPath, Ripgrep: e.rg})
			if err != nil {
				t.Fatal(err)
			}
			bare, err := Glob(context.Background(), GlobQuery{Root: root, Pattern: "*", Sort: GlobSortPath, PathsOnly: true, Ripgrep: e.rg})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(paths(bare.Files), paths(full.Files)) || bare.Backend != e.name || len(bare.Files) != 4 {
				t.Fatalf("PathsOnly listed %q by %s, want %q by %s", paths(bare.Files), bare.Backend, paths(full.Files), e.name)
			}
			for i, f := range bare.Files {
				if !f.ModTime.IsZero() || f.Size != 0 || full.Files[i].ModTime.IsZero() {
					t.Errorf("%s: PathsOnly %+v, with metadata %+v; want no time or size only with PathsOnly", f.Path, f, full.Files[i])
				}
			}
			newest, err := Glob(context.Background(), GlobQuery{Root: root, Pattern: "*.go", PathsOnly: true, Ripgrep: e.rg})
			if err != nil {
				t.Fatal(err)
			}
			if got := paths(newest.Files); !slices.Equal(got, []string{"c.go", "a.go", "b.go"}) || newest.Files[0].ModTime.IsZero() {
				t.Errorf("PathsOnly with the modified order: %q (first %+v), want newest first with times", got, newest.Files[0])
			}
		})
	}
}

func TestGlobRefusesPatternsOutsideRoot(t *testing.T) {
	root := globTree(t, []string{"a.go"}, nil)
	for _, p := range []string{"../x", "../*", "a/../../x", "**/../x", "!../x", "/etc/passwd", filepath.Dir(root) + "/*"} {
		_, err := Glob(context.Background(), GlobQuery{Root: root, Pattern: p})
		if !errors.Is(err, ErrGlobOutsideRoot) {
			t.Errorf("%q: err = %v, want ErrGlobOutsideRoot", p, err)
		}
	}
}

func TestGlobAbsolutePatternInsideRoot(t *testing.T) {
	root := globTree(t, []string{"src/a.go", "a.go"}, nil)
	res, err := Glob(context.Background(), GlobQuery{Root: root, Pattern: filepath.Join(root, "src", "*.go")})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(paths(res.Files), []string{"src/a.go"}) {
		t.Errorf("got %q", paths(res.Files))
	}
	res, err = Glob(context.Background(), GlobQuery{Root: root, Pattern: "./a.go"})
	if err != nil || !slices.Equal(paths(res.Files), []string{"a.go"}) {
		t.Errorf("./a.go: %v %q, want only the top-level a.go", err, paths(res.Files))
	}
}

func TestGlobInvalidQueries(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, q := range []GlobQuery{
		{Root: root, Pattern: ""},
		{Root: root, Pattern: "a{b"},
		{Root: root, Pattern: "[ab"},
		{Root: root, Pattern: "a}b"},
		{Root: root, Pattern: "{a,{b}"},
		{Root: filepath.Join(root, "missing"), Pattern: "*"},
		{Root: file, Pattern: "*"},
	} {
		if _, err := Glob(context.Background(), q); err == nil {
			t.Errorf("%+v: no error", q)
		}
	}
}

// TestGlobEnginesAgreeOnGoroot compares the engines on the Go source tree.
func TestGlobEnginesAgreeOnGoroot(t *testing.T) {
	rg := requireRg(t)
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skip("go env GOROOT failed")
	}
	root := filepath.Join(strings.TrimSpace(string(out)), "src")
	for _, p := range []string{"*.go", "net/**/*_test.go", "*.{s,S}", "testdata/**", "**/testdata/*.txt", "go.mod"} {
		q := GlobQuery{Root: root, Pattern: p, Sort: GlobSortPath}
		got, err := Glob(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		q.Ripgrep = rg
		want, err := Glob(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		if want.Total == 0 || !slices.Equal(paths(got.Files), paths(want.Files)) {
			t.Errorf("%q: native %d files, rg %d files", p, got.Total, want.Total)
		}
	}
}

func TestGlobNilRipgrepMeansNative(t *testing.T) {
	root := globTree(t, []string{"a.go"}, nil)
	var rg *ripgrep.Engine
	res, err := Glob(context.Background(), GlobQuery{Root: root, Pattern: "*.go", Ripgrep: rg})
	if err != nil || res.Backend != "native" || res.Total != 1 {
		t.Errorf("Glob = %+v, %v", res, err)
	}
}
