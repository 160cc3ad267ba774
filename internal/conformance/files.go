package conformance

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf16"
)

// file is one regular file of the corpus: its path inside its tree, its
// bytes, and the case it exists for.
type file struct {
	path string
	data []byte
	note string
}

func text(path, content, note string) file { return file{path, []byte(content), note} }

// rootGitignore holds the root rules: plain, glob, negated, directory-only
// and anchored patterns.
const rootGitignore = `# root rules
ignored.txt
*.log
!keep.log
build/
/anchored.txt
node_modules/
*.tmp
tracked_ignored.txt
docs/*.draft
`

// srcGitignore is a nested .gitignore: its own negations, an anchored
// pattern relative to src/, a directory-only pattern, and a negation of a
// parent (root) rule.
const srcGitignore = `*.gen.go
!keep.gen.go
/local.txt
deep/
!important.tmp
`

// DialectLines is dialect.txt, one entry per line (line n is DialectLines[n-1]).
var DialectLines = []string{
	"answer 42 and 7",
	"café au lait",
	"CAFÉ NOIR",
	"naïve résumé",
	"foo foobar barfoo foo_bar",
	"aaa",
	"a{,3} is literal in Go",
	"TODO: fix this",
	"x[y]z (a+b)*c? $5.00 ^caret",
	"Hello World",
	"hello world",
	"-flag --pre=./x.sh -f/etc/passwd --files -r -O cat",
	"tab\there",
	"ÅNGSTRÖM ångström",
	"end of dialect",
	"Ωmega λambda",
	"\u212A kelvin \u017Ftrong",
}

// ContextHits are the lines of context.txt (30 lines) that hold "hit":
// 5 and 7 overlap under -C2, 25 and 26 are adjacent, 29 touches the end.
var ContextHits = []int{5, 7, 15, 25, 26, 29}

