package rg_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/rg"
)

// pcreTree is the fixture of the -P differential test: Go-like code,
// repeated words, Unicode, CRLF lines and a byte of invalid UTF-8.
func pcreTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"code.go":    "package main\n\nfunc main() {\n\tx := helper(2)\n}\n\nfunc helper(n int) int { return n * 2 }\n// TODO(alice): fix foo\n",
		"words.txt":  "foo\nfoobar\nbar foo baz\nfoo_bar\nFOO\nfoo-bar\nabab cdcd\nthe the cat\n-2 and 2\n",
		"uni.txt":    "naïve café\nÄÖÜ äöü\n日本語 テキスト\nx² ⅷ y\nstraße STRASSE\n",
		"crlf.txt":   "one foo\r\ntwo bar\r\n\r\nthree foo\r\n",
		"latin1.txt": "caf\xe9 foo\nb\xe9b bad\n",
		"multi.txt":  "begin\n  body one\nend\nbegin\nend\n",
		"lonecr.txt": "one\rfoo bar\r\nfoo\r\n\nx\r\n",
		"ranges.txt": "#parse('a/b_c.vm')\n#include (\"x-y.vm\")\n#parse(q)\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

var elapsedJSON = regexp.MustCompile(`"(elapsed|elapsed_total)":\{[^}]*\}`)

