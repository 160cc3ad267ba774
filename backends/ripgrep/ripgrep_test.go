package ripgrep

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/internal/searchtest"
	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/search"
)

func realRipgrep(t *testing.T) *Engine {
	t.Helper()
	testtool.Need(t, "rg")
	return New(nil)
}

// rgCorpus holds the cases where engines tend to differ.
var rgCorpus = map[string]string{
	".git/":              "",
	".gitignore":         "ignored.txt\nnode_modules/\n",
	".ignore":            "dotignored.txt\n",
	"a.txt":              "foo\nbar\nfoo bar foo\nbaz\nqux\nfoo\n",
	"src/main.go":        "package main\n\nfunc main() {\n\tprintln(\"foo 42\")\n}\n",
	"src/x.ts":           "let foo = 1;\r\nconst Foo = 2;\r\n",
	"src/y.tsx":          "<Foo/>\n",
	"ignored.txt":        "foo\n",
	"dotignored.txt":     "foo\n",
	"node_modules/m.js":  "foo\n",
	".hidden/h.txt":      "foo\n",
	"bin.dat":            "foo\n\x00bar foo\n",
	"latin1.txt":         "caf\xe9 foo\n",
	"nofinal.txt":        "x\nfoo",
	"utf16.txt":          "\xff\xfef\x00o\x00o\x00\n\x00",
	"bom8.txt":           "\xef\xbb\xbffoo\n",
	"words.txt":          "foo_bar foo-bar foofoo foo\nécole fooé\n",
	"multi.txt":          "alpha\nbeta\ngamma\nalpha beta\n",
	"name with space.md": "foo\n",
	"-rf":                "foo\n",
	"uni.txt":            "KELVIN \u212a and k\n",
}

var rgQueries = []search.Query{
	{Pattern: "foo"},
	{Pattern: "foo", Mode: search.ModeFilesWithMatches},
	{Pattern: "foo", Mode: search.ModeCount},
	{Pattern: "foo", Before: 1, After: 1},
	{Pattern: "foo", MaxCountPerFile: 1, After: 2},
	{Pattern: "foo", Hidden: true},
	{Pattern: "foo", NoIgnore: true},
	{Pattern: "foo", Word: true},
	{Pattern: "FOO", Case: search.CaseInsensitive},
	{Pattern: "k", Case: search.CaseInsensitive},
	{Pattern: "foo", Types: []string{"ts"}},
	{Pattern: "foo", Globs: []string{"*.{ts,tsx}"}},
	{Pattern: "foo", Globs: []string{"src/**"}},
	{Pattern: "foo", Globs: []string{"!*.txt"}},
	{Pattern: "foo", Globs: []string{"ignored.txt"}},
	{Pattern: "foo", Paths: []string{"src", "a.txt"}},
	{Pattern: "foo", Paths: []string{"-rf"}},
	{Pattern: `\d+`},
	{Pattern: `foo$`},
	{Pattern: "alpha\nbeta", Multiline: true},
	{Pattern: `a\nb|gamma\nalpha`, Multiline: true},
	{Pattern: `caf.`},
	{Pattern: "foo", MaxFileSize: 5},
	{Pattern: "a.b", Fixed: true},
	{Pattern: "", Paths: []string{"a.txt", "src"}},
}

// knownRgNativeDifferences are reported to the lead; the test skips them
// rather than hide them.
var knownRgNativeDifferences = map[string]string{
	// rg reports an empty match at every byte offset, inside multi-byte
	// characters too (uni.txt, words.txt); the native engine only at
	// character boundaries.
	"": "empty matches inside UTF-8 sequences",
}

// TestRipgrepAgreesWithNative runs both engines over the same tree and
// queries; both give rg 15.2.0's answer (an older rg only prunes for the
// native matcher), so any difference is
// a bug in one of them.
func TestRipgrepAgreesWithNative(t *testing.T) {
	rg := realRipgrep(t)
	root := searchtest.WriteTree(t, rgCorpus)
	for _, q := range rgQueries {
		q.Root = root
		t.Run(strings.ReplaceAll(q.Pattern, "\n", `\n`), func(t *testing.T) {
			want, _, err := searchtest.Run(t, native.New(), q)
			if err != nil {
				t.Fatalf("native: %v", err)
			}
			got, _, err := searchtest.Run(t, rg, q)
			if err != nil {
				t.Fatalf("ripgrep: %v", err)
			}
			if got.String() != want.String() {
				if why, ok := knownRgNativeDifferences[q.Pattern]; ok {
					t.Skipf("known difference: %s", why)
				}
				t.Errorf("query %+v\nripgrep:\n%s\nnative:\n%s", q, got, want)
			}
		})
	}
}

