package conformance

import (
	"os"
	"path/filepath"

	"github.com/rgkit/rgkit/search"
)

// The rows tree holds one small directory per behaviour that differs
// between ripgrep 13, 14 and 15 (docs/conformance.md, "rg releases"). Every
// engine, whichever rg the ripgrep engine runs, must give rg 15.2.0's
// answer on each; the Why of each case names the row and what rg 13 and 14
// say instead. Directories holding a .git (or .jj) directory are
// repositories of their own, as rg sees them (it only checks that the
// directory exists).

// rowsMarkers are the empty directories that make a rows directory a
// repository.
var rowsMarkers = []string{"r8/.git", "r10/.git", "r11/.git", "r12/.git", "r14/.git", "r15/.jj", "r18/.git"}

func rowsFiles() []file {
	n := func(path string) file { return text(path, "needle\n", "a row of the rg release table") }
	return []file{
		// Rows 1-7: query behaviours.
		text("q/w.txt", "Hello World\nline 10\nK kelvin\n", "row 1: -w"),
		text("q/b.txt", "line 10\n-flag x\nfoo\n\tbody\n", "row 2: \\B"),
		text("q/caret.txt", "(x\nx\n\n y\n9a\n", "row 2: \\B^{2}"),
		text("q/u.txt", "Hello\n", "row 3: empty loop"),
		text("q/multi.txt", "func start() {\n\tbody()\n}\nbegin\nmiddle\nend\nalpha\nbeta\n", "row 5: -U -m"),
		text("q/m.txt", "a1\nb\na2\nc\na3\nd\ne\na4\n", "rows 6, 7: -c -m -A, -C -A"),
		// Row 8 (ignore-file half): a stray '}' makes the line a bad glob,
		// skipped by rg 15; rg 13 and 14 read "}c.txt" as "c.txt".
		text("r8/.gitignore", "}c.txt\n", "row 8"), n("r8/c.txt"), n("r8/d.txt"),
		// Rows 9 and 13: globs (nested alternates, a trailing '.').
		n("g/ab"), n("g/bb"), n("g/xb"), n("g/a."), n("g/a"),
		// Row 10: unclosed class in .gitignore is literal in rg 15.
		text("r10/.gitignore", "[ab\n", "row 10"), n("r10/[ab"), n("r10/c.txt"),
		// Row 11: a trailing "\/" is a directory-only rule since rg 14.
		text("r11/d/.ignore", "\\/\n", "row 11"), n("r11/d/f/x"), n("r11/d/y"),
		// Row 12: npm-debug.log* under a parent holding '\n' (written by
		// rowsBuild only where the file system allows it).
		text("r12/.gitignore", "npm-debug.log*\n", "row 12"), n("r12/ok"),
		// Row 14: a UTF-8 BOM before the first rule.
		text("r14/.gitignore", "\xef\xbb\xbfa.txt\n", "row 14"), n("r14/a.txt"), n("r14/b.txt"),
		// Row 15: a .jj repository without .git.
		text("r15/.gitignore", "a.txt\n", "row 15"), n("r15/a.txt"), n("r15/b.txt"),
		// Row 18: a parent .gitignore rule when a sub-path is searched.
		text("r18/.gitignore", "/sub/x.txt\nsub/deep/y.txt\n", "row 18"),
		n("r18/sub/x.txt"), n("r18/sub/deep/y.txt"), n("r18/sub/z.txt"),
		// Row 19: the type table (ts gained *.cts and *.mts).
		n("types/a.ts"), n("types/b.cts"), n("types/c.mts"), n("types/d.js"),
		unicodeFile(),
	}
}

// rowsNewlineDir is row 12's directory name holding a newline.
const rowsNewlineDir = "r12/a\nb"

// buildRows writes the rows tree under b.c.Dir/rows.
func (b *builder) buildRows() error {
	for _, f := range rowsFiles() {
		if err := b.writeFile("rows/"+f.path, f.data, f.note); err != nil {
			return err
		}
	}
	for _, d := range rowsMarkers {
		if err := os.MkdirAll(filepath.Join(b.c.Dir, "rows", filepath.FromSlash(d)), 0o755); err != nil {
			return err
		}
	}
	if b.c.Features.NewlineNames {
		if err := b.writeFile("rows/"+rowsNewlineDir+"/npm-debug.log1", []byte("needle\n"), "row 12"); err != nil {
			return err
		}
	}
	return nil
}