// TestPCRE2AgainstRg15 runs -P command lines through rg 15.2.0 (with its
// PCRE2 10.45) and through rg.Main on the native engine's PCRE2 emulation,
// and compares stdout, stderr and the exit status byte for byte.
func TestPCRE2AgainstRg15(t *testing.T) {
	ref := testtool.ReferenceRg(t)
	dir := pcreTree(t)
	f := func(name string) string { return filepath.Join(dir, name) }
	cases := [][]string{
		// look-behind, look-ahead, back-references
		{"-P", `(?<=func )\w+`, f("code.go")},
		{"-P", "-o", `(?<=func )\w+`, f("code.go")},
		{"-P", "-n", `(?<!foo)bar`, f("words.txt")},
		{"-P", "-o", `\w+(?=\()`, f("code.go")},
		{"-P", "-o", `foo(?!bar)`, f("words.txt")},
		{"-P", `(\w\w)\1`, f("words.txt")},
		{"-P", "-o", `\b(\w+) \1\b`, f("words.txt")},
		{"-P", "-o", `(?P<w>\w)(?P=w)`, f("words.txt")},
		{"-P", "-o", `(?<w>[a-z])\k<w>`, f("words.txt")},
		{"-P", "-o", `(a)(b)\g{-1}`, f("words.txt")},
		// -m with trailing context: rg runs -P line by line and matches
		// nothing past the limit, so a matching line there is context,
		// uncounted, and the statistics read to the context's end.
		{"-P", "-m1", "-A3", "-n", `\w+\(`, f("code.go")},
		{"-P", "-m1", "-A3", "-c", `\w+\(`, f("code.go")},
		{"-P", "-m1", "-A3", "--json", `\w+\(`, f("code.go")},
		// with -U, rg -P reads the whole text whatever -m stops printing
		{"-P", "-U", "-m1", "--json", `\w+\(`, f("code.go")}, {"-P", "-U", "-m1", "-c", "--json", `\w+\(`, f("code.go")},
		// case, words, lines, literals, several patterns
		{"-P", "-i", "foo", f("words.txt")},
		{"-P", "-S", "foo", f("words.txt")},
		{"-P", "-S", "Foo", f("words.txt")},
		{"-P", "-S", `\Sfoo`, f("words.txt")},
		{"-P", "-i", "-o", "STRASSE", f("uni.txt")},
		{"-P", "-w", "foo", f("words.txt")},
		{"-P", "-w", "-o", "-2", f("words.txt")},
		{"-P", "-x", "foo|FOO", f("words.txt")},
		{"-P", "-F", "-e", "foo-bar", "-e", "(", f("words.txt")},
		{"-P", "-e", "cat", "-e", `(?<=the )the`, f("words.txt")},
		// a class range that ends at '-' (regexp2 misread "\-" there)
		{"-P", "-o", "[%--]", f("words.txt")}, {"-P", "-o", `[%-\-]+`, f("words.txt")}, {"-P", "-o", "[+--]+", f("words.txt")},
		// multiline
		{"-P", "-U", "-n", `begin\n\s+body`, f("multi.txt")},
		{"-P", "-U", "-c", `(?s)begin.*?end`, f("multi.txt")},
		{"-P", "-U", "--multiline-dotall", "-o", `begin.end`, f("multi.txt")},
		{"-P", "-U", "-o", `begin.end`, f("multi.txt")},
		// replacement with groups
		{"-P", "-r", "$1", `func (\w+)`, f("code.go")},
		{"-P", "-r", "[${name}]", `(?<name>\w+)(?=\()`, f("code.go")},
		{"-P", "-o", "-r", "<$2:$1>", `(\w+)\((\w*)\)`, f("code.go")},
		// Unicode classes, invalid UTF-8, CRLF
		{"-P", "-o", `\w+`, f("uni.txt")},
		{"-P", "-o", `\d`, f("uni.txt")},
		{"-P", "-o", `\p{Katakana}+`, f("uni.txt")},
		{"-P", "-o", `\h\S`, f("uni.txt")},
		{"-P", "-o", `caf.`, f("latin1.txt")},
		{"-P", "-o", `b[^x]b`, f("latin1.txt")},
		{"-P", "--count-matches", `x*`, f("uni.txt")},
		{"-P", "--count-matches", `x*`, f("latin1.txt")},
		{"-P", "--count-matches", `\B`, f("uni.txt")},
		{"-P", "--count-matches", `(?<!ï)`, f("uni.txt")},
		{"-P", "-o", "-b", `\b`, f("latin1.txt")},
		{"-P", "-n", `foo$`, f("crlf.txt")},
		{"-P", "-n", `^$`, f("crlf.txt")},
		{"-P", "--json", `(?<=one )foo`, f("crlf.txt")},
		// --crlf: PCRE2's any-CRLF newline convention ('\r' ends a line too)
		{"-P", "--crlf", "-n", `foo$`, f("crlf.txt")},
		{"-P", "--crlf", "-o", `foo$`, f("crlf.txt")},
		{"-P", "--crlf", "-U", "-o", `foo$`, f("crlf.txt")},
		{"-P", "--crlf", "--json", `foo$`, f("crlf.txt")},
		{"-P", "--crlf", "-n", `^$`, f("crlf.txt")},
		{"-P", "--crlf", "-o", `one$`, f("lonecr.txt")},
		{"-P", "--crlf", "-o", `^foo \w+`, f("lonecr.txt")},
		{"-P", "--crlf", "-o", `e.f`, f("lonecr.txt")},
		{"-P", "--crlf", "-o", `e\Nf`, f("lonecr.txt")},
		{"-P", "--crlf", "-o", `e\sf`, f("lonecr.txt")},
		{"-P", "--crlf", "-U", "-o", `\w+\Z`, f("lonecr.txt")},
		{"-P", "--crlf", "-U", "-c", `^$`, f("lonecr.txt")},
		{"-P", "--crlf", "--color", "always", `x?`, f("lonecr.txt")},
		{"-P", "--crlf", "-U", "--count-matches", `x?`, f("lonecr.txt")},
		{"-P", "--crlf", "-U", "--count-matches", `$`, f("lonecr.txt")},
		{"-P", "--crlf", "-U", "--count-matches", `^`, f("lonecr.txt")},
		{"-P", "--crlf", "-U", "--count-matches", `\r?$`, f("lonecr.txt")},
		// --no-unicode: PCRE2 without UTF and UCP matches bytes, ASCII classes and case
		{"-P", "--no-unicode", "-i", "-c", "Ä", f("uni.txt")},
		{"-P", "--no-unicode", "-i", "-o", "äöü", f("uni.txt")},
		{"-P", "--no-unicode", "-o", `\w+`, f("uni.txt")},
		{"-P", "--no-unicode", "-o", `[^\x00-\x7f]+`, f("latin1.txt")},
		{"-P", "--no-unicode", "-o", `caf.`, f("latin1.txt")},
		{"-P", "--no-unicode", "--sort", "path", "-o", `\xe9|\x{c3}\xa4`, f("latin1.txt"), f("uni.txt")},
		{"-P", "--no-unicode", "-o", `[\xc3\xa4]+`, f("uni.txt")},
		{"-P", "--no-unicode", "-o", `[à-é]`, f("uni.txt")},
		{"-P", "--no-unicode", "-o", `\b\w+\b`, f("uni.txt")},
		{"-P", "--no-unicode", "-o", `[[:alpha:]]+`, f("uni.txt")},
		{"-P", "--no-unicode", "-w", "-o", `caf`, f("latin1.txt")},
		{"-P", "--no-unicode", "-r", "<$1>", `(\xc3).`, f("uni.txt")},
		{"-P", "--no-unicode", "--json", `b.b`, f("latin1.txt")},
		{"-P", "--no-unicode", `\x{100}`, f("uni.txt")},
		// a '-' that ends a class is literal
		{"-P", "-o", `[./A-Za-z_-]+`, f("ranges.txt")},
		{"-P", "-o", `[\w-]+`, f("ranges.txt")},
		{"-P", "-o", `[^a-z-]+`, f("ranges.txt")},
		// the dialect's own syntax
		{"-P", "-o", `\Qa.b\E|ab++`, f("words.txt")},
		{"-P", "-o", `(?x) foo \s # a comment`, f("words.txt")},
		{"-P", "-o", `o{,1}b`, f("words.txt")},
		{"-P", "-o", `\x{e4}`, f("uni.txt")},
		{"-P", "-o", `[\S\s]b`, f("latin1.txt")},
		{"-P", "-o", `[a\W]+`, f("words.txt")},
		{"-P", "-o", `[^a\W]+`, f("words.txt")},
		{"-P", "-o", `[^\W\d]+`, f("uni.txt")},
		{"-P", "-o", `[\d\P{L}]+`, f("uni.txt")},
		{"-P", "-v", "-n", "-f", os.DevNull, f("words.txt")},
		// \K: the reported match starts there
		{"-P", "-o", `func \K\w+`, f("code.go")},
		{"-P", "-o", `a\Kb`, f("words.txt")},
		{"-P", "--count-matches", `o\K`, f("words.txt")},
		{"-P", "-r", "[$1]", `(\w+)\(\K(\w*)`, f("code.go")},
		{"-P", "-o", `(?:the \K|cat)\w+`, f("words.txt")},
		{"-P", "-o", `(?=a\K)a`, f("words.txt")},
		{"-P", "--json", `TODO\(\K\w+`, f("code.go")},
		// POSIX classes, UCP meaning
		{"-P", "-o", `[[:alpha:]]+`, f("uni.txt")},
		{"-P", "-o", `[[:^digit:][:space:]]+`, f("uni.txt")},
		{"-P", "-o", `[^[:alnum:]]+`, f("words.txt")},
		{"-P", "-o", `[[:]+`, f("words.txt")},
		{"-P", `[[:foo:]]`, f("words.txt")},
		{"-P", `[[.a.]]`, f("words.txt")},
		// errors
		{"-P", "(a", f("words.txt")},
		{"-P", "a)", f("words.txt")},
		{"-P", `[\K]`, f("words.txt")},
		{"-P", `\b?`, f("words.txt")},
		{"-P", `a\A{2}`, f("words.txt")},
		{"-P", `(?<=a+)b`, f("words.txt")},
		{"--engine", "pcre2", `(?<=func )\w+`, f("code.go")},
		{"--engine", "auto", `(\w)\1`, f("words.txt")},
		{"--engine", "auto", "foo", f("words.txt")},
		{"--engine", "default", "-P", "foo", f("words.txt")},
		// -P, --no-pcre2 and the deprecated --auto-hybrid-regex: the last one wins
		{"--no-pcre2", "--auto-hybrid-regex", `(?<=func )\w+`, f("code.go")},
		{"-P", "--no-pcre2", "--auto-hybrid-regex", `(\w)\1`, f("words.txt")},
		{"--auto-hybrid-regex", "-P", "-c", `(?<=func )\w+`, f("code.go")},
		{"--auto-hybrid-regex", "--no-auto-hybrid-regex", "-c", "foo", f("words.txt")},
		{"--pcre2-version"},
	}
	for _, args := range cases {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			t.Parallel()
			rgOut, rgErr, rgCode := testtool.Run(t, exec.Command(ref, append([]string{"--no-config"}, args...)...))
			var out, errOut bytes.Buffer
			code := rg.Main(context.Background(), append([]string{"--no-config"}, args...), nil, &out, &errOut)
			if args[0] == "--pcre2-version" {
				// An honest line instead of rg's: PCRE2 is emulated.
				if !strings.HasPrefix(out.String(), "PCRE2 10.45 is emulated with github.com/dlclark/regexp2/v2") || code != rgCode {
					t.Errorf("--pcre2-version printed %q, exit %d", out.String(), code)
				}
				return
			}
			got, want := elapsedJSON.ReplaceAllString(out.String(), "T"), elapsedJSON.ReplaceAllString(rgOut, "T")
			if got != want || errOut.String() != rgErr || code != rgCode {
				t.Errorf("differs from rg 15.2.0\nstdout %q\nrg     %q\nstderr %q\nrg     %q\nexit %d, rg %d", got, want, errOut.String(), rgErr, code, rgCode)
			}
		})
	}
}