func TestRipgrepArgsKeepInputOutOfFlags(t *testing.T) {
	root := t.TempDir()
	q := search.Query{Pattern: "--pre=./x.sh", Fixed: true, Root: root, Paths: []string{"-rf"}, Globs: []string{"*.go"}, Types: []string{"ts"}, Hidden: true}
	args, err := rgArgs(q, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"--json", "--no-config", "--color=never", "--case-sensitive", "--fixed-strings", "--hidden",
		"--type-add=rgkit:*.cts", "--type-add=rgkit:*.mts", "--type-add=rgkit:*.ts", "--type-add=rgkit:*.tsx", "--type=rgkit", "--glob=*.go", "--glob=!.git",
		"--regexp=--pre=./x.sh", "--", filepath.Join(root, "-rf")}
	if !slices.Equal(args, want) {
		t.Errorf("args:\n got %q\nwant %q", args, want)
	}
	for _, a := range args[slices.Index(args, "--")+1:] {
		if !filepath.IsAbs(a) {
			t.Errorf("path %q after -- is not absolute", a)
		}
	}
}

// TestRipgrepPreFlagPatternRunsNothing: a pattern that looks like rg's
// --pre flag is searched as text; the marker script never runs.
func TestRipgrepPreFlagPatternRunsNothing(t *testing.T) {
	rg := realRipgrep(t)
	root := searchtest.WriteTree(t, map[string]string{"notes.txt": "use --pre=./x.sh here\n"})
	marker := filepath.Join(root, "marker")
	script := filepath.Join(root, "x.sh")
	testtool.WriteExecutable(t, script, []byte("#!/bin/sh\ntouch "+marker+"\ncat \"$1\"\n"))
	// Control: the bare tool, with the pattern as a positional argument,
	// does run the script, so the attack is real.
	if rgPath, err := exec.LookPath("rg"); err == nil {
		c := exec.Command(rgPath, "--no-config", "--pre=./x.sh", "use", "notes.txt")
		c.Dir = root
		_ = c.Run()
		if _, err := os.Stat(marker); err != nil {
			t.Fatalf("control: rg --pre did not run the script (%v); the test would prove nothing", err)
		}
		searchtest.Must(t, os.Remove(marker))
	}
	for _, p := range []string{"--pre=./x.sh", "-f/etc/passwd", "--files"} {
		log, _, err := searchtest.Run(t, rg, search.Query{Pattern: p, Root: root, Fixed: strings.HasPrefix(p, "-f")})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("%s: the marker script ran", p)
		}
		if p == "--pre=./x.sh" && !strings.Contains(log.String(), "use --pre=./x.sh here") {
			t.Errorf("%s: not searched as text:\n%s", p, log)
		}
	}
}

func TestRipgrepIgnoresRipgrepConfigPath(t *testing.T) {
	realRipgrep(t)
	root := searchtest.WriteTree(t, map[string]string{"a.txt": "foo\n"})
	cfg := filepath.Join(t.TempDir(), "rc")
	searchtest.Must(t, os.WriteFile(cfg, []byte("--files-without-match\n--ignore-case\n"), 0o644))
	rg := New(nil)
	rg.Environ = func() []string { return append(os.Environ(), "RIPGREP_CONFIG_PATH="+cfg) }
	log, _, err := searchtest.Run(t, rg, search.Query{Pattern: "foo", Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), `match 1 col=1`) {
		t.Errorf("the config file changed the search:\n%s", log)
	}
}

func TestRipgrepNonUTF8NamesAndContent(t *testing.T) {
	rg := realRipgrep(t)
	root := searchtest.WriteTree(t, map[string]string{"caf\xe9.txt": "x\xff foo\n"})
	log, _, err := searchtest.Run(t, rg, search.Query{Pattern: "foo", Root: root})
	if err != nil {
		t.Fatal(err)
	}
	want := "== \"caf\\xe9.txt\"\n   begin\n   match 1 col=4 spans=[{3 6}] \"x\\xff foo\"\n   end matched=1\n"
	if log.String() != want {
		t.Errorf("got\n%s\nwant\n%s", log, want)
	}
}

func TestRipgrepUnavailable(t *testing.T) {
	cases := map[string]func(context.Context) (string, error){
		"not found": func(context.Context) (string, error) { return "", exec.ErrNotFound },
		"relative":  func(context.Context) (string, error) { return "rg", nil },
		"missing":   func(context.Context) (string, error) { return "/nonexistent/rg", nil },
	}
	for name, locate := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := New(locate).Available(context.Background())
			if !errors.Is(err, search.ErrUnavailable) {
				t.Errorf("err = %v, want ErrUnavailable", err)
			}
		})
	}
}

