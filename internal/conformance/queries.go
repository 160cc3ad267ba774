package conformance

import (
	"bytes"

	"github.com/rgkit/rgkit/search"
)

// needleDefault is what rg reports for "needle" over the repo with its
// defaults: not hidden, not ignored, binary files only up to their NUL,
// symlinks not followed, FIFO skipped. utf16.txt is found because rg
// transcodes UTF-16 with a BOM; unreadable.txt only when mode 000 is not
// enforced (root).
var needleDefault = []string{
	"-dash.txt", "README.md", "app.tsx", "bin_late.dat", "crlf.txt",
	"docs/guide.md", "keep.log", "latin1.txt", "main.go",
	"names/-leading.txt", "names/colon:name.txt", "names/with space.txt", nonUTF8Name, newlineName,
	"nofinal.txt", "prec.txt", "script.py",
	"src/anchored.txt", "src/build", "src/important.tmp", "src/keep.gen.go", "src/lib.py",
	"src/main.go", "src/nested/local.txt", "src/util/helper.go",
	"sub/a.ts", "sub/b.tsx", "sub/inner/c.ts", "subrepo/inner.txt", "subrepo/n.log", "subrepo/n.tmp",
	"top.ts", "untracked.txt", unreadableName, "utf16.txt",
}

// needleHidden are the hidden files holding "needle".
var needleHidden = []string{".hfile.txt", ".hidden/h.txt", "src/.dotfile"}

// needleIgnored are the files the ignore rules exclude.
var needleIgnored = []string{
	"a.log", "anchored.txt", "build/out.txt", "docs/notes.draft", "dotignore.txt", "excluded.txt",
	"ignored.txt", "node_modules/pkg/index.js", "rgignore.txt", "src/deep/d.txt", "src/local.txt",
	"src/other.tmp", "src/x.gen.go", "subrepo/inner_ignored.txt", "tracked_ignored.txt", "x.tmp",
}

// needleSrcOverride is every file under src/ holding "needle": the positive
// glob src/** matches them all, hidden and ignored ones included.
var needleSrcOverride = []string{
	"src/.dotfile", "src/anchored.txt", "src/build", "src/deep/d.txt", "src/important.tmp", "src/keep.gen.go",
	"src/lib.py", "src/local.txt", "src/main.go", "src/nested/local.txt", "src/other.tmp", "src/util/helper.go", "src/x.gen.go",
}

// needleTS are the TypeScript files (rg's ts type: *.ts, *.tsx, *.cts, *.mts).
var needleTS = []string{"app.tsx", "sub/a.ts", "sub/b.tsx", "sub/inner/c.ts", "top.ts"}

func needle() search.Query { return search.Query{Pattern: "needle"} }

func inFile(path, pattern string) search.Query {
	return search.Query{Pattern: pattern, Paths: []string{path}}
}

// Queries returns the query matrix: every dialect, case, glob, type, context,
// output-mode and path case the engines must agree on, plus the patterns that
// Normalize must refuse.
func Queries() []Case {
	var cases []Case
	add := func(c ...Case) { cases = append(cases, c...) }
	add(selectionCases()...)
	add(dialectCases()...)
	add(caseModeCases()...)
	add(globAndTypeCases()...)
	add(contextCases()...)
	add(modeCases()...)
	add(pathCases()...)
	add(invalidCases()...)
	add(rowCases()...)
	add(unicodeCases()...)
	return cases
}

