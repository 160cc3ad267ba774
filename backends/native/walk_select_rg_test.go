package native

import "testing"

// semanticsTree is a small repository with one file of each kind the
// selection rules treat differently.
var semanticsTree = fixture{
	".git/":                 "",
	".gitignore":            "ignored.txt\nnode_modules/\n",
	".hid/h.txt":            "123",
	"bin.dat":               "1\x0023",
	"src/a.txt":             "123",
	"sub/a.ts":              "123",
	"sub/b.tsx":             "123",
	"link.txt":              "-> src/a.txt",
	"untracked.txt":         "123",
	"ignored.txt":           "123",
	"node_modules/pkg/x.js": "123",
	".env":                  "123",
}

// oddNames holds file names that exercise glob syntax corners.
var oddNames = fixture{"ab": "", "a}b": "", "b": "", "-x": "", "*star": "", "é.txt": "", "e.txt": "", "d/f": "", "d/e/f": "", "d/e/g/f": "", "df": ""}

// TestGlobsMatchRipgrep pins rg --glob semantics.
func TestGlobsMatchRipgrep(t *testing.T) {
	g := func(globs ...string) WalkOptions { return WalkOptions{Globs: globs} }
	runWalkCases(t, []walkCase{
		{name: "brace alternates", tree: semanticsTree, opts: g("*.{ts,tsx}"), want: []string{"sub/a.ts", "sub/b.tsx"}},
		{name: "basename glob at any depth", tree: semanticsTree, opts: g("*.ts")},
		{name: "glob with a slash is anchored", tree: semanticsTree, opts: g("sub/*.ts")},
		{name: "directory double star", tree: semanticsTree, opts: g("src/**")},
		{name: "leading double star", tree: semanticsTree, opts: g("**/*.ts")},
		{name: "a positive glob beats gitignore for a file", tree: semanticsTree, opts: g("ignored.txt"), want: []string{"ignored.txt"}},
		{name: "an ignored directory is not descended for a file glob", tree: semanticsTree, opts: g("*.js"), want: []string{}},
		{name: "a glob matching the ignored directory itself whitelists it", tree: semanticsTree, opts: g("node_modules", "*.js")},
		{name: "negative glob excludes", tree: semanticsTree, opts: g("!*.ts")},
		{name: "negative glob excludes a directory", tree: semanticsTree, opts: g("!sub")},
		{name: "later globs win", tree: semanticsTree, opts: g("*.ts", "!a.ts")},
		{name: "later globs win the other way", tree: semanticsTree, opts: g("!a.ts", "*.ts")},
		{name: "a positive glob lets a hidden file through", tree: semanticsTree, opts: g(".env")},
		{name: "a positive glob does not open a hidden directory", tree: semanticsTree, opts: g("*.txt")},
		{name: "leading slash glob", tree: semanticsTree, opts: g("/src/*")},
		{name: "trailing slash glob matches directories", tree: semanticsTree, opts: g("!src/")},
		{name: "comment glob is dropped", tree: semanticsTree, opts: g("#x")},
		{name: "star star alone", tree: semanticsTree, opts: g("**")},
		{name: "newlines in names are bytes like any other", rg15: true,
			tree: fixture{".git/": "", ".gitignore": "*.log\nnpm-debug.log*\n**/a/keep.txt\n", "a\nb/x.log": "", "a\nb/npm-debug.log1": "", "c\nd.go": "", "q\nr/a/keep.txt": "", "ok.go": ""},
			opts: WalkOptions{TypeGlobs: []string{"*.go", "*.log*", "*.txt"}}, want: []string{"c\nd.go", "ok.go"}},
		{name: "an escaped closing brace is a literal", tree: oddNames, opts: g("a\\}b")},
		{name: "a class holding a closing brace", tree: oddNames, opts: g("a[}]b")},
		{name: "a negated class matches a slash", tree: fixture{"a/a/b": "", "a/b": "", "b": "", "ab": ""}, opts: g("*[!x]*/b"),
			want: []string{"a/a/b", "a/b"}},
		{name: "empty alternative is dropped", tree: oddNames, opts: g("{ab,}")},
		{name: "class with a range and a literal dash", tree: oddNames, opts: g("[a-b-]*")},
		{name: "negated class", tree: oddNames, opts: g("[!a]*")},
		{name: "escaped star", tree: oddNames, opts: g("\\**")},
		{name: "question mark is one byte", tree: oddNames, opts: g("?.txt")},
		{name: "double star in the middle", tree: oddNames, opts: g("d/**/f")},
		{name: "star star slash star star", tree: oddNames, opts: g("**/**")},
		{name: "globs with hidden", tree: semanticsTree, opts: WalkOptions{Hidden: true, Globs: []string{"*.txt"}}},
		{name: "globs with no-ignore", tree: semanticsTree, opts: WalkOptions{NoIgnore: true, Globs: []string{"*.js", "*.txt"}}},
	})
}