func TestRipgrepRefusesBinaryInsideRoot(t *testing.T) {
	rgPath := testtool.Need(t, "rg")
	root := t.TempDir()
	data, err := os.ReadFile(rgPath)
	searchtest.Must(t, err)
	planted := filepath.Join(root, "rg")
	testtool.WriteExecutable(t, planted, data)
	rg := New(func(context.Context) (string, error) { return planted, nil })
	_, _, err = searchtest.Run(t, rg, search.Query{Pattern: "x", Root: root})
	if !errors.Is(err, search.ErrUnavailable) {
		t.Errorf("err = %v, want ErrUnavailable for an rg inside the root", err)
	}
}

// TestRipgrepSinkStopEndsTheSearch: ErrStop from the sink stops rg at once
// and is not an error.
func TestRipgrepSinkStopEndsTheSearch(t *testing.T) {
	rg := realRipgrep(t)
	files := map[string]string{}
	for i := range 200 {
		files[filepath.Join("d", strings.Repeat("x", i%7+1), "f"+strings.Repeat("y", i%5)+string(rune('a'+i%26))+".txt")] = "needle\nneedle\n"
	}
	root := searchtest.WriteTree(t, files)
	q, err := search.Normalize(search.Query{Pattern: "needle", Root: root})
	searchtest.Must(t, err)
	s := &rgStopAfter{n: 3}
	if _, err := rg.Search(context.Background(), q, s); err != nil {
		t.Fatalf("err = %v, want nil", err)
	}
	if s.calls != 3 {
		t.Errorf("the sink was called %d times after asking to stop at 3", s.calls)
	}
}

type rgStopAfter struct{ n, calls int }

func (s *rgStopAfter) Begin(string) error     { return s.tick() }
func (s *rgStopAfter) Line(search.Line) error { return s.tick() }
func (s *rgStopAfter) End(search.FileSummary) error {
	return s.tick()
}
func (s *rgStopAfter) tick() error {
	s.calls++
	if s.calls >= s.n {
		return search.ErrStop
	}
	return nil
}

// TestRipgrepInvalidGlobIsTheUsersError: a glob rg 15 refuses ('[' is an
// unclosed class) is an error for the user on every rg release, never
// ErrUnsupported (which would let the Chain hand it to git grep).
func TestRipgrepInvalidGlobIsTheUsersError(t *testing.T) {
	rg := realRipgrep(t)
	root := searchtest.WriteTree(t, map[string]string{"a.txt": "foo\n"})
	for _, g := range []string{"[", "a}b", "{a"} {
		_, _, err := searchtest.Run(t, rg, search.Query{Pattern: "foo", Root: root, Globs: []string{g}})
		var ge *native.GlobError
		if !errors.As(err, &ge) || errors.Is(err, search.ErrUnsupported) {
			t.Errorf("glob %q: err = %v, want a *native.GlobError", g, err)
		}
	}
}

// TestRipgrepNotWordBoundaryBeforeCaret: \B^{2} (and \B^+, \B(^)) select
// rg 15's lines 1, 3 and 4 of "(x\nx\n\n y\n9a\n"; an rg that cannot give
// them (13 never matches \B before ^) refuses instead.
func TestRipgrepNotWordBoundaryBeforeCaret(t *testing.T) {
	rg := realRipgrep(t)
	info, err := rg.Available(context.Background())
	searchtest.Must(t, err)
	root := searchtest.WriteTree(t, map[string]string{"t": "(x\nx\n\n y\n9a\n"})
	for _, p := range []string{`\B^{2}`, `\B^+`, `\B(^)`} {
		q, err := search.Normalize(search.Query{Pattern: p, Root: root, Mode: search.ModeCount})
		searchtest.Must(t, err)
		out, _, err := searchtest.Run(t, rg, q)
		if errors.Is(err, search.ErrUnsupported) {
			if d, _ := search.Differences(info.Version); !slices.Contains(d, search.RegexEngine) {
				t.Errorf("%q: rg %s refused: %v", p, info.Version, err)
			}
			continue
		}
		searchtest.Must(t, err)
		if !strings.Contains(out.String(), "end matched=3") {
			t.Errorf("%q: rg %s: %s, want 3 lines (1, 3, 4)", p, info.Version, out)
		}
	}
}

// rg opens path strings, so a query confined beneath a held root is
// refused before rg is even looked for, and a Chain moves on.
func TestRipgrepRefusesConfinedQueries(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	held, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	r := New(func(context.Context) (string, error) { return "", errors.New("never asked") })
	_, err = r.Search(t.Context(), search.Query{Pattern: "x", Root: root, Confine: held}, search.Discard)
	if !errors.Is(err, search.ErrUnsupported) {
		t.Fatalf("confined Search = %v; want ErrUnsupported", err)
	}
}