// selectionCases decide which files are searched at all.
func selectionCases() []Case {
	cs := []Case{
		{Name: "select/default", Query: needle(), WantFiles: needleDefault,
			Why: "hidden, ignored (root, nested, anchored, dir-only, negated, info/exclude, .ignore, .rgignore), tracked-but-ignored, binary, symlinks, FIFO"},
		{Name: "select/hidden", Query: search.Query{Pattern: "needle", Hidden: true},
			WantFiles: plus(needleDefault, needleHidden...), Why: "hidden files and dirs, never .git"},
		{Name: "select/no-ignore", Query: search.Query{Pattern: "needle", NoIgnore: true},
			WantFiles: plus(needleDefault, needleIgnored...), Why: "every ignore source off"},
		{Name: "select/hidden-no-ignore", Query: search.Query{Pattern: "needle", Hidden: true, NoIgnore: true},
			WantFiles: plus(plus(needleDefault, needleHidden...), needleIgnored...)},
		{Name: "select/parent-gitignore", Tree: TreeRepoSrc, Query: needle(),
			WantFiles: []string{"anchored.txt", "build", "important.tmp", "keep.gen.go", "lib.py", "main.go", "nested/local.txt", "util/helper.go"},
			Why:       "root is src/: the repo root's .gitignore (*.tmp) still applies, src/.gitignore re-includes important.tmp"},
		{Name: "select/no-git-tree", Tree: TreeNoGit, Query: needle(),
			WantFiles: plus([]string{"big1mb.txt", "sub/w.txt", "x.txt", "y.txt"}, manyWant()...),
			Why:       ".gitignore outside a git repo is not applied; .ignore is"},
		{Name: "select/follow-symlinks", Query: search.Query{Pattern: "needle", FollowSymlinks: true, Globs: []string{"!link_out"}},
			Why: "-L: links to a file and a directory are followed, loops and broken links skipped (link_out is excluded here; see the security tests)"},
		{Name: "select/many-files", Tree: TreeNoGit, Query: search.Query{Pattern: "needle", Paths: []string{"many"}}, WantFiles: manyWant(),
			Why: "1100 files with 199-byte names: file lists on a command line must be batched"},
		{Name: "select/many-files-count", Tree: TreeNoGit, Query: search.Query{Pattern: "needle|file 1", Mode: search.ModeCount, Paths: []string{"many"}}},
		{Name: "select/gitignore-syntax", Query: search.Query{Pattern: "probe", Paths: []string{"gi"}}, WantFiles: GitignoreSyntaxKept,
			Why: "escaped # and !, trailing spaces, ** forms, classes, ?, no re-include inside an ignored dir"},
		{Name: "select/gitignore-syntax-no-ignore", Query: search.Query{Pattern: "probe", Paths: []string{"gi"}, NoIgnore: true}},
		{Name: "select/parent-dot-ignore", Tree: TreeParentIgnore, Query: needle(), WantFiles: []string{"q.txt", "r.txt"},
			Why: "a .ignore in a directory above the root applies; a .gitignore there does not (no git)"},
		{Name: "select/nested-repo", Query: search.Query{Pattern: "needle", Paths: []string{"subrepo"}},
			WantFiles: []string{"subrepo/inner.txt", "subrepo/n.log", "subrepo/n.tmp"},
			Why:       "a nested git repository: its own .gitignore applies, the outer repo's *.log and *.tmp do not; git grep skips it"},
		{Name: "select/max-filesize", Query: search.Query{Pattern: "needle", MaxFileSize: 1000},
			WantFiles: minus(needleDefault, "bin_late.dat")},
		{Name: "select/binary", Query: search.Query{Pattern: "needle", Globs: []string{"*.dat"}},
			WantFiles: []string{"bin_late.dat"},
			Why:       "early NUL: nothing; late NUL (~200 KB): the match before it only"},
		{Name: "select/utf16-bom", Query: inFile("utf16.txt", "utf16"), WantFiles: []string{"utf16.txt"},
			Why: "rg transcodes UTF-16 with a BOM"},
		{Name: "select/long-line", Tree: TreeNoGit, Query: inFile("big1mb.txt", "needle"), WantFiles: []string{"big1mb.txt"},
			Why: "a 1 MiB line: column 524289"},
		{Name: "select/awkward-names", Query: search.Query{Pattern: "needle", Paths: []string{"names"}},
			WantFiles: []string{"names/-leading.txt", "names/colon:name.txt", "names/with space.txt", nonUTF8Name, newlineName}},
	}
	return append(cs, finerSelectionCases()...)
}

// finerSelectionCases are rg's finer file-selection switches, as Query
// fields; rg 15.2.0 with the same flags is the reference.
func finerSelectionCases() []Case {
	q := func(f func(q *search.Query)) search.Query {
		x := needle()
		f(&x)
		return x
	}
	return []Case{
		{Name: "select/no-ignore-vcs", Query: q(func(q *search.Query) { q.NoIgnoreVCS = true }), Why: ".gitignore, info/exclude and the global file off; .ignore and .rgignore on"},
		{Name: "select/no-ignore-dot", Query: q(func(q *search.Query) { q.NoIgnoreDot = true }), Why: ".ignore and .rgignore off"},
		{Name: "select/no-ignore-exclude", Query: q(func(q *search.Query) { q.NoIgnoreExclude = true }), Why: "info/exclude off"},
		{Name: "select/no-ignore-global", Query: q(func(q *search.Query) { q.NoIgnoreGlobal = true })},
		{Name: "select/no-ignore-parent", Tree: TreeRepoSrc, Query: q(func(q *search.Query) { q.NoIgnoreParent = true }),
			Why: "root is src/: the repo root's .gitignore no longer applies"},
		{Name: "select/no-ignore-parent-dot", Tree: TreeParentIgnore, Query: q(func(q *search.Query) { q.NoIgnoreParent = true }),
			Why: "the .ignore above the root no longer applies"},
		{Name: "select/no-require-git", Tree: TreeNoGit, Query: q(func(q *search.Query) { q.NoRequireGit = true }),
			Why: ".gitignore outside a repository applies"},
		{Name: "select/ignore-case-insensitive", Query: q(func(q *search.Query) { q.IgnoreCaseInsensitive = true })},
		{Name: "select/max-depth-0", Query: q(func(q *search.Query) { q.MaxDepth, q.MaxDepthSet = 0, true }), Why: "nothing below the root"},
		{Name: "select/max-depth-1", Query: q(func(q *search.Query) { q.MaxDepth, q.MaxDepthSet = 1, true }), Why: "the root's own files"},
		{Name: "select/max-depth-2-glob", Query: q(func(q *search.Query) { q.MaxDepth, q.MaxDepthSet, q.Globs = 2, true, []string{"*.txt"} })},
		{Name: "select/iglob", Query: q(func(q *search.Query) { q.IGlobs = []string{"*.TXT", "!A*"} }), Why: "ASCII case folded"},
		{Name: "select/iglob-after-globs", Query: q(func(q *search.Query) { q.Globs, q.IGlobs = []string{"!*.txt"}, []string{"*.TXT"} }),
			Why: "an --iglob comes after every --glob and wins the tie"},
		{Name: "select/glob-case-insensitive", Query: q(func(q *search.Query) { q.Globs, q.GlobCaseInsensitive = []string{"*.TXT", "!**/NESTED/**"}, true })},
		{Name: "select/type-selections", Query: q(func(q *search.Query) {
			q.TypeSelections = []search.TypeSelection{{Name: "a", Globs: []string{"*.txt", "*.go"}}, {Name: "b", Globs: []string{"a*"}, Negate: true}}
		}), Why: "the last matching selection decides"},
		{Name: "select/type-not-directory", Query: q(func(q *search.Query) {
			q.TypeSelections = []search.TypeSelection{{Name: "a", Globs: []string{"nested", "sub"}, Negate: true}}
		}), Why: "types never exclude a directory"},
		{Name: "select/hidden-gitdir", Query: q(func(q *search.Query) { q.Hidden, q.GitDir = true, true }), Why: ".git is a hidden directory like any other"},
	}
}