// TestPCRE2Refusals: constructs the emulation cannot give PCRE2's meaning
// are refused by name, never answered differently.
func TestPCRE2Refusals(t *testing.T) {
	dir := pcreTree(t)
	for _, c := range []struct{ pattern, says string }{
		{`(*UTF)a`, "(*VERB) is not supported"},
		{`(a)(?1)`, "recursion and subroutine calls"},
		{`(?|(a)|(b))`, "branch-reset"},
		{`\X`, `\X is not supported`},
	} {
		t.Run(c.pattern, func(t *testing.T) {
			t.Parallel()
			var out, errOut bytes.Buffer
			code := rg.Main(context.Background(), []string{"--no-config", "-P", c.pattern, filepath.Join(dir, "words.txt")}, nil, &out, &errOut)
			if code != 2 || out.Len() != 0 || !strings.Contains(errOut.String(), c.says) || !strings.Contains(errOut.String(), "rgkit's PCRE2 emulation") {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and a refusal saying %q", code, out.String(), errOut.String(), c.says)
			}
		})
	}
}

// TestPCRE2MatchLimit: a runaway -P match is reported for its file, in
// rg's words, and the other files' results stand (exit 2), as with rg's
// PCRE2 match limit. The emulation's limit is lowered for the test; not
// parallel, as it is the package's setting.
func TestPCRE2MatchLimit(t *testing.T) {
	ref := testtool.ReferenceRg(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "runaway.txt"), []byte(strings.Repeat("a", 40)+"!\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "fine.txt"), []byte("foo bar\nbaz\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	defer func(d time.Duration) { native.PCRE2MatchTimeout = d }(native.PCRE2MatchTimeout)
	native.PCRE2MatchTimeout = 100 * time.Millisecond
	for _, args := range [][]string{
		{"-P", `^(\w+\s?)*$`, filepath.Join(dir, "runaway.txt"), filepath.Join(dir, "fine.txt")},
		{"--sort", "path", "-P", `^(\w+\s?)*$`, dir},
	} {
		rgOut, rgErr, rgCode := testtool.Run(t, exec.Command(ref, append([]string{"--no-config"}, args...)...))
		var out, errOut bytes.Buffer
		code := rg.Main(context.Background(), append([]string{"--no-config"}, args...), nil, &out, &errOut)
		if out.String() != rgOut || errOut.String() != rgErr || code != rgCode {
			t.Errorf("%v: stdout %q stderr %q exit %d\nrg: stdout %q stderr %q exit %d", args, out.String(), errOut.String(), code, rgOut, rgErr, rgCode)
		}
	}
}