// rowCases are the release-table rows as cases over the rows tree, each
// with rg 15.2.0's answer where it is a file list.
func rowCases() []Case {
	in := func(paths ...string) search.Query { return search.Query{Pattern: "needle", Paths: paths} }
	files := func(q search.Query) search.Query { q.Mode = search.ModeFilesWithMatches; return q }
	qf := func(path, pattern string) search.Query {
		return search.Query{Pattern: pattern, Paths: []string{"q/" + path}}
	}
	r12 := []string{"r12/ok"}
	return []Case{
		{Name: "rows/1-word-half-boundaries", Tree: TreeRows, Query: func() search.Query { q := qf("w.txt", `\w[a-z]\w*`); q.Word = true; return q }(),
			Why: "row 1: -w is \\b{start-half}P\\b{end-half}: \"line\" on \"line 10\" (rg 13: \"ine\")"},
		{Name: "rows/2-not-word-boundary-spans", Tree: TreeRows, Query: qf("b.txt", `(?-u:\B)[^ ]+?`),
			Why: "row 2: \\B spans as rg 14+ places them"},
		{Name: "rows/2-not-word-boundary-caret", Tree: TreeRows, Query: qf("b.txt", `(?-u:\B)^`),
			Why: "row 2: \\B^ matches where the line starts with a non-word character (rg 13: never)"},
		{Name: "rows/2-not-word-boundary-caret-repeat", Tree: TreeRows, Query: qf("caret.txt", `\B^{2}`),
			Why: "row 2: \\B^{2} selects lines 1, 3 and 4"},
		{Name: "rows/3-empty-loop", Tree: TreeRows, Query: qf("u.txt", `([[:upper:]]*?)*`),
			Why: "row 3: the first span of an empty loop is empty (rg 13: \"H\")"},
		{Name: "rows/5-multiline-max-count", Tree: TreeRows, Query: func() search.Query {
			q := qf("multi.txt", `\w+\n\w+`)
			q.Multiline, q.MaxCountPerFile = true, 1
			return q
		}(), Why: "row 5: -U -m 1 counts one match; later matches in its lines are shown (rg 13/14: the joined block)"},
		{Name: "rows/5-multiline-max-count-count", Tree: TreeRows, Query: func() search.Query {
			q := qf("multi.txt", `\w+\n\w+`)
			q.Multiline, q.MaxCountPerFile, q.Mode = true, 1, search.ModeCount
			return q
		}(), Why: "row 5: -c -U -m 1"},
		{Name: "rows/6-count-max-after", Tree: TreeRows, Query: func() search.Query {
			q := qf("m.txt", "a")
			q.Mode, q.MaxCountPerFile, q.After = search.ModeCount, 2, 2
			return q
		}(), Why: "row 6: -c -m 2 -A 2 is 3 (the match inside the trailing context counts; rg 13/14: 2)"},
		{Name: "rows/7-context-sides", Tree: TreeRows, Query: func() search.Query {
			q := qf("m.txt", "a3")
			q.Before, q.After = 1, 2
			return q
		}(), Why: "row 7: -C1 -A2 is -B1 -A2 (the CLI merges the flags; engines get both sides)"},
		{Name: "rows/8-stray-brace-in-ignore-file", Tree: TreeRows, Query: files(in("r8")), WantFiles: []string{"r8/c.txt", "r8/d.txt"},
			Why: "row 8: \"}c.txt\" in .gitignore is a bad glob, skipped (rg 13/14: ignores c.txt)"},
		{Name: "rows/9-nested-alternates", Tree: TreeRows, Query: func() search.Query { q := files(in("g")); q.Globs = []string{"{x,{a,b}}b"}; return q }(),
			WantFiles: []string{"g/ab", "g/bb", "g/xb"}, Why: "row 9: nested braces are accepted (rg 13/14: error)"},
		{Name: "rows/10-unclosed-class-in-ignore-file", Tree: TreeRows, Query: files(in("r10")), WantFiles: []string{"r10/c.txt"},
			Why: "row 10: \"[ab\" in .gitignore is the literal name (rg 13/14: line skipped)"},
		{Name: "rows/11-trailing-escaped-slash", Tree: TreeRows, Query: files(in("r11")), WantFiles: []string{"r11/d/y"},
			Why: "row 11: \"\\/\" in .ignore is a directory-only rule matching every directory (rg 13: skipped)"},
		{Name: "rows/12-newline-in-parent-name", Tree: TreeRows, Query: files(in("r12")), WantFiles: r12,
			Why: "row 12: npm-debug.log* matches below a directory whose name holds a newline (rg 13: no match)"},
		{Name: "rows/13-glob-ending-in-dot", Tree: TreeRows, Query: func() search.Query { q := files(in("g")); q.Globs = []string{"a."}; return q }(),
			WantFiles: []string{"g/a."}, Why: "row 13: the glob \"a.\" matches the name \"a.\" (rg 13/14: never)"},
		{Name: "rows/14-bom-in-gitignore", Tree: TreeRows, Query: files(in("r14")), WantFiles: []string{"r14/b.txt"},
			Why: "row 14: the UTF-8 BOM is stripped, so a.txt is ignored (rg 13/14: first rule dead)"},
		{Name: "rows/15-jj-repository", Tree: TreeRows, Query: files(in("r15")), WantFiles: []string{"r15/b.txt"},
			Why: "row 15: .gitignore applies in a .jj repository (rg 13/14: not a repository)"},
		{Name: "rows/15-jj-repository-no-ignore", Tree: TreeRows, Query: func() search.Query { q := files(in("r15")); q.NoIgnore = true; return q }(),
			WantFiles: []string{"r15/a.txt", "r15/b.txt"}, Why: "row 15: not with --no-ignore (15.2.0)"},
		{Name: "rows/18-parent-ignore-under-sub-path", Tree: TreeRows, Query: files(in("r18/sub")), WantFiles: []string{"r18/sub/z.txt"},
			Why: "row 18: the parent's rules apply when the sub-path is searched (rg 14.x: sub/deep/y.txt and sub/x.txt listed)"},
		{Name: "rows/19-type-table", Tree: TreeRows, Query: func() search.Query { q := files(in("types")); q.Types = []string{"ts"}; return q }(),
			WantFiles: []string{"types/a.ts", "types/b.cts", "types/c.mts"}, Why: "row 19: ts holds *.cts and *.mts (rg 13: *.ts, *.tsx only)"},
		{Name: "rows/4-pattern-needing-nul", Tree: TreeRows, Query: qf("w.txt", `a\x00b`), Invalid: true,
			Why: "row 4: a pattern that needs a NUL byte is an error (rg 13: silently nothing)"},
	}
}