// dialectCases check that the request language is rg's dialect on every
// engine; WantLines are rg 15.2.0's.
func dialectCases() []Case {
	d := func(name, pattern string, lines []int, why string) Case {
		return Case{Name: "dialect/" + name, Query: inFile("dialect.txt", pattern), WantLines: lines, Why: why}
	}
	return []Case{
		d("digit", `\d+`, []int{1, 7, 9}, `\d (Unicode digits; none here but ASCII ones); ERE has no \d`),
		d("word-class-unicode", `caf\w`, []int{2}, `\w is Unicode in rg: é is a word character`),
		d("word-boundary-unicode", `\bcaf\b`, []int{}, `\b is Unicode in rg: caf|é is no boundary`),
		d("word-boundary-ascii", `(?-u:\b)caf(?-u:\b)`, []int{2}, `(?-u:\b) is ASCII: caf|é is a boundary`),
		d("word-boundary", `\bfoo\b`, []int{5}, "foobar, barfoo and foo_bar do not match"),
		d("inline-case-flag", `(?i)café`, []int{2, 3}, "(?i) folds É/é"),
		d("lazy", `a+?`, []int{1, 2, 4, 5, 6, 7, 9, 12, 13, 15, 16}, "lazy: one submatch per a; ERE reads +? as (a+)?"),
		d("escaped-brace", `a\{,3\}`, []int{7}, "an escaped brace is a literal (rg refuses a{,3})"),
		d("posix-class", `[[:alpha:]]+ [[:digit:]]+`, []int{1}, "POSIX classes in brackets"),
		d("class-set-ops", `[a-z&&[^x]]`, []int{1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17}, "an intersection: a lowercase letter other than x"),
		d("anchor-start", `^Hello`, []int{10}, "^ at line start"),
		d("empty-pattern", ``, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17}, "the empty pattern matches every line"),
		d("unicode-script", `\p{Greek}+`, []int{16}, "Unicode classes stay Unicode"),
		d("negated-class-unicode", `[^a-z ]+`, []int{1, 2, 3, 4, 5, 7, 8, 9, 10, 12, 13, 14, 16, 17}, "a negated class matches a multi-byte character whole"),
		{Name: "dialect/text-start-anchor", Query: inFile("context.txt", `\Aline 1`), WantLines: []int{1, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19},
			Why: "rg matches line by line, so \\A is the start of every line; a whole-buffer engine must not read it as the file start"},
		{Name: "dialect/text-end-anchor", Query: inFile("context.txt", `hit\z`), WantLines: ContextHits,
			Why: "\\z at the end of every line, as rg"},
		{Name: "dialect/dotall-flag-in-line-mode", Query: inFile("context.txt", `(?s)line.1`), WantLines: []int{1, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19},
			Why: "(?s) cannot make '.' cross a line outside multiline mode"},
		d("leading-dash", `-flag`, []int{12}, "a pattern starting with '-' is not an option"),
		d("pre-flag-text", `--pre=./x.sh`, []int{12}, "searched as text, never an rg flag"),
		d("non-capturing-group", `(?:foo|bar)(?:bar|foo)`, []int{5}, "(?: is not ERE"),
		d("named-group", `(?P<w>ans)wer`, []int{1}, "named groups"),
		d("counted-repeat", `a{2,3}|o{2,}`, []int{5, 6}, "{m,n} and {m,}"),
		d("empty-alternative", `(foo|)bar`, []int{5}, "an empty branch"),
		d("hex-escapes", `\x43AF\x{C9}`, []int{3}, "\\x43 and \\x{C9}: CAFÉ"),
		d("unicode-category", `\p{Lu}\p{Ll}+`, []int{7, 10, 16}, "\\p{Lu}\\p{Ll}+: Go, Hello, World, Ωmega"),
		d("insensitive-category", `(?i)\p{Lu}{3}é`, []int{2, 3, 4}, "(?i) folds classes and é/É: café, CAFÉ, résumé"),
		d("mid-pattern-flag", `hello (?i)WORLD`, []int{11}, "a flag in the middle applies to the rest only"),
		d("scoped-flag", `(?i:HELLO) world`, []int{11}, "(?i:...) applies inside the group only: not Hello World"),
		d("ungreedy-flag", `(?U)a+`, []int{1, 2, 4, 5, 6, 7, 9, 12, 13, 15, 16}, "(?U) swaps greediness: one-a submatches"),
		d("bracket-specials", `[]x\[]|[.][0-9]|[-^]f`, []int{8, 9, 12}, "[]x\\[] is the class {], x, [} (an unescaped [ would open a nested class); . in a class; - and ^ as literals"),
		d("never-matches", `a$b`, []int{}, "$ in the middle of a line cannot match"),
		d("anchored-alternation", `^(Hello|hello) world$`, []int{11}, "case-sensitive World vs world"),
		d("long-alternation", `zeta|omega|answer|kelvin|resume|ngstr|lait|noir|caret|dialect|nothing|missing|absent`, []int{1, 2, 9, 14, 15, 17},
			"many literals (prefilter sets)"),
		{Name: "dialect/boundary-after-a-match", Query: inFile("context.txt", `\B[^ ]+?\p{L}?`),
			Why: "\\B after a previous submatch (rg 13 searched the rest of the line as if it began the text)"},
		{Name: "dialect/repeated-boundary", Query: inFile("dialect.txt", `(\s*\b|-flag){1,2}\D[^a-z]`),
			Why: "a repeated group holding \\b (rg 13 misplaced it)"},
		{Name: "dialect/boundary-before-anchor", Query: search.Query{Pattern: `\B^`, Paths: []string{"dialect.txt", "multi.txt"}},
			Why: "\\B^ holds at the start of a line that starts with a non-word character (-flag, a tab); rg 13 never matched \\B^"},
		{Name: "dialect/word-boundary-before-anchor", Query: inFile("dialect.txt", `\b^`),
			Why: "the same with \\b: it holds at the start of every line that starts with a word character"},
		{Name: "dialect/empty-loop", Query: inFile("dialect.txt", `([[:upper:]]*?)*`),
			Why: "a star over a lazy, empty-matching group: Rust takes \"H\" at the start of Hello, Go an empty match"},
		{Name: "dialect/anchor-end-crlf", Query: search.Query{Pattern: `end$`},
			WantFiles: []string{"multi.txt"}, Why: "$ does not match before \\r (no --crlf)"},
		{Name: "dialect/dot-invalid-utf8", Query: inFile("latin1.txt", `caf. needle`), WantLines: []int{},
			Why: ". never matches the invalid byte 0xE9"},
		{Name: "dialect/negated-class-invalid-utf8", Query: inFile("latin1.txt", `caf[^a-z]`), WantLines: []int{},
			Why: "a negated class never matches the invalid byte 0xE9 (Go alone would read it as U+FFFD)"},
		{Name: "dialect/non-word-invalid-utf8", Query: inFile("latin1.txt", `caf\W`),
			Why: "ASCII \\W next to an invalid byte: does the byte count as a non-word character?"},
		{Name: "dialect/dot-before-cr", Query: inFile("crlf.txt", `end.`), WantLines: []int{2},
			Why: "'.' matches the '\\r' of a CRLF line (it is part of the line); the span must still end within the text"},
		{Name: "dialect/space-class", Query: inFile("edge/tabs.txt", `\s\w+`), WantLines: []int{1},
			Why: "\\s is Unicode White_Space in rg: \\v is a space"},
		{Name: "dialect/latin1-literal", Query: inFile("latin1.txt", `needle`), WantLines: []int{1},
			Why: "Latin-1 is text, not binary"},
		{Name: "dialect/crlf-text", Query: inFile("crlf.txt", `needle`), WantLines: []int{2},
			Why: "the \\r\\n terminator is not part of the text"},
		{Name: "dialect/no-final-newline", Query: inFile("nofinal.txt", `newline`), WantLines: []int{2}},
		{Name: "dialect/empty-pattern-line-ends", Query: search.Query{Pattern: "", Paths: []string{"crlf.txt", "nofinal.txt"}},
			WantFiles: []string{"crlf.txt", "nofinal.txt"}, Why: "CRLF is one line break; a final line without \\n counts"},
		{Name: "dialect/empty-pattern-edges", Query: search.Query{Pattern: "", Paths: []string{"edge"}},
			WantFiles: []string{"edge/blank-crlf.txt", "edge/cr-only.txt", "edge/newline.txt", "edge/tabs.txt"},
			Why:       "an empty file has no line; a lone \n is one empty line; CR alone does not end a line"},
		{Name: "dialect/anchors-empty-line", Query: search.Query{Pattern: `^$`, Paths: []string{"edge"}},
			WantFiles: []string{"edge/newline.txt"}, Why: "an empty LF line; an empty CRLF line holds a \\r, so ^$ does not match it (no --crlf)"},
		{Name: "dialect/many-submatches", Query: inFile("dialect.txt", `o`), WantLines: []int{5, 7, 10, 11, 15, 17},
			Why: "every submatch span, columns of the first"},
	}
}