func contextFile() []byte {
	var b bytes.Buffer
	hit := map[int]bool{}
	for _, n := range ContextHits {
		hit[n] = true
	}
	for n := 1; n <= 30; n++ {
		fmt.Fprintf(&b, "line %d", n)
		if hit[n] {
			b.WriteString(" hit")
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// lateNUL is a binary file whose first line matches and whose NUL byte comes
// at about 200 KB, followed by another match: rg (searching recursively)
// reports the first match and stops at the NUL.
func lateNUL() []byte {
	var b bytes.Buffer
	b.WriteString("needle one\n")
	filler := bytes.Repeat([]byte("filler "), 14) // 98 bytes
	for b.Len() < 200_000 {
		b.Write(filler)
		b.WriteByte('\n')
	}
	b.WriteString("\x00\n")
	b.WriteString("needle two\n")
	return b.Bytes()
}

// oneMegaLine is a single 1 MiB line with "needle" in the middle.
func oneMegaLine() []byte {
	const size = 1 << 20
	b := make([]byte, 0, size)
	b = append(b, bytes.Repeat([]byte("x"), size/2)...)
	b = append(b, "needle"...)
	b = append(b, bytes.Repeat([]byte("y"), size-len(b)-1)...)
	return append(b, '\n')
}

// utf16BOM is "needle utf16\r\nsecond\r\n" in UTF-16LE with a byte order mark.
func utf16BOM() []byte {
	b := []byte{0xFF, 0xFE}
	for _, u := range utf16.Encode([]rune("needle utf16\r\nsecond\r\n")) {
		b = append(b, byte(u), byte(u>>8))
	}
	return b
}

// giGitignore exercises gitignore syntax: escaped '#' and '!', trailing
// spaces, '**' at the start, middle and end, classes, '?', a negation that
// cannot re-include a file in an ignored directory, and single-level '*'.
const giGitignore = `\#hash.txt
\!bang.txt
trail.txt  
**/deepdir/**
x/**/y.txt
[abc]class.txt
?q.txt
ign_dir/
!ign_dir/keep.txt
*.bak
!important.bak
/rooted.txt
doc/*.txt
nodot*
!nodot_keep
`

// GitignoreSyntaxKept are the files under gi/ that the rules keep, as rg
// does (git status agrees on the .gitignore part).
var GitignoreSyntaxKept = []string{
	"gi/12q.txt", "gi/a.bak", "gi/dclass.txt", "gi/doc/sub/b.txt", "gi/ign_dir/keep.txt", "gi/important.bak", "gi/nodot_keep", "gi/sub/rooted.txt",
}

// gitignoreSyntaxFiles are gi/*, each holding "probe".
func gitignoreSyntaxFiles() []file {
	out := []file{
		text("gi/.gitignore", giGitignore, "gitignore syntax"),
		// .ignore beats .gitignore: it re-includes a.bak and the ignored
		// directory ign_dir/; .rgignore beats both.
		text("gi/.ignore", "!a.bak\n!ign_dir/\n", ".ignore re-includes what .gitignore excludes"),
		text("gi/.rgignore", "keep-me.txt\n", ".rgignore excludes"),
	}
	for _, p := range []string{"#hash.txt", "!bang.txt", "trail.txt", "deepdir/a.txt", "m/deepdir/b.txt", "x/y.txt",
		"x/p/q/y.txt", "aclass.txt", "dclass.txt", "1q.txt", "12q.txt", "ign_dir/keep.txt", "a.bak", "important.bak",
		"rooted.txt", "sub/rooted.txt", "doc/a.txt", "doc/sub/b.txt", "keep-me.txt", "nodot_x", "nodot_keep"} {
		out = append(out, text("gi/"+p, "probe "+p+"\n", "gitignore syntax"))
	}
	return out
}

// repoFiles is the git work tree's content written before the commit. Files
// that the ignore rules exclude are written too (they stay untracked).
func repoFiles() []file {
	return []file{
		text(".gitignore", rootGitignore, "root .gitignore"),
		text(".ignore", "dotignore.txt\nprec.txt\n", ".ignore"),
		text(".rgignore", "rgignore.txt\n!prec.txt\n", ".rgignore beats .ignore"),
		text("README.md", "# corpus\nneedle in the readme\n", "type md"),
		text("main.go", "package main\n\n// needle at the root\nfunc root() {}\n", "type go"),
		text("script.py", "def needle():\n    return 42\n", "type py"),
		text("top.ts", "export const needle = 1;\n", "type ts at the root"),
		text("app.tsx", "export const needle = <div/>;\n", "*.tsx"),
		text("-dash.txt", "needle in a file whose name starts with a dash\n", "leading '-' name"),
		text("dialect.txt", joinLines(DialectLines), "regex dialect"),
		text("unicode.txt", joinLines(UnicodeLines), "Unicode classes"),
		file{"context.txt", contextFile(), "context and max-count"},
		text("multi.txt", "func start() {\n\tbody()\n}\nbegin\nmiddle\nend\nalpha\nbeta\n", "multiline"),
		text("crlf.txt", "first line\r\nneedle end\r\nlast line\r\n", "CRLF line ends"),
		text("nofinal.txt", "first\nneedle without newline", "no final newline"),
		file{"latin1.txt", []byte("caf\xe9 needle\nplain latin line\n"), "Latin-1 byte 0xE9"},
		file{"utf16.txt", utf16BOM(), "UTF-16LE with BOM"},
		file{"bin_early.dat", []byte("needle\x00binary\n"), "NUL right after a match"},
		file{"bin_late.dat", lateNUL(), "NUL at ~200 KB between two matches"},
		// ignore rules
		text("ignored.txt", "needle ignored by .gitignore\n", "gitignored"),
		text("a.log", "needle in a log\n", "gitignored by *.log"),
		text("keep.log", "needle kept by a negation\n", "re-included by !keep.log"),
		text("build/out.txt", "needle in an ignored dir\n", "directory-only pattern build/"),
		text("src/build", "needle in a file named build\n", "build/ must not match a file"),
		text("anchored.txt", "needle anchored ignore\n", "/anchored.txt"),
		text("src/anchored.txt", "needle not hit by an anchored pattern\n", "/anchored.txt applies at the root only"),
		text("node_modules/pkg/index.js", "module.exports = 'needle';\n", "ignored node_modules/"),
		text("x.tmp", "needle tmp\n", "*.tmp"),
		text("excluded.txt", "needle excluded by info/exclude\n", ".git/info/exclude"),
		text("dotignore.txt", "needle in .ignore\n", ".ignore"),
		text("rgignore.txt", "needle in .rgignore\n", ".rgignore"),
		text("prec.txt", "needle ignored by .ignore, re-included by .rgignore\n", "precedence"),
		text("docs/guide.md", "# Guide\nneedle in the guide\n", "type md"),
		text("docs/notes.draft", "needle draft\n", "docs/*.draft"),
		// src/**
		text("src/.gitignore", srcGitignore, "nested .gitignore"),
		text("src/main.go", "package main\n\nimport \"fmt\"\n\n// needle: the main function\nfunc main() {\n\tfmt.Println(\"needle\")\n}\n", "src/**, type go"),
		text("src/util/helper.go", "package util\n\n// Needle helps.\nfunc Needle() string { return \"needle\" }\n", "src/** depth 2"),
		text("src/lib.py", "NEEDLE = 'needle'\n", "type py"),
		text("src/x.gen.go", "package main // needle generated\n", "nested *.gen.go"),
		text("src/keep.gen.go", "package main // needle kept\n", "nested !keep.gen.go"),
		text("src/local.txt", "needle local\n", "nested anchored /local.txt"),
		text("src/nested/local.txt", "needle nested local\n", "anchored pattern does not reach here"),
		text("src/deep/d.txt", "needle deep\n", "nested dir-only deep/"),
		text("src/important.tmp", "needle important\n", "nested negation of a root rule"),
		text("src/other.tmp", "needle other tmp\n", "root *.tmp applies below"),
		// hidden
		text(".hidden/h.txt", "needle hidden dir\n", "hidden directory"),
		text(".hfile.txt", "needle hidden file\n", "hidden file"),
		text("src/.dotfile", "needle dotfile\n", "hidden file below the root"),
		// globs and types
		text("sub/a.ts", "const needle: number = 1;\n", "sub/*.ts"),
		text("sub/b.tsx", "const needle = <b/>;\n", "*.tsx"),
		text("sub/inner/c.ts", "const needle = 'inner';\n", "**/*.ts but not sub/*.ts"),
		// line-ending and size edges
		text("edge/empty.txt", "", "zero bytes: no line at all"),
		text("edge/newline.txt", "\n", "one empty line"),
		text("edge/cr-only.txt", "mac\rline\rends\r", "CR alone is not a line break"),
		text("edge/blank-crlf.txt", "x\r\n\r\ny\r\n", "an empty CRLF line"),
		text("edge/tabs.txt", "\tindented\vvertical\fform feed\n", "\\s and control characters"),
		// names
		text("names/with space.txt", "needle in a spaced name\n", "space in a name"),
		text("names/colon:name.txt", "needle in a colon name\n", "':' in a name"),
		text("names/-leading.txt", "needle in a dash name\n", "leading '-' in a name"),
	}
}

// untrackedFiles are written after the commit and not ignored.
func untrackedFiles() []file {
	return []file{
		text("untracked.txt", "needle untracked\n", "untracked, not ignored"),
	}
}

// parentIgnoreFiles are parent/*: ignore files above the search root
// parent/tree, outside any git repository.
func parentIgnoreFiles() []file {
	return []file{
		text(".ignore", "p.txt\n", "a .ignore above the root applies"),
		text(".gitignore", "q.txt\n", "a .gitignore above the root, outside git, does not"),
		text("tree/p.txt", "needle p\n", "ignored by the parent .ignore"),
		text("tree/q.txt", "needle q\n", "searched"),
		text("tree/r.txt", "needle r\n", "searched"),
		text("tree/sub/p.txt", "needle sub p\n", "ignored by the parent .ignore at any depth"),
	}
}

// subrepoFiles are repo/subrepo/*, a nested git repository.
func subrepoFiles() []file {
	return []file{
		text(".gitignore", "inner_ignored.txt\n", "the nested repo's own rules"),
		text("inner.txt", "needle in a nested repo\n", "nested repo"),
		text("n.log", "needle nested log\n", "the outer *.log does not reach into a nested repo"),
		text("n.tmp", "needle nested tmp\n", "the outer *.tmp does not reach into a nested repo"),
		text("inner_ignored.txt", "needle inner ignored\n", "ignored by the nested .gitignore"),
	}
}

// ManyFiles is how many files nogit/many/ holds: with their 199-byte names,
// enough that an engine passing file lists on a command line must batch
// them (over 1024 files and over 256 KiB of absolute paths), and few enough
// that building the corpus stays quick on a slow file system.
const ManyFiles = 1100

// manyFiles are nogit/many/*: every seventh holds "needle".
func manyFiles() []file {
	out := make([]file, 0, ManyFiles)
	pad := strings.Repeat("x", 190)
	for i := 0; i < ManyFiles; i++ {
		content := fmt.Sprintf("file %d\n", i)
		if i%7 == 0 {
			content += "needle in a crowd\n"
		}
		out = append(out, text(fmt.Sprintf("many/%s-%04d.txt", pad, i), content, "argument batching"))
	}
	return out
}

// noGitFiles is a tree outside any git repository with a .gitignore (which rg
// does not apply there) and a .ignore (which it does).
func noGitFiles() []file {
	return append([]file{
		text(".gitignore", "x.txt\n", ".gitignore without git"),
		text(".ignore", "z.txt\n", ".ignore without git"),
		text("x.txt", "needle x\n", "listed in .gitignore, still searched"),
		text("y.txt", "needle y\n", "plain"),
		text("z.txt", "needle z\n", "listed in .ignore"),
		text("sub/w.txt", "needle w\n", "nested"),
		// The 1 MiB line lives here, not in the repo: once an rg thread has
		// searched it, its line buffer has grown past 1 MiB, and a later read
		// of bin_late.dat by that thread takes the NUL in its first fill and
		// reports nothing, so rg 13's answer for bin_late.dat would depend on
		// thread scheduling (measured: rg -l -j2 lists it 19 times in 30).
		file{"big1mb.txt", oneMegaLine(), "1 MiB single line"},
	}, manyFiles()...)
}

func joinLines(lines []string) string {
	var b bytes.Buffer
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}
