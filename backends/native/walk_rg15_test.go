package native

import (
	"errors"
	"testing"
)

// TestRipgrep15FileSelection pins each file-selection rule that differs
// between rg 13, 14.1.1 and 15.2.0, with rg 15.2.0's answer: the walker
// follows rg 15.2. Every case is also compared with the rg on PATH, and is
// skipped when that rg is not 15.x.
func TestRipgrep15FileSelection(t *testing.T) {
	repo := gitRepo
	g := func(globs ...string) WalkOptions { return WalkOptions{Globs: globs} }
	runWalkCases(t, []walkCase{
		{name: "a stray } in an ignore file skips that line only", rg15: true,
			tree: repo("}c.txt\nd.txt\n", "[ab", "c.txt", "d.txt"), want: []string{"[ab", "c.txt"}},
		{name: "nested alternates", rg15: true,
			tree: fixture{"ab": "", "bb": "", "xb": "", "b": "", "cb": ""}, opts: g("{x,{a,b}}b"), want: []string{"ab", "bb", "xb"}},
		{name: "nested alternates with a recursive prefix inside", rg15: true,
			tree: fixture{"a/b/c.go": "", "c.go": "", "d.rs": "", "x/d.rs": ""}, opts: g("{**/c.go,{d,e}.rs}"), want: []string{"a/b/c.go", "c.go", "d.rs"}},
		{name: "an unclosed [ in .gitignore is a literal", rg15: true,
			tree: repo("[ab\n[x[y\n", "[ab", "a", "c.txt", "[x[y", "x"), want: []string{"a", "c.txt", "x"}},
		{name: "a trailing escaped slash in .ignore is a directory rule", rg15: true,
			tree: fixture{".git/": "", "d/.ignore": "\\/\n", "d/f/x": "", "d/y": ""}, want: []string{"d/y"}},
		{name: "a prefix glob matches below a directory name holding a newline", rg15: true,
			tree: repo("npm-debug.log*\n", "a\nb/npm-debug.log1", "ok"), want: []string{"ok"}},
		{name: "a glob ending in a dot", rg15: true,
			tree: fixture{"a.": "", "ab": "", "b": "", "d/a.": ""}, opts: g("a."), want: []string{"a.", "d/a."}},
		{name: "a byte order mark before the first .gitignore line is dropped", rg15: true,
			tree: repo("\ufeffa.txt\n", "a.txt", "b.txt"), want: []string{"b.txt"}},
		{name: "a .jj directory makes .gitignore apply", rg15: true,
			tree: fixture{".jj/": "", ".gitignore": "a.txt\n", "a.txt": "", "b.txt": ""}, want: []string{"b.txt"}},
		{name: "a .jj directory with NoIgnore",
			tree: fixture{".jj/": "", ".gitignore": "a.txt\n", "a.txt": "", "b.txt": ""}, opts: WalkOptions{NoIgnore: true}, want: []string{"a.txt", "b.txt"}},
		{name: "a .jj directory above the walk root", rg15: true,
			tree: fixture{".jj/": "", ".gitignore": "*.txt\n", "sub/a.txt": "", "sub/b.md": ""}, root: "sub", want: []string{"b.md"}},
		{name: "an anchored global excludes line is anchored at the working directory", rg15: true,
			tree: fixture{".git/": "", "~/.config/git/ignore": "/top.txt\n", "top.txt": "", "d/top.txt": ""}, want: []string{"d/top.txt"}},
		{name: "a quoted core.excludesFile", rg15: true,
			tree: fixture{".git/": "", "~/.gitconfig": "[core]\n\texcludesFile = \"~/ig\"\n", "~/ig": "*.bak\n", "a.bak": "", "b.txt": ""}, want: []string{"b.txt"}},
		{name: "core.excludesFile from GIT_CONFIG_GLOBAL", rg15: true,
			tree: fixture{".git/": "", "~/gc": "[core]\n\texcludesFile = ~/ig2\n", "~/ig2": "*.tmp\n", "a.tmp": "", "b.txt": ""},
			env:  map[string]string{"GIT_CONFIG_GLOBAL": "~/gc"}, want: []string{"b.txt"}},
		{name: "a parent .gitignore rule with a slash applies below an explicit sub path", rg15: true,
			tree: repo("/sub/x.txt\nsub/deep/y.txt\n", "sub/x.txt", "sub/deep/y.txt", "sub/z.txt"),
			opts: WalkOptions{Paths: []string{"sub"}}, want: []string{"sub/z.txt"}},
	})
}

// TestGlobErrorsMatchRipgrep: a --glob that rg 15 refuses (exit 2) is a
// *GlobError from Walk, of the kind rg names.
func TestGlobErrorsMatchRipgrep(t *testing.T) {
	for _, tc := range []struct {
		glob string
		kind GlobErrorKind
		rg15 bool // rg 13 and 14 accepted it
	}{
		{"a}b", GlobUnopenedAlternates, true},
		{"}", GlobUnopenedAlternates, true},
		{"{a,b}}", GlobUnopenedAlternates, true},
		{"[ab", GlobUnclosedClass, false},
		{"a{b", GlobUnclosedAlternates, false},
		{"{a,{b}", GlobUnclosedAlternates, false},
		{"a\\", GlobDanglingEscape, false},
		{"[z-a]", GlobInvalidRange, false},
	} {
		t.Run(tc.glob, func(t *testing.T) {
			t.Parallel()
			if tc.rg15 {
				rgPath(t) // "rg 13 and 14 accepted this glob"
			}
			rg := rgPath(t)
			root := t.TempDir()
			o := WalkOptions{Root: root, Globs: []string{tc.glob}}
			if !rgFailsOnGlobs(t, rg, root, o) {
				t.Fatalf("rg accepts --glob %q", tc.glob)
			}
			_, err := Walk(t.Context(), o, func(File) error { return nil })
			var ge *GlobError
			if !errors.As(err, &ge) || ge.Kind != tc.kind || ge.Glob != tc.glob {
				t.Fatalf("Walk error = %v, want a GlobError of kind %d for %q", err, tc.kind, tc.glob)
			}
			if err := CheckGlob(tc.glob); !errors.As(err, &ge) {
				t.Errorf("CheckGlob = %v, want a GlobError", err)
			}
		})
	}
}