// caseModeCases cover sensitive, insensitive and smart case, fixed strings
// and word mode.
func caseModeCases() []Case {
	q := func(pattern string, mode search.CaseMode) search.Query {
		return search.Query{Pattern: pattern, Paths: []string{"dialect.txt"}, Case: mode}
	}
	return []Case{
		{Name: "case/sensitive", Query: q("hello", search.CaseSensitive), WantLines: []int{11}},
		{Name: "case/insensitive", Query: q("hello world", search.CaseInsensitive), WantLines: []int{10, 11}},
		{Name: "case/insensitive-unicode", Query: q("ångström", search.CaseInsensitive), WantLines: []int{14},
			Why: "Å/å and Ö/ö fold"},
		{Name: "case/insensitive-kelvin", Query: q("k", search.CaseInsensitive), WantLines: []int{17},
			Why: "the Kelvin sign U+212A folds to k (a 3-byte submatch)"},
		{Name: "case/insensitive-long-s", Query: q("STRONG", search.CaseInsensitive), WantLines: []int{17},
			Why: "ſ (U+017F) folds to s"},
		{Name: "case/smart-lower", Query: q("hello", search.CaseSmart), WantLines: []int{10, 11},
			Why: "all lowercase: insensitive"},
		{Name: "case/smart-upper", Query: q("Hello", search.CaseSmart), WantLines: []int{10},
			Why: "an uppercase letter: sensitive"},
		{Name: "case/smart-unicode-upper", Query: q("ÅNGSTRÖM", search.CaseSmart), WantLines: []int{14},
			Why: "a non-ASCII uppercase letter makes smart case sensitive: one submatch, not two"},
		{Name: "case/smart-class-escape", Query: q(`\Shello`, search.CaseSmart),
			Why: "\\S is not a literal: the pattern is all lowercase, so insensitive"},
		{Name: "fixed/metachars", Query: search.Query{Pattern: "(a+b)*c?", Fixed: true, Paths: []string{"dialect.txt"}}, WantLines: []int{9}},
		{Name: "fixed/dollar-dot", Query: search.Query{Pattern: "$5.00", Fixed: true, Paths: []string{"dialect.txt"}}, WantLines: []int{9}},
		{Name: "fixed/insensitive", Query: search.Query{Pattern: "CAFÉ", Fixed: true, Case: search.CaseInsensitive, Paths: []string{"dialect.txt"}}, WantLines: []int{2, 3}},
		{Name: "word/plain", Query: search.Query{Pattern: "foo", Word: true, Paths: []string{"dialect.txt"}}, WantLines: []int{5},
			Why: "only the first foo of line 5 is a word"},
		{Name: "word/non-word-edge", Query: search.Query{Pattern: "-flag", Word: true, Paths: []string{"dialect.txt"}}, WantLines: []int{12},
			Why: "rg -w is \\b{start-half}pat\\b{end-half}, not \\bpat\\b: a pattern that starts with a non-word character"},
		{Name: "word/unicode-neighbour", Query: search.Query{Pattern: "na", Word: true, Paths: []string{"dialect.txt"}},
			Why: "naïve: is ï a word character next to na?"},
		{Name: "word/insensitive", Query: search.Query{Pattern: "HELLO", Word: true, Case: search.CaseInsensitive, Paths: []string{"dialect.txt"}}, WantLines: []int{10, 11}},
		{Name: "word/submatch-offsets", Query: search.Query{Pattern: `\w[a-z]\w*`, Word: true, Paths: []string{"dialect.txt"}},
			Why: "-w spans start at the word (Hello; rg 13 reported ello: ripgrep#2574, #2623)"},
		{Name: "word/submatch-offsets-context", Query: search.Query{Pattern: `\w[a-z]\w*`, Word: true, Paths: []string{"context.txt"}},
			Why: "the same on \"line 10\" (rg 13: ine)"},
		{Name: "word/empty-match", Query: search.Query{Pattern: `(World[[:punct:]]+|[^ ]?){1,2}`, Word: true, Case: search.CaseInsensitive, Paths: []string{"dialect.txt"}},
			Why: "-w with a pattern that can match empty (rg 13 reported empty or shifted spans)"},
		{Name: "word/lazy-empty", Query: search.Query{Pattern: `.*?`, Word: true, Paths: []string{"dialect.txt"}},
			Why: "-w around a pattern that matches the empty string"},
		{Name: "word/leading-space-class", Query: search.Query{Pattern: `\s*\D+kelvin`, Word: true, Case: search.CaseSmart, Paths: []string{"dialect.txt"}},
			Why: "-w where the pattern itself may start with a non-word character"},
		{Name: "word/star-non-space", Query: search.Query{Pattern: `\S*`, Word: true, Case: search.CaseInsensitive, Paths: []string{"edge/tabs.txt"}},
			Why: "-w with \\S* next to \\t and \\v"},
		{Name: "word/fixed", Query: search.Query{Pattern: "foo_bar", Word: true, Fixed: true, Paths: []string{"dialect.txt"}}, WantLines: []int{5}},
	}
}

