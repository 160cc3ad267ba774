package main

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rgkit/rgkit/internal/rgcli"
	"github.com/rgkit/rgkit/internal/testtool"
)

// The differential CLI test runs each invocation through rg 15.2.0 and
// through `rgkit grep` on each engine path, and compares stdout, stderr
// and the exit status byte for byte. Every difference that is expected is
// listed in knownDiffs (and in docs/cli.md) with its exact rgkit answer.

// diffCase is one invocation.
type diffCase struct {
	args  []string
	stdin string // piped to stdin when set (else stdin is /dev/null)
	tty   bool   // stdout (and stdin) on a pseudo-terminal
}

func (c diffCase) name() string {
	n := strings.Join(c.args, " ")
	if c.stdin != "" {
		n = "stdin|" + n
	}
	if c.tty {
		n = "tty|" + n
	}
	return n
}

// sorted reports whether rg's output order is deterministic for c.
func (c diffCase) sorted() bool {
	for _, a := range c.args {
		if strings.HasPrefix(a, "--sort") {
			return true
		}
	}
	return false
}

// diffTree writes the fixture: CRLF lines, Unicode, a long line, a binary
// file, hidden and ignored files, several directories.
func diffTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"a.txt":           "hello world\nfoo bar\r\nfoo\n",
		"ctx.txt":         "l1\nl2 foo\nl3\nl4\nl5\nl6 foo\nl7\nl8\nl9\nl10\nl11\nl12 foo foo\nl13\n  l14 indented foo\n\tl15 tab foo\nl16",
		"src/main.go":     "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"Hello, foo\")\n}\n\nfunc helper(x int) int { return x * 2 }\n",
		"src/util.go":     "package main\n\n// Foo does FOO things.\nfunc Foo() string { return \"foo\" }\n",
		"src/lib/deep.py": "def foo():\n    return 'bar'\n\nclass Foo:\n    pass\n",
		"docs/readme.md":  "# Grüße\n\nnaïve café foo\nÄÖÜ äöü FOO\n日本語 foo テキスト\n",
		"long.txt":        "short foo\n" + strings.Repeat("x", 150) + " foo " + strings.Repeat("y", 150) + "\n",
		"bin.dat":         "foo1\nbar\x00baz foo\nfoo3\n",
		".hidden/h.txt":   "hidden foo\n",
		".ignore":         "ignored.txt\n",
		"ignored.txt":     "ignored foo\n",
		"words.txt":       "foo\nfoobar\nbar foo baz\nfoo_bar\nFOO\nfoo-bar\n",
		"nonl.txt":        "last line foo without newline",
		"empty.txt":       "",
	}
	testtool.WriteTree(t, dir, files)
	if err := os.WriteFile(filepath.Join(dir, "patterns.txt"), []byte("hello\nFoo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// diffCases are the invocations, grouped by what they exercise.
func diffCases() []diffCase {
	var cs []diffCase
	add := func(args ...string) { cs = append(cs, diffCase{args: args}) }
	// Output shapes, with and without file names, sorted for a stable order.
	for _, flags := range [][]string{
		{}, {"-n"}, {"-N"}, {"--column"}, {"-b"}, {"-n", "-b"}, {"-o"}, {"-o", "-n"}, {"-o", "-b"},
		{"--vimgrep"}, {"-c"}, {"--count-matches"}, {"-l"}, {"-H"}, {"-I"}, {"--heading"},
		{"--heading", "-n"}, {"--no-heading", "-n"}, {"-0"}, {"-0", "-l"}, {"-0", "-c"}, {"--trim"},
		{"-r", "X"}, {"-r", "[$0]"}, {"-o", "-r", "<>"}, {"-m1"}, {"-m", "2"}, {"-w"}, {"-x"}, {"-i"},
		{"-S"}, {"-F"}, {"-A1"}, {"-B1"}, {"-C1"}, {"-C1", "-n"}, {"-nC2"}, {"-A1", "--heading"},
		{"-C1", "--context-separator", "@@"}, {"-C1", "--no-context-separator"},
		{"--field-match-separator", "|", "-n"}, {"-C1", "-n", "--field-context-separator", "#"},
		{"-M", "20"}, {"-M", "20", "--max-columns-preview"}, {"--passthru"}, {"--passthru", "-n"},
		{"--hidden"}, {"--no-ignore"}, {"-u"}, {"-uu"}, {"-g", "*.go"}, {"-g", "!*.txt"}, {"-t", "py"},
		{"-T", "txt"}, {"-t", "md", "-t", "go"}, {"--max-filesize", "20"}, {"-i", "-s"}, {"-s", "-i"},
		{"-S", "-i"}, {"-L"}, {"--stats"}, {"--json"}, {"--json", "-C1"}, {"-q"}, {"--color", "always"},
		{"--color", "always", "--heading", "-n"}, {"--color", "always", "--colors", "match:fg:blue", "--colors", "path:none"},
		{"--color", "always", "--colors", "line:style:bold", "-n", "--column"}, {"--color", "never", "-p"},
		{"-p"}, {"--sortr", "path"}, {"--path-separator", "\\", "-l"},
		{"-l", "--stats"}, {"-c", "--stats"}, {"-q", "--stats"}, {"--count-matches", "--stats"},
		{"--files", "--stats"},
	} {
		args := append([]string{"--sort", "path"}, flags...)
		if !slices.Contains(flags, "--sortr") {
			cs = append(cs, diffCase{args: append(args, "foo")})
		} else {
			cs = append(cs, diffCase{args: append(flags, "foo")})
		}
	}
	// One file named: no file name printed, CRLF kept, binary note.
	for _, flags := range [][]string{
		{}, {"-n"}, {"-H"}, {"--column"}, {"-b"}, {"-c"}, {"-o"}, {"--json"}, {"-v"}, {"-A", "1"},
		{"-r", "Z"}, {"--trim"}, {"--vimgrep"}, {"-H", "-n"},
	} {
		add(append(append([]string{}, flags...), "foo", "a.txt")...)
	}
	add("foo", "bin.dat")
	add("-H", "foo", "bin.dat")
	add("-c", "foo", "nonl.txt")
	add("-n", "foo", "nonl.txt")
	add("--json", "foo", "nonl.txt")
	add("--json", "foo", "latin1.txt")
	add("--json", "-N", "foo", "nonl.txt") // rg writes "line_number":null
	add("--sort", "path", "--json", "-N", "-C1", "foo", "./src")
	add("--sort", "path", "--json", "-N", "-v", "foo", "./src")
	add("-o", "-b", "foo", "latin1.txt")
	add("-n", "foo", "ctx.txt", "words.txt")
	add("--sort", "path", "-n", "foo", "./src")
	add("--sort", "path", "-n", "foo", "src/")
	add("--sort", "path", "-n", "foo", ".")
	add("--sort", "path", "-l", "foo", "src", "docs")
	add("--sort", "path", "-l", "foo", "./docs/readme.md", "src/main.go")
	// Unicode and case.
	add("-n", "ÄÖÜ", "docs/readme.md")
	add("-i", "-n", "äöü", "docs/readme.md")
	add("-o", "日本語", "docs/readme.md")
	add("--column", "テキスト", "docs/readme.md")
	add("-S", "Foo", "src/util.go")
	add("-S", "foo", "src/util.go")
	add("-w", "foo", "words.txt")
	add("-x", "foo", "words.txt")
	add("-c", "-w", "foo", "words.txt")
	add("-e", "foo", "-e", "bar", "-n", "words.txt")
	add("-F", "-e", "foo-bar", "-e", "foo_bar", "words.txt")
	add("-f", "patterns.txt", "-n", "a.txt", "src/util.go")
	add("-U", "-n", "foo\\nfoo", "words.txt")
	add("-U", "--multiline-dotall", "-c", "bar.baz", "words.txt")
	add("-m0", "foo", "a.txt")
	add("-uuuu", "foo", "a.txt")                                                                                    // "flag can only be repeated up to 3 times"
	add("--sort", "path", "--json", "--path-separator=#", "foo", "src")                                             // rg's JSON keeps '/'
	add("-l", "--color=always", "--hyperlink-format=file://{path}", "foo", "a.txt")                                 // a path alone is linked too
	add("--sort", "path", "--color=always", "--hyperlink-format=file://{path}", "--path-separator=#", "foo", "src") // no links then
	// -v --passthru past -m: every line left is a match, and counts.
	add("-n", "-v", "--passthru", "-m1", "bar", "words.txt")
	add("-c", "-v", "--passthru", "-m1", "bar", "words.txt")
	add("-uuu", "--unrestricted", "foo", "a.txt")
	add("-m", "1", "-c", "foo", "words.txt")
	add("-nm1", "-A1", "foo", "words.txt")
	add("-inC1", "FOO", "words.txt")
	add("-C1", "-A0", "foo", "ctx.txt")
	add("-A1", "-C3", "-n", "foo", "ctx.txt")
	add("--", "-x", "a.txt")
	add("-e", "-x", "a.txt")
	add("nomatch_anywhere", "a.txt")
	add("--sort", "path", "nomatch_anywhere")
	// Missing paths: the others' results stay, one message per missing path.
	add("-n", "foo", "a.txt", "nope.txt")
	add("-n", "foo", "nope.txt", "a.txt", "nope2.txt")
	add("foo", "nope.txt")
	add("--sort", "path", "-n", "foo", "nope.txt", "a.txt")
	add("-c", "foo", "a.txt", "nope.txt")
	add("-l", "foo", "nope.txt", "words.txt")
	add("--no-messages", "foo", "nope.txt", "a.txt")
	// Bad command lines, in rg's words.
	add("-A", "x", "foo")
	add("-t", "nosuchtype", "foo")
	add("--bogus", "foo")
	add("-Z", "foo")
	add("--color=sometimes", "foo")
	add("--sort", "size", "foo")
	add("--max-filesize", "1Q", "foo")
	add("--hidden=yes", "foo")
	add("foo", "a.txt", "-A")
	add()
	add("--colors", "bogus:fg:red", "foo")
	add("-m", "99999999999999999999", "foo")
	add("(", "a.txt")
	add("-g", "[", "foo", "a.txt")
	add("-g", "{a", "foo", "a.txt")
	add("-g", "[z-a]", "foo", "a.txt")
	add("-g", "*.zzz", "foo")
	add("-l", "-g", "*.zzz", "foo")
	add("--no-messages", "-g", "*.zzz", "foo")
	add("--sort", "path", "--files", "-g", "*.zzz")
	add("-g", "*.zzz", "foo", ".")
	// Flags the library's engines refuse (a known difference on those engines).
	add("-P", "foo", "a.txt")
	// -U: \A, \z and (?-m)^/$ anchor at the file's ends, not each line's.
	// --vimgrep prints a match on the line it starts on, colouring it alone.
	add("-U", "--vimgrep", `foo\nfoo|bar`, "words.txt")
	add("-U", "--vimgrep", "--color=always", `o\s+\w|o`, "words.txt")
	add("--vimgrep", "--color=always", "o", "words.txt")
	// Under -U a line anchor makes rg search the whole text, so matches on
	// adjacent lines are one block, printed with the first one's column.
	add("-U", "--column", "foo$", "ctx.txt")
	// A block's matches are found again with the bytes around it in view:
	// "o", not "o\n", where the next line does not end the file.
	add("-U", "--json", `o\s*$`, "words.txt")
	// A match across lines is one match, though it shows on each line.
	add("-U", "--count-matches", `foo\s+l1\d`, "ctx.txt")
	add("-U", "--stats", "-o", `foo\s+l1\d`, "ctx.txt")
	add("-U", "--column", "-o", `^\s+l\d+`, "ctx.txt")
	// rg's "bytes printed" leaves out colour sequences.
	add("--stats", "--color=always", "-n", "--column", "foo", "a.txt", "words.txt")
	add("--stats", "--color=always", "-o", "--heading", "-r", "X", "foo", "words.txt")
	add("-U", `\Afoo`, "a.txt")
	add("-U", "-n", `\Ahello`, "a.txt")
	add("-U", `(?-m)^foo`, "a.txt")
	add("-U", `(?-m)foo$`, "a.txt")
	add("-U", "-n", `foo\n\z`, "a.txt")
	add("-U", "--no-mmap", "-c", `(?-m:^)\w+`, "a.txt")
	add("-P", "-n", "(?<=foo )bar", "words.txt")
	add("-P", "-o", "-w", `(\w)\1`, "words.txt")
	add("-P", "-r", "<$1>", `(o+)(?=\b)`, "words.txt")
	add("--pre", "cat", "foo", "a.txt")
	add("--generate", "man")
	add("-z", "foo", "a.txt")
	add("--sort", "path", "--crlf", "-n", "foo$")
	add("--sort", "path", "-a", "-c", "foo")
	add("--sort", "path", "--binary", "-n", "baz")
	add("-E", "latin1", "-c", "foo", "docs/readme.md")
	add("--sort", "path", "--files")
	add("--sort", "path", "--files-without-match", "foo")
	add("-v", "-n", "foo", "words.txt")
	add("--sort", "path", "-v", "-c", "foo")
	add("--sort", "path", "-v", "-l", "foo")
	add("-v", "-m1", "foo", "words.txt")
	add("--sort", "path", "--files", "src")
	add("--sort", "path", "--files", "--null-data") // a path ends in '\n', not a NUL
	add("--sort", "path", "--files", "--crlf")      // nor in "\r\n"
	add("--sort", "path", "--files", "--null-data", "--null")
	add("--sort", "path", "--files", "-g", "*.go")
	add("--sort", "path", "--files", "--hidden", "-t", "txt")
	add("--sort", "path", "--files-without-match", "-i", "foo")
	// Files without a match: a walked binary file is never listed unless
	// the NUL is not where rg stops (--binary, -a, a file named).
	add("--sort", "path", "--files-without-match", "zzz")
	add("--sort", "path", "--files-without-match", "baz")
	add("--sort", "path", "--files-without-match", "--binary", "zzz")
	add("--sort", "path", "--files-without-match", "-a", "zzz")
	add("--sort", "path", "--files-without-match", "zzz", "src", "bin.dat")
	add("--sort", "path", "--files-without-match", "--stats", "foo")
	// A glob with a slash is matched against the path as rg walks it from
	// the working directory, not from the root named on the command line;
	// offsets, statistics and JSON under a named root are the file's own.
	add("--sort", "path", "-g", "src/**", "-n", "foo", "src")
	add("--sort", "path", "-g", "lib/*.py", "-n", "foo", "src")
	add("--sort", "path", "-g", "/src/*.go", "-c", "foo", "src")
	add("--sort", "path", "-g", "!src/lib/**", "-l", "foo", "src", "docs")
	add("--sort", "path", "--files", "-g", "src/lib/*", "src")
	add("--sort", "path", "-b", "-o", "foo", "src", "ctx.txt")
	add("--sort", "path", "--stats", "foo", "src", "bin.dat")
	add("--sort", "path", "--json", "-b", "foo", "src")
	// -q with the listing modes: nothing printed, the exit status says
	// whether a file was listed.
	add("--files", "-q")
	add("--files", "-q", "-g", "*.txt")
	add("--files", "-q", "-g", "*.none")
	add("--files-without-match", "-q", "foo")
	add("--files-without-match", "-q", "foo", "a.txt")
	add("--files-without-match", "-q", "--stats", "foo")
	add("--files-without-match", "-q", "zzz", "a.txt")
	add("--sort", "path", "-v", "-C1", "foo")
	// -v and --passthru with every output mode, rg's -M measure, and
	// --vimgrep, --json and --stats details.
	add("-v", "-n", "-C1", "foo", "ctx.txt")
	add("-v", "-o", "foo", "words.txt")
	add("-v", "--count-matches", "foo", "words.txt")
	add("-v", "--json", "-C1", "foo", "words.txt")
	add("-v", "--passthru", "-n", "foo", "words.txt")
	add("--passthru", "--json", "foo", "words.txt")
	add("--passthru", "-o", "foo", "words.txt")
	add("--passthru", "--count-matches", "foo", "words.txt")
	add("-v", "-n", "-A1", "-m1", "foo", "words.txt")
	// rg 15 counts -v's selected lines inside the -m-th one's trailing
	// context: 4 here, where the file has 4 selected lines before.
	add("-v", "-c", "-m2", "-A2", "foo", "ctx.txt")
	add("-v", "--count-matches", "-m1", "-A3", "foo", "ctx.txt", "words.txt")
	add("-v", "-c", "--stats", "-m2", "-A1", "foo", "ctx.txt")
	add("--sort", "path", "-v", "-c", "-m2", "-A2", "foo")
	add("-v", "-C1", "-o", "-r", "X", "foo", "ctx.txt")
	add("-v", "-C1", "--vimgrep", "foo", "ctx.txt")
	add("-v", "-f", "empty.txt", "words.txt")
	add("-M", "4", "foo", "words.txt")
	add("-M", "3", "foo", "words.txt")
	add("-M", "10", "--column", "-e", "foo", "-e", "bar", "words.txt")
	add("-M", "10", "--trim", "foo", "ctx.txt")
	add("--vimgrep", "-N", "foo", "words.txt")
	add("--vimgrep", "--no-column", "foo", "words.txt")
	add("--json", "-r", "X", "foo", "words.txt")
	add("--json", "-m1", "foo", "words.txt")
	add("--json", "-m1", "-A2", "foo", "words.txt") // bytes_searched runs to the trailing context's last match
	add("--stats", "-m1", "foo", "words.txt")
	add("--stats", "-c", "-m1", "foo", "words.txt")
	add("--stats", "--count-matches", "-v", "foo", "words.txt")
	add("--sort", "path", "--json", "-q", "foo")
	add("--hyperlink-format", "vscode", "foo", "words.txt")
	add("--hyperlink-format", "file://{path}:{column}", "foo", "words.txt")
	add("--hyperlink-format", "none", "--color", "always", "foo", "words.txt")
	add("--hyperlink-format", "bogus", "foo", "words.txt")
	add("--sort", "path", "--hyperlink-format", "vscode", "--color", "always", "-n", "foo")
	add("--sort", "path", "--hyperlink-format", "default", "--color", "always", "--heading", "-n", "foo")
	add("--sort", "path", "--hyperlink-format", "grep+", "--color", "always", "-c", "foo")
	add("--sort", "path", "--hyperlink-format", "kitty", "--color", "always", "-l", "-0", "foo", "a.txt", "words.txt")
	add("--sort", "path", "--hyperlink-format", "vscode", "--color", "always", "--heading", "foo")
	add("--hyperlink-format", "file://{line}", "foo", "words.txt")

	// stdin.
	for _, s := range []struct {
		stdin string
		args  []string
	}{
		{"a\nb\nab\n", []string{"a"}},
		{"a\nb\nab\n", []string{"-n", "a"}},
		{"a\nb\nab\n", []string{"-H", "a"}},
		{"a\nb\nab\n", []string{"-c", "a"}},
		{"a\nb\nab\n", []string{"a", "-"}},
		{"a\nb\nab\n", []string{"-n", "foo", "-", "a.txt"}},
		{"x\r\ny x\r\n", []string{"--json", "x"}},
		{"x\r\ny x\r\n", []string{"-b", "-o", "x"}},
		{"x\r\ny x\r\n\r\n", []string{"--json", ""}},
		{"x\r\ny x\r\n", []string{"-o", "x."}},
		{"no match\n", []string{"a"}},
		{"héllo wörld\n", []string{"-o", "ö."}},
		{"a\r\n  \r\n\t\r\nb\r\n", []string{"--trim", "-v", "x"}}, // a line of whitespace and CR trims to "\n"
		// --max-columns-preview counts grapheme clusters: a letter and its
		// combining mark, a flag, an emoji with its modifier or joiners.
		{"x a\u0308b\u0308c 🇩🇪🇫🇷 👍🏽 👨\u200d👩\u200d👧 \u0600\u0661 한국 \u1100\u1161\u11a8 tail of the line\n", []string{"-M", "12", "--max-columns-preview", "x"}},
		{"x a\u0308b\u0308c 🇩🇪🇫🇷 👍🏽 👨\u200d👩\u200d👧 \u0600\u0661 한국 \u1100\u1161\u11a8 tail of the line\n", []string{"-M", "17", "--max-columns-preview", "x"}},
		// -f - takes the patterns from stdin: the directory is searched.
		{"foo\n", []string{"--sort", "path", "-f-"}},
		{"hello\nbar\n", []string{"--sort", "path", "-n", "-f", "-"}},
		{"foo\n", []string{"-f-", "a.txt"}},
	} {
		cs = append(cs, diffCase{args: s.args, stdin: s.stdin})
	}

	// A terminal: headings, line numbers and colors by default.
	for _, flags := range [][]string{
		{"foo", "a.txt"}, {"foo", "a.txt", "words.txt"}, {"--sort", "path", "foo"}, {"--sort", "path", "-N", "foo"},
		{"--sort", "path", "--no-heading", "foo"}, {"--sort", "path", "--color", "never", "foo"},
		{"--sort", "path", "-c", "foo"}, {"--sort", "path", "-l", "foo"}, {"--sort", "path", "--column", "foo"},
		{"--sort", "path", "-C1", "foo", "ctx.txt", "a.txt"}, {"-o", "foo", "a.txt"}, {"--vimgrep", "foo", "a.txt"},
		{"--sort", "path", "--colors", "path:fg:green", "-w", "foo"}, {"-i", "äöü", "docs/readme.md"},
		{"--sort", "path", "-r", "X", "foo"}, {"--json", "foo", "a.txt"},
		{"--sort", "path", "--hyperlink-format", "default", "-C1", "foo"},
	} {
		cs = append(cs, diffCase{args: flags, tty: true})
	}
	return cs
}

// engineRun says how one side of the comparison is started.
type engineRun struct {
	name string
	argv []string // program and leading arguments
	git  bool     // run in the git work tree copy of the fixture
}

// commitAll makes dir a git work tree with every file committed, as a
// repository the git grep engine can search is.
func commitAll(t *testing.T, dir string) {
	t.Helper()
	git := testtool.Need(t, "git")
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "fixture"}} {
		cmd := exec.Command(git, args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
}

// runCase runs c through argv in dir and returns stdout, stderr, status.
func runCase(t *testing.T, dir string, env []string, argv []string, c diffCase) (string, string, int) {
	t.Helper()
	out, errOut, code, err := runCaseErr(dir, env, argv, c)
	if err != nil {
		t.Fatal(err)
	}
	return out, errOut, code
}

// runCaseErr is runCase without a test: the error says why the command
// could not run (an exit status is not an error).
func runCaseErr(dir string, env []string, argv []string, c diffCase) (string, string, int, error) {
	args := append(append([]string{}, argv...), c.args...)
	var cmd *exec.Cmd
	if c.tty {
		quoted := make([]string, len(args))
		for i, a := range args {
			quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		// script gives the command a pseudo-terminal for stdin and stdout and
		// reports its exit status (-e).
		cmd = exec.Command("script", "-qec", strings.Join(quoted, " "), "/dev/null")
	} else {
		cmd = exec.Command(args[0], args[1:]...)
	}
	cmd.Dir, cmd.Env = dir, env
	if c.stdin != "" {
		cmd.Stdin = strings.NewReader(c.stdin)
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		return "", "", 0, fmt.Errorf("%v: %v", args, err)
	}
	return out.String(), errOut.String(), code, nil
}

// normalize removes what legitimately differs between two runs (timing)
// and, where rg's order is not deterministic, the order of lines.
func normalize(s string, c diffCase) string {
	s = testtool.NormalizeTimings(s)
	if !c.sorted() {
		lines := strings.SplitAfter(s, "\n")
		slices.Sort(lines)
		s = strings.Join(lines, "")
	}
	return s
}

// rg15 returns the rg 15.x to compare with.
func rg15(t *testing.T) string {
	t.Helper()
	// The reference: RGKIT_REFERENCE_RG, else an rg 15 first on PATH, so
	// that these tests also run with an older rg first on PATH.
	rg := testtool.ReferenceRg(t)
	if _, err := exec.LookPath("script"); err != nil {
		testtool.Missing(t, "script (util-linux) not on PATH: needed for the terminal cases")
	}
	return rg
}

// TestGrepDifferentialAgainstRg15 compares every case on every engine path,
// each (engine, case) a parallel subtest; rg runs once per case. By default
// each column runs a sample (inDiffSample); RGKIT_TEST_FULL=1 runs every
// case on every path.
func TestGrepDifferentialAgainstRg15(t *testing.T) {
	rg := rg15(t)
	bin := rgkitBin(t)
	dir := diffTree(t)
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "NO_COLOR=") && !strings.HasPrefix(kv, "RIPGREP_CONFIG_PATH=") && !strings.HasPrefix(kv, "TERM=") {
			env = append(env, kv)
		}
	}
	env = append(env, "TERM=xterm")
	engines := []engineRun{
		{name: "native", argv: []string{bin, "grep", "--backend", "native"}},
		// The passthrough to the reference rg, whatever rg is first on PATH.
		{name: "ripgrep", argv: []string{"env", "RGKIT_RG_PATH=" + rg, bin, "grep", "--backend", "ripgrep"}},
		// The system grep engine (walker + GNU grep), printed by rgkit.
		{name: "grep", argv: []string{bin, "grep", "--backend", "grep"}},
		// The git grep engine, in a copy of the tree that is a git work
		// tree with everything committed (rg answers there too).
		{name: "gitgrep", argv: []string{bin, "grep", "--backend", "gitgrep"}, git: true},
	}
	gitDir := diffTree(t)
	commitAll(t, gitDir)
	if rg14 := os.Getenv("RGKIT_DIFF_RG14"); rg14 != "" {
		// The library's ripgrep engine (an rg that is not 15.x, so no
		// passthrough) printed by rgkit.
		engines = append(engines, engineRun{name: "ripgrep-engine", argv: []string{"env", "RGKIT_RG_PATH=" + rg14, bin, "grep", "--backend", "ripgrep"}})
	}
	cases := diffCases()
	if len(cases) < 150 {
		t.Fatalf("only %d cases; the differential test promises at least 150", len(cases))
	}
	var mu sync.Mutex
	same, ran := map[string]int{}, map[string]int{}
	t.Cleanup(func() {
		for _, e := range engines {
			t.Logf("%s: %d/%d invocations run identical to rg 15 (%d cases), %d known differences",
				e.name, same[e.name], ran[e.name], len(cases), len(knownDiffs[e.name]))
		}
	})
	for i, c := range cases {
		// rg runs once per case, for whichever engine's subtest asks first.
		type answer struct {
			out, errOut string
			code        int
		}
		rgIn := func(dir string) func() (answer, error) {
			return sync.OnceValues(func() (answer, error) {
				out, errOut, code, err := runCaseErr(dir, env, []string{rg}, c)
				return answer{out, errOut, code}, err
			})
		}
		rgRuns := map[bool]func() (answer, error){false: rgIn(dir), true: rgIn(gitDir)}
		for _, e := range engines {
			t.Run(e.name+"/"+c.name(), func(t *testing.T) {
				t.Parallel()
				if !inDiffSample(e.name, i, c) {
					t.Skipf("sampled out (inDiffSample; %s=1 runs every case)", testtool.FullEnv)
				}
				rgRes, err := rgRuns[e.git]()
				if err != nil {
					t.Fatalf("rg: %v", err)
				}
				rgOut, rgErr, rgCode := rgRes.out, rgRes.errOut, rgRes.code
				runDir := dir
				if e.git {
					runDir = gitDir
				}
				out, errOut, code := runCase(t, runDir, env, e.argv, c)
				mu.Lock()
				ran[e.name]++
				mu.Unlock()
				if kd, ok := knownDiffs[e.name][c.name()]; ok {
					wantOut, wantErr, wantCode := "", kd.stderr, kd.code
					if kd.stdout != nil {
						wantOut, wantErr, wantCode = kd.stdout(normalize(rgOut, c)), rgErr, rgCode
					}
					if normalize(out, c) != wantOut || errOut != wantErr || code != wantCode {
						t.Errorf("known difference changed (%s)\n%s\nstderr %q\nexit %d\nwant stderr %q exit %d",
							kd.why, firstDiff(normalize(out, c), wantOut), errOut, code, wantErr, wantCode)
					}
					return
				}
				if normalize(out, c) == normalize(rgOut, c) && errOut == rgErr && code == rgCode {
					mu.Lock()
					same[e.name]++
					mu.Unlock()
					return
				}
				t.Errorf("differs from rg 15\n%s\nrgkit stderr %q\nrg    stderr %q\nexit %d, rg %d",
					firstDiff(normalize(out, c), normalize(rgOut, c)), errOut, rgErr, code, rgCode)
			})
		}
	}
}

// inDiffSample thins the columns by default, so that go test ./... stays
// quick: every stdin and terminal case (the streams the search is given)
// and every command line rgkit's parser refuses (rg gets the last word)
// runs on every column, and every known difference on its column; of the
// others, the native column (and the grep and rg 14 columns when asked
// for) runs one case in three and the ripgrep column one case in eight.
// With rg 15 on PATH,
// `rgkit grep --backend ripgrep` hands rg the command line unchanged, so
// what a case can break there is the hand-over itself, not the search.
// RGKIT_TEST_FULL=1 (CI) runs every case on every column.
func inDiffSample(engine string, i int, c diffCase) bool {
	if testtool.Full() || c.stdin != "" || c.tty {
		return true
	}
	if _, known := knownDiffs[engine][c.name()]; known {
		return true // a known difference that changes must be seen
	}
	if engine == "ripgrep" && i%8 == 1 || engine != "ripgrep" && i%3 == 0 {
		return true
	}
	_, err := rgcli.Parse(c.args)
	return err != nil
}

// knownDiff is rgkit's exact answer where it knowingly differs from rg:
// a refusal (stdout empty, this stderr and exit status), or rg's own
// output rewritten by stdout.
type knownDiff struct {
	stderr string
	code   int
	why    string
	stdout func(rgOut string) string // nil: a refusal, nothing on stdout
}

// refusal is the message for a flag the library's engines refuse.
func refusal(flag, why string) knownDiff {
	return knownDiff{stderr: "rg: " + flag + " is not supported by rgkit's engines (" + why + "); install rg 15 (rgkit fetch) to use it\n", code: 2, why: why}
}

// refusals are the same on every library engine.
var refusals = map[string]knownDiff{
	"--generate man": refusal("--generate", "rg generates its man page and shell completions from its own flag definitions; rgkit carries no copy of them"),
}

// readingDeclines are the cases whose reading flags (rg -z, -E, --crlf, -a,
// --binary) the grep and ripgrep engines decline (search.Query's
// CustomReading), with the flag each names; with --backend naming one of
// them there is no native engine to fall to.
var readingDeclines = map[string]string{
	"-z foo a.txt":                                   "search-zip",
	"--sort path --crlf -n foo$":                     "crlf",
	"--sort path -a -c foo":                          "text",
	"--sort path --binary -n baz":                    "binary",
	"--sort path --files-without-match --binary zzz": "binary",
	"--sort path --files-without-match -a zzz":       "text",
	"-E latin1 -c foo docs/readme.md":                "encoding latin1",
}

// preNative is --pre with --backend naming an engine other than native.
var preNative = knownDiff{stderr: "rg: --pre: only the native engine runs a preprocessor (use --backend native or auto)\n", code: 2, why: "only the native engine runs a preprocessor"}

// knownDiffs are the expected differences per engine path, keyed by case
// name; docs/cli.md lists them with the same reasons.
var knownDiffs = map[string]map[string]knownDiff{
	"native": refusals,
	"grep":   toolDeclines("grep", "grep searches line by line", "grep's regex dialects are not PCRE2's", "grep reads files as they are"),
	"gitgrep": func() map[string]knownDiff {
		m := toolDeclines("gitgrep", "git grep matches line by line", "git grep's prefilter reads rg's default regex syntax, not PCRE2's", "git grep reads files as they are")
		m["--sort path -L foo"] = declined("gitgrep", "git grep never follows symbolic links")
		return m
	}(),
	"ripgrep-engine": func() map[string]knownDiff {
		m := maps.Clone(refusals)
		quiet := knownDiff{code: 1, why: "the ripgrep engine does not count the files it searched, so rg's \"No files were searched\" note cannot be given"}
		m["-g *.zzz foo"] = quiet
		m["-l -g *.zzz foo"] = quiet
		m["--no-messages -g *.zzz foo"] = quiet
		for name, why := range readingDeclines {
			m[name] = knownDiff{stderr: "rg: no engine could run this query: ripgrep: backend cannot honour this query exactly: the ripgrep engine reads files as rg does by default (" + why + ")\n", code: 2, why: "the ripgrep engine does not pass the reading flags to rg"}
		}
		m["--pre cat foo a.txt"] = preNative
		return m
	}(),
}

// declined is an external engine's refusal of a query it cannot answer as
// rg would; with --backend naming it there is no other engine to fall to.
func declined(engine, why string) knownDiff {
	return knownDiff{stderr: "rg: no engine could run this query: " + engine + ": backend cannot honour this query exactly: " + why + "\n", code: 2, why: why}
}

// toolDeclines are a line-by-line external engine's known differences: the
// native refusals, and its declines of -U (every case that sets it), -P
// (every case that sets it), the reading flags and --pre.
func toolDeclines(engine, lineByLine, notPCRE, asTheyAre string) map[string]knownDiff {
	m := maps.Clone(refusals)
	for _, c := range diffCases() {
		switch {
		case slices.Contains(c.args, "-U"):
			m[c.name()] = declined(engine, lineByLine+" (multiline)")
		case slices.Contains(c.args, "-P"):
			m[c.name()] = declined(engine, notPCRE)
		}
	}
	for name, why := range readingDeclines {
		m[name] = declined(engine, asTheyAre+" ("+why+")")
	}
	m["--pre cat foo a.txt"] = preNative
	return m
}

// firstDiff shows the first line where got and want part.
func firstDiff(got, want string) string {
	g, w := strings.SplitAfter(got, "\n"), strings.SplitAfter(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("stdout line %d:\nrgkit %q\nrg    %q", i+1, gl, wl)
		}
	}
	return "stdout identical"
}