// TestSelectionMatchesRipgrep pins hidden files, types, symlinks, sizes and
// explicit paths against rg.
func TestSelectionMatchesRipgrep(t *testing.T) {
	runWalkCases(t, []walkCase{
		{name: "defaults on the semantics tree", tree: semanticsTree,
			want: []string{"bin.dat", "src/a.txt", "sub/a.ts", "sub/b.tsx", "untracked.txt"}},
		{name: "hidden files and directories with Hidden, .git never", tree: fixture{".git/config": "", ".git/HEAD": "", ".hid/h": "", ".f": "", "a": "", "d/.git": "gitdir: x"},
			opts: WalkOptions{Hidden: true}, want: []string{".f", ".hid/h", "a"}},
		{name: "a whitelisted hidden directory is descended", tree: fixture{".ignore": "!.github/\n", ".github/w.yml": "", ".other/x": ""}},
		{name: "types filter by file name", tree: fixture{"a.go": "", "d/b.go": "", "c.txt": "", ".h.go": "", ".hd/e.go": ""},
			opts: WalkOptions{TypeGlobs: []string{"*.go"}}},
		{name: "types with a literal name", tree: fixture{".bashrc": "", "x.sh": "", "y": ""},
			opts: WalkOptions{TypeGlobs: []string{"*.sh", ".bashrc"}}},
		{name: "an ignored file of the type stays ignored", tree: fixture{".git/": "", ".gitignore": "b.go\n", "a.go": "", "b.go": ""},
			opts: WalkOptions{TypeGlobs: []string{"*.go"}}},
		{name: "a glob whitelist bypasses types", tree: fixture{"a.go": "", "b.rs": "", "c.txt": ""},
			opts: WalkOptions{TypeGlobs: []string{"*.go"}, Globs: []string{"*.rs"}}},
		{name: "symlinks are not followed by default", tree: fixture{"t/f": "", "lf": "-> t/f", "ld": "-> t", "broken": "-> nowhere"},
			want: []string{"t/f"}},
		{name: "symlinks followed with FollowSymlinks, loops skipped", tree: fixture{"t/f": "", "t/up": "-> ..", "lf": "-> t/f", "ld": "-> t", "self": "-> ."},
			opts: WalkOptions{FollowSymlinks: true}},
		{name: "broken symlinks skipped when following", tree: fixture{"a": "", "broken": "-> nowhere"},
			opts: WalkOptions{FollowSymlinks: true}, want: []string{"a"}},
		{name: "a symlink loop between two links ends the walk", tree: fixture{"a": "-> b", "b": "-> a", "c": ""},
			opts: WalkOptions{FollowSymlinks: true}, want: []string{"c"}},
		{name: "a link to a directory outside the tree is not followed by default", tree: fixture{"out/secret": "", "ws/link": "-> ../out", "ws/a": ""},
			root: "ws", want: []string{"a"}},
		{name: "named pipes are never listed", tree: fixture{"p": "<fifo>", "a": ""}, want: []string{"a"}},
		{name: "max file size", tree: fixture{"small": "12345", "exact": "1234567890", "big": "12345678901"},
			opts: WalkOptions{MaxFileSize: 10}, want: []string{"exact", "small"}},
		{name: "explicit paths: a directory, a file, an ignored file, a hidden directory",
			tree: fixture{".git/": "", ".gitignore": "ign.txt\n", "d/a": "", "e/b": "", "ign.txt": "", ".h/c": "", ".h/.d": ""},
			opts: WalkOptions{Paths: []string{"d", "ign.txt", ".h"}}},
		{name: "an explicit symlink to a directory is followed", tree: fixture{"t/f": "", "ld": "-> t"},
			opts: WalkOptions{Paths: []string{"ld"}}, want: []string{"ld/f"}},
		{name: "an explicit path inside an ignored directory is walked",
			tree: fixture{".git/": "", ".gitignore": "node_modules/\n", "node_modules/p/x.js": ""},
			opts: WalkOptions{Paths: []string{"node_modules/p"}}},
		{name: "anchored patterns of ignore files above an explicit path", rg15: true,
			tree: fixture{".git/": "", ".gitignore": "/sub/x.txt\nsub/deep/y.txt\n", "sub/x.txt": "", "sub/deep/y.txt": "", "sub/z.txt": ""},
			opts: WalkOptions{Paths: []string{"sub"}}, want: []string{"sub/z.txt"}},
		{name: "globs apply below explicit paths", tree: fixture{"d/a.ts": "", "d/b.js": ""},
			opts: WalkOptions{Paths: []string{"d"}, Globs: []string{"d/*.ts"}}},
	})
}