// globAndTypeCases cover include/exclude globs (rg --glob) and types.
func globAndTypeCases() []Case {
	g := func(globs ...string) search.Query {
		return search.Query{Pattern: "needle", Globs: globs}
	}
	return []Case{
		{Name: "glob/brace", Query: g("*.{ts,tsx}"), WantFiles: needleTS, Why: "brace alternatives; GNU --include has none"},
		{Name: "glob/dir-doublestar", Query: g("src/**"), WantFiles: needleSrcOverride,
			Why: "anchored at the root; a positive glob match beats ignore, hidden and type rules, and src/** matches the ignored dir src/deep itself"},
		{Name: "glob/any-depth", Query: g("**/*.ts"), WantFiles: []string{"sub/a.ts", "sub/inner/c.ts", "top.ts"}},
		{Name: "glob/one-level", Query: g("sub/*.ts"), WantFiles: []string{"sub/a.ts"}, Why: "* does not cross '/'"},
		{Name: "glob/exclude", Query: g("!*.md", "!*.ts"), WantFiles: minus(needleDefault, "README.md", "docs/guide.md", "sub/a.ts", "sub/inner/c.ts", "top.ts")},
		{Name: "glob/include-and-exclude", Query: g("*.{ts,tsx}", "!sub/**"), WantFiles: []string{"app.tsx", "top.ts"}},
		{Name: "glob/anchored", Query: g("/main.go"), WantFiles: []string{"main.go"}, Why: "a leading / anchors at the root"},
		{Name: "glob/basename-any-depth", Query: g("main.go"), WantFiles: []string{"main.go", "src/main.go"}, Why: "no slash: any depth"},
		{Name: "glob/case-sensitive", Query: g("*.MD"), WantFiles: []string{}, Why: "globs are case-sensitive"},
		{Name: "glob/class-and-question", Query: g("sub/[ab].t?"), WantFiles: []string{"sub/a.ts"}},
		{Name: "glob/hidden-dir-by-name", Query: g(".hidden/**"), WantFiles: []string{},
			Why: "the hidden directory itself does not match .hidden/**, so it is not descended"},
		{Name: "glob/middle-doublestar", Query: g("src/**/helper.go"), WantFiles: []string{"src/util/helper.go"}},
		{Name: "glob/last-wins", Query: g("!src/**", "src/main.go"), WantFiles: []string{"src/main.go"},
			Why: "later globs take precedence over earlier ones"},
		{Name: "glob/exclude-then-include-order", Query: g("src/main.go", "!src/**"), WantFiles: []string{}},
		{Name: "glob/with-no-ignore", Query: search.Query{Pattern: "needle", NoIgnore: true, Globs: []string{"*.log", "*.tmp"}},
			WantFiles: []string{"a.log", "keep.log", "src/important.tmp", "src/other.tmp", "subrepo/n.log", "subrepo/n.tmp", "x.tmp"}},
		{Name: "glob/positive-on-ignored-file", Query: g("ignored.txt"), WantFiles: []string{"ignored.txt"},
			Why: "a positive glob overrides the ignore rules for a file"},
		{Name: "glob/positive-into-ignored-dir", Query: g("*.js"), WantFiles: []string{},
			Why: "an ignored directory (node_modules/) is not descended for a glob on its files"},
		{Name: "type/go", Query: search.Query{Pattern: "needle", Types: []string{"go"}},
			WantFiles: []string{"main.go", "src/keep.gen.go", "src/main.go", "src/util/helper.go"}},
		{Name: "type/ts", Query: search.Query{Pattern: "needle", Types: []string{"ts"}}, WantFiles: needleTS},
		{Name: "type/py-md", Query: search.Query{Pattern: "needle", Types: []string{"py", "md"}},
			WantFiles: []string{"README.md", "docs/guide.md", "script.py", "src/lib.py"}},
		{Name: "type/and-glob", Query: search.Query{Pattern: "needle", Types: []string{"go"}, Globs: []string{"src/**"}},
			WantFiles: needleSrcOverride, Why: "rg checks --glob overrides before types: a file the glob matches is searched whatever its type"},
		{Name: "glob/positive-beats-hidden-and-ignore", Query: g("*.txt"),
			WantFiles: []string{"-dash.txt", ".hfile.txt", "anchored.txt", "crlf.txt", "dotignore.txt", "excluded.txt",
				"ignored.txt", "latin1.txt", "names/-leading.txt", "names/colon:name.txt", "names/with space.txt", nonUTF8Name, newlineName,
				"nofinal.txt", "prec.txt", "rgignore.txt", "src/anchored.txt", "src/local.txt", "src/nested/local.txt",
				"subrepo/inner.txt", "subrepo/inner_ignored.txt", "tracked_ignored.txt", unreadableName, "untracked.txt", "utf16.txt"},
			Why: "files matching a positive glob skip the hidden and ignore checks; directories do not (.hidden/, src/deep/)"},
		{Name: "glob/exclude-dir", Query: g("!src", "!names"), WantFiles: minus(needleDefault, "src/anchored.txt", "src/build", "src/important.tmp",
			"src/keep.gen.go", "src/lib.py", "src/main.go", "src/nested/local.txt", "src/util/helper.go",
			"names/-leading.txt", "names/colon:name.txt", "names/with space.txt", nonUTF8Name, newlineName)},
	}
}