// UnicodeLines is rows/q/uni.txt, one entry per line: Latin with
// diacritics, Cyrillic, Greek, Arabic-Indic digits, the Kelvin sign,
// combining marks and Unicode spaces.
var UnicodeLines = []string{
	"naïve résumé",
	"цифры ١٢٣ and 42",
	"ключ_слово ключ",
	"Ωμέγα λάμβδα ΣΊΣΥΦΟΣ σίσυφος",
	"\u212A kelvin K k",
	"e\u0301cole cafe\u0301",
	"tab\tand\u00a0nbsp\u2003em",
	"ASCII word_1 42",
}

func unicodeFile() file {
	var data []byte
	for _, l := range UnicodeLines {
		data = append(append(data, l...), '\n')
	}
	return file{"q/uni.txt", data, "Unicode classes"}
}

// unicodeCases check rg's Unicode-aware dialect: \w \d \s \b, -w, -i and
// the classes and flags of Rust's regex syntax, on every engine.
func unicodeCases() []Case {
	u := func(name, pattern string, why string) Case {
		return Case{Name: "unicode/" + name, Tree: TreeRows, Query: search.Query{Pattern: pattern, Paths: []string{"q/uni.txt"}}, Why: why}
	}
	word := func(c Case) Case { c.Query.Word = true; return c }
	fold := func(c Case) Case { c.Query.Case = search.CaseInsensitive; return c }
	return []Case{
		u("word-class-latin", `na\wve`, `\w holds ï`),
		u("digits", `\d+`, `\d holds Arabic-Indic digits`),
		u("word-cyrillic", `\w+_слово`, `\w holds Cyrillic letters`),
		u("space", `\s+`, `\s holds NBSP and EM SPACE`),
		u("non-space", `\S+`, `\S is Unicode`),
		u("boundary-cyrillic", `\bслово\b`, `_ is a word character: no boundary inside ключ_слово`),
		u("boundary-start", `\bключ`, `\b before a Cyrillic word`),
		u("not-boundary", `\B\w`, `\B between Unicode word characters`),
		u("combining-marks", `\w+`, `combining marks are word characters`),
		u("mark-class", `e\p{M}`, `\p{M} after e`),
		u("greek-script", `\p{Greek}+`, `script classes`),
		u("cyrillic-intersection", `[\p{L}&&\p{Cyrillic}]+`, `class intersection`),
		u("cyrillic-difference", `[а-я--[аеиоуыэюя]]+`, `class difference`),
		u("ascii-word", `(?-u:\w)+`, `(?-u:\w) is ASCII`),
		u("ascii-digit", `(?-u:\d)+`, `(?-u:\d) is ASCII`),
		u("posix-alpha", `[[:alpha:]]+`, `POSIX classes are ASCII in rg`),
		u("verbose", `(?x) к л ю ч`, `(?x) drops spaces`),
		u("start-boundary", `\b{start}\w+`, `\b{start}`),
		u("end-boundary", `\w+\b{end}`, `\b{end}`),
		word(u("word-cyrillic-flag", `ключ`, `-w: ключ alone, not in ключ_слово`)),
		word(u("word-latin", `résumé`, `-w on Latin with diacritics`)),
		word(u("word-digits", `\d+`, `-w with Arabic-Indic digits`)),
		fold(u("fold-cyrillic", `КЛЮЧ`, `-i folds Cyrillic`)),
		fold(u("fold-kelvin", `k`, `-i: k matches the Kelvin sign`)),
		fold(u("fold-sigma", `ΣΊΣΥΦΟΣ`, `-i: Σ folds to σ and ς`)),
		fold(word(u("fold-word-kelvin", `kelvin`, `-i -w`))),
	}
}