// contextCases cover -A/-B/-C, group merging and -m with context.
func contextCases() []Case {
	c := func(name string, before, after, max int, why string) Case {
		return Case{Name: "context/" + name, Why: why, Query: search.Query{
			Pattern: "hit", Paths: []string{"context.txt"}, Before: before, After: after, MaxCountPerFile: max}}
	}
	return []Case{
		c("after", 0, 1, 0, "after context; 25/26 merge"),
		c("before", 2, 0, 0, "before context; 5/7 overlap"),
		c("both-overlap", 2, 2, 0, "overlapping groups merge; 29 runs to the end of file"),
		c("max-count", 0, 0, 2, "-m 2"),
		c("max-count-after", 0, 3, 2, "context after the last counted match is still printed"),
		c("max-count-match-in-after", 0, 3, 1, "a later match inside the trailing context"),
		c("max-count-both", 1, 1, 3, "-m 3 -C 1"),
		{Name: "multiline/newline", Query: search.Query{Pattern: `begin\nmiddle`, Multiline: true, Paths: []string{"multi.txt"}},
			WantLines: []int{4, 5}, Why: "one KindMatch line per physical line"},
		{Name: "multiline/dotall", Query: search.Query{Pattern: `start\(\).*?body`, Multiline: true, Paths: []string{"multi.txt"}},
			WantLines: []int{1, 2}, Why: "'.' matches '\\n' in multiline mode"},
		{Name: "multiline/across-crlf", Query: search.Query{Pattern: `end\r?\nlast`, Multiline: true, Paths: []string{"crlf.txt"}},
			WantLines: []int{2, 3}, Why: "a match over a CRLF break: spans end at the text, without the \r"},
		{Name: "multiline/fixed-newline", Query: search.Query{Pattern: "begin\nmiddle", Fixed: true, Multiline: true, Paths: []string{"multi.txt"}},
			WantLines: []int{4, 5}, Why: "a literal with a line break"},
		{Name: "multiline/no-newline-in-pattern", Query: search.Query{Pattern: "needle", Multiline: true, Globs: []string{"*.txt"}, Paths: []string{"crlf.txt", "nofinal.txt", "latin1.txt"}},
			WantFiles: []string{"crlf.txt", "latin1.txt", "nofinal.txt"}, Why: "-U with a pattern that cannot cross lines"},
		{Name: "multiline/max-count", Query: search.Query{Pattern: `\w+\n\w+`, Multiline: true, MaxCountPerFile: 1, Paths: []string{"multi.txt"}},
			Why: "-m counts matches, each spanning lines"},
		{Name: "context/empty-matches", Query: search.Query{Pattern: `x*`, Paths: []string{"nofinal.txt"}, After: 1},
			WantLines: []int{1, 2}, Why: "a pattern matching the empty string makes every line a match"},
		{Name: "context/at-eof-no-newline", Query: search.Query{Pattern: `first`, Paths: []string{"nofinal.txt"}, After: 3},
			WantLines: []int{1}, Why: "after-context reaches a last line without \\n"},
		{Name: "context/long-line", Tree: TreeNoGit, Query: search.Query{Pattern: `y{3}$`, Paths: []string{"big1mb.txt"}, Before: 1},
			WantLines: []int{1}},
		{Name: "multiline/line-anchors", Query: search.Query{Pattern: `^begin\n^middle$`, Multiline: true, Paths: []string{"multi.txt"}},
			WantLines: []int{4, 5}, Why: "^ and $ stay line anchors in multiline mode"},
		{Name: "multiline/count-lines-not-matches", Query: search.Query{Pattern: "foo", Fixed: true, Multiline: true, Paths: []string{"dialect.txt"}},
			Why: "the file's MatchedLines is rg -c's count of lines (1), not of matches (4), in multiline mode too"},
		{Name: "multiline/context", Query: search.Query{Pattern: `middle\nend`, Multiline: true, Before: 1, After: 1, Paths: []string{"multi.txt"}},
			WantLines: []int{5, 6}},
	}
}

// modeCases cover the three output modes.
func modeCases() []Case {
	return []Case{
		{Name: "mode/files", Query: search.Query{Pattern: "needle", Mode: search.ModeFilesWithMatches}, WantFiles: needleDefault},
		{Name: "mode/count", Query: search.Query{Pattern: "needle", Mode: search.ModeCount}, WantFiles: minus(needleDefault, "bin_late.dat"),
			Why: "rg -c prints nothing for a file it stopped reading at a NUL (bin_late.dat), though rg -l lists it"},
		{Name: "mode/count-lines", Query: search.Query{Pattern: "hit|line 1", Mode: search.ModeCount, Paths: []string{"context.txt"}},
			WantFiles: []string{"context.txt"}, Why: "counts lines, not matches"},
		{Name: "mode/count-max", Query: search.Query{Pattern: "hit", Mode: search.ModeCount, MaxCountPerFile: 2, Paths: []string{"context.txt"}},
			WantFiles: []string{"context.txt"}},
		{Name: "mode/count-multiline", Query: search.Query{Pattern: `\w+\n\w+`, Multiline: true, Mode: search.ModeCount, Paths: []string{"multi.txt"}},
			WantFiles: []string{"multi.txt"}, Why: "rg -c -U counts blocks of lines joined by matches"},
		{Name: "mode/files-with-context", Query: search.Query{Pattern: "hit", Mode: search.ModeFilesWithMatches, After: 2, Paths: []string{"context.txt"}},
			WantFiles: []string{"context.txt"}, Why: "context is ignored outside content mode"},
	}
}

// pathCases give Paths explicitly: a file, a subdir, a symlink, an ignored file.
func pathCases() []Case {
	p := func(paths ...string) search.Query { return search.Query{Pattern: "needle", Paths: paths} }
	return []Case{
		{Name: "paths/file", Query: p("src/main.go"), WantFiles: []string{"src/main.go"}},
		{Name: "paths/subdir", Query: p("sub"), WantFiles: []string{"sub/a.ts", "sub/b.tsx", "sub/inner/c.ts"}},
		{Name: "paths/two", Query: p("sub/inner", "src/util"), WantFiles: []string{"src/util/helper.go", "sub/inner/c.ts"}},
		{Name: "paths/symlink-file", Query: p("link_file.txt"), WantFiles: []string{"link_file.txt"},
			Why: "a symlink given explicitly is followed"},
		{Name: "paths/symlink-dir", Query: p("link_dir"),
			WantFiles: []string{"link_dir/anchored.txt", "link_dir/build", "link_dir/important.tmp", "link_dir/keep.gen.go",
				"link_dir/lib.py", "link_dir/main.go", "link_dir/nested/local.txt", "link_dir/util/helper.go"},
			Why: "a symlinked directory given explicitly is followed; paths keep the link's name"},
		{Name: "paths/ignored-file", Query: p("ignored.txt"), WantFiles: []string{"ignored.txt"},
			Why: "an explicitly named file is searched even if ignored"},
		{Name: "paths/hidden-file", Query: p(".hfile.txt"), WantFiles: []string{".hfile.txt"}},
		{Name: "paths/dash-file", Query: p("-dash.txt"), WantFiles: []string{"-dash.txt"},
			Why: "a path starting with '-' is not an option"},
		{Name: "paths/hidden-dir", Query: p(".hidden"), WantFiles: []string{".hidden/h.txt"},
			Why: "a hidden directory named explicitly is searched"},
		{Name: "paths/file-in-ignored-dir", Query: p("build/out.txt"), WantFiles: []string{"build/out.txt"}},
		{Name: "paths/root-dot", Query: p("."), WantFiles: needleDefault, Why: "\".\" is the root, paths without ./"},
		{Name: "paths/trailing-slash", Query: p("sub/"), WantFiles: []string{"sub/a.ts", "sub/b.tsx", "sub/inner/c.ts"}},
		{Name: "paths/empty-file", Query: search.Query{Pattern: "", Paths: []string{"edge/empty.txt"}}, WantFiles: []string{}},
		{Name: "paths/file-beats-glob", Query: search.Query{Pattern: "needle", Paths: []string{"src/main.go"}, Globs: []string{"*.md"}},
			WantFiles: []string{"src/main.go"}, Why: "an explicit file is searched whatever the globs say"},
		{Name: "paths/file-beats-type", Query: search.Query{Pattern: "needle", Paths: []string{"src/main.go", "sub"}, Types: []string{"py"}},
			WantFiles: []string{"src/main.go"}, Why: "types filter the walk of sub/, not the explicit file"},
		{Name: "paths/file-beats-max-filesize", Query: search.Query{Pattern: "needle", Paths: []string{"src/main.go"}, MaxFileSize: 10},
			WantFiles: []string{"src/main.go"}},
		{Name: "paths/binary-early", Query: p("bin_early.dat"), WantFiles: []string{"bin_early.dat"},
			Why: "an explicit file with a NUL right after the match: the match is reported"},
		{Name: "paths/binary-file", Query: p("bin_late.dat"),
			Why: "an explicitly named binary file: rg searches past the NUL"},
		{Name: "paths/ignored-dir", Query: p("build"), Why: "an explicitly named ignored directory"},
	}
}

// invalidCases must be refused by Normalize before any engine runs.
func invalidCases() []Case {
	bad := func(name, pattern string) Case {
		return Case{Name: "invalid/" + name, Query: inFile("dialect.txt", pattern), Invalid: true}
	}
	return []Case{
		bad("look-ahead", `foo(?=bar)`),
		bad("look-behind", `(?<=a)b`),
		bad("backreference", `(foo)\1`),
		bad("empty-lower-bound", `a{,3}`),
		bad("quote-meta", `\Qx[y]z\E`),
		bad("verbose-comment-eats-the-group", `(?x) foo # comment`),
		bad("needs-nul", `a\x00b`),
		bad("unclosed", `foo(`),
		bad("newline-outside-multiline", `begin\nmiddle`),
		{Name: "invalid/fixed-newline-outside-multiline", Query: search.Query{Pattern: "begin\nmiddle", Fixed: true, Paths: []string{"multi.txt"}}, Invalid: true},
	}
}

// manyWant lists the files of nogit/many that hold "needle".
func manyWant() []string {
	var out []string
	for _, f := range manyFiles() {
		if bytes.Contains(f.data, []byte("needle")) {
			out = append(out, f.path)
		}
	}
	return out
}
