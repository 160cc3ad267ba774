package search

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
)

// TestNormalizeRejectsInvalidPatternsWithPositionAndHint: a pattern rg
// 15.2.0 refuses is an *InvalidPatternError naming rg's reason, where it is
// and how to fix it. Each is also run through the reference rg, which must
// refuse it (exit 2).
func TestNormalizeRejectsInvalidPatternsWithPositionAndHint(t *testing.T) {
	cases := []struct {
		pattern    string
		offset     int
		reasonHas  string
		hintHas    string
		fixedInput bool
	}{
		{`foo(?=bar)`, 3, "look-around", "surrounding text", false},
		{`foo(?!bar)`, 3, "look-around", "", false},
		{`(?<=a)b`, 0, "look-around", "", false},
		{`x(?<!a)b`, 1, "look-around", "", false},
		{`(a)\1`, 3, "backreferences", "repeat the group", false},
		{`(?P<n>a)(?P=n)`, 10, "unrecognized flag", "named groups", false},
		{`*a`, 0, "missing expression", `'\*'`, false},
		{`{`, 0, "missing expression", `'\{'`, false},
		{`a{,3}`, 2, "valid decimal", `'\{'`, false},
		{`interface{}`, 10, "valid decimal", `'\{'`, false},
		{`a(b(c)`, 1, "unclosed group", `'\('`, false},
		{`foo(`, 3, "unclosed group", `'\('`, false},
		{`[(]x(`, 4, "unclosed group", `'\('`, false},
		{`ab)`, 2, "unopened group", `'\)'`, false},
		{`x[ab`, 1, "unclosed character class", `'\['`, false},
		{`[z-a]`, 1, "invalid character class range", "low-high", false},
		{`\Z`, 0, "unrecognized escape", `\pL`, false},
		{`\QTODO:\E`, 0, "unrecognized escape", "-F", false},
		{`a\x00b`, -1, "impossible to match", "NUL", false},
		{"a\x00b", 1, "impossible to match", "", true},
		{`(?x) a # a comment runs to the end`, 0, "unclosed group", "", false},
		{`a\nb`, 1, "line break", "multiline", false},
		{`[\n]`, 1, "line break", "multiline", false},
		{"a\nb", 1, "line break", "multiline", true},
	}
	root := t.TempDir()
	ref, refErr := testtool.ReferenceRgPath(testtool.ReferenceVersion)
	for _, c := range cases {
		t.Run(c.pattern, func(t *testing.T) {
			_, err := Normalize(Query{Pattern: c.pattern, Root: root, Fixed: c.fixedInput})
			var pe *InvalidPatternError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want *InvalidPatternError", err)
			}
			if pe.Offset != c.offset {
				t.Errorf("Offset = %d, want %d (%v)", pe.Offset, c.offset, pe)
			}
			if !strings.Contains(pe.Reason, c.reasonHas) {
				t.Errorf("Reason = %q, want it to mention %q", pe.Reason, c.reasonHas)
			}
			if !strings.Contains(pe.Hint, c.hintHas) {
				t.Errorf("Hint = %q, want it to mention %q", pe.Hint, c.hintHas)
			}
			if refErr != nil || strings.ContainsRune(c.pattern, 0) {
				return // a NUL byte cannot be a command-line argument
			}
			args := []string{"--no-config", "-e", c.pattern, root}
			if c.fixedInput {
				args = append([]string{"-F"}, args...)
			}
			if err := exec.Command(ref, args...).Run(); exitCode(err) != 2 {
				t.Errorf("the reference rg does not refuse %q (%v)", c.pattern, err)
			}
		})
	}
	if refErr != nil {
		t.Logf("not compared with rg: %v", refErr)
	}
}

func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// TestNormalizeAcceptsWhatRgAccepts: rg's dialect (Unicode classes, set
// operations, (?x), special word boundaries, \u escapes, nested
// repetitions, counts over 1000); each is also accepted by the reference
// rg (exit 0 or 1).
func TestNormalizeAcceptsWhatRgAccepts(t *testing.T) {
	root := t.TempDir()
	ref, refErr := testtool.ReferenceRgPath(testtool.ReferenceVersion)
	for _, p := range []string{`a**`, `x{2}{3}`, `a{1001}`, `(?x) a b`, `(?i)foo`, `\pL+`, `(?<n>a)`, `(?P<n>a)`, ``,
		`[a-z&&[^aeiou]]`, `[\w--\d]`, `[a-c~~b-d]`, `\b{start}x\b{end}`, `\<x\>`, `\u{263A}`, `(?-u:\w)`, `a\nb|c`} {
		q := Query{Pattern: p, Root: root, Multiline: strings.Contains(p, `\n`)}
		if _, err := Normalize(q); err != nil {
			t.Errorf("Normalize(%q) = %v, want ok", p, err)
		}
		if refErr == nil {
			args := []string{"--no-config", "-e", p, root}
			if q.Multiline {
				args = append([]string{"-U"}, args...)
			}
			if c := exitCode(exec.Command(ref, args...).Run()); c != 0 && c != 1 {
				t.Errorf("the reference rg refuses %q (exit %d)", p, c)
			}
		}
	}
	if _, err := Normalize(Query{Pattern: `(a`, Root: root, Fixed: true}); err != nil {
		t.Errorf("a fixed string is never parsed as a regexp: %v", err)
	}
	if _, err := Normalize(Query{Pattern: "a\nb", Root: root, Multiline: true}); err != nil {
		t.Errorf("a line break is fine in multiline mode: %v", err)
	}
}

// TestSmartCaseMatchesRipgrep decides the smart-case outcome for each
// pattern by running the real rg -S over lines that differ only in case, and
// compares with smartCase.
func TestSmartCaseMatchesRipgrep(t *testing.T) {
	cases := []struct {
		pattern string
		fixed   bool
		want    CaseMode
	}{
		{"foo", false, CaseInsensitive},
		{"Foo", false, CaseSensitive},
		{`[A-Z]oo`, false, CaseSensitive},
		{`\x46oo`, false, CaseSensitive},
		{`[[:upper:]]oo`, false, CaseInsensitive},
		{`\Doo`, false, CaseInsensitive},
		{`(?P<Name>foo)`, false, CaseInsensitive},
		{`fo{1,2}`, false, CaseInsensitive},
		{`\W+`, false, CaseSensitive},
		{`\pL`, false, CaseSensitive},
		{``, false, CaseSensitive},
		{`f\.`, false, CaseInsensitive},
		{"Foo", true, CaseSensitive},
		{"f(o", true, CaseInsensitive},
	}
	for _, c := range cases {
		if got := smartCase(c.pattern, c.fixed); got != c.want {
			t.Errorf("smartCase(%q, fixed=%v) = %v, want %v", c.pattern, c.fixed, got, c.want)
		}
	}

	rg := testtool.ReferenceRg(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(file, []byte("foo\nFOO\nfoo.\nFOO.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		// Decide rg's mode by comparing -S with -s and -i on a probe that
		// the pattern selects differently per case mode.
		if c.pattern == "" || strings.Contains(c.pattern, "Name") {
			continue // no observable difference
		}
		if strings.ContainsAny(c.pattern, `\[`) && !strings.Contains(c.pattern, "oo") && !strings.Contains(c.pattern, `\.`) {
			continue
		}
		run := func(flag string) string {
			args := []string{"--no-config", "-c", flag}
			if c.fixed {
				args = append(args, "-F")
			}
			out, _ := exec.Command(rg, append(args, "-e", c.pattern, file)...).Output()
			return strings.TrimSpace(string(out))
		}
		smart, sens, insens := run("-S"), run("-s"), run("-i")
		if sens == insens {
			continue
		}
		want := CaseSensitive
		if smart == insens {
			want = CaseInsensitive
		}
		if got := smartCase(c.pattern, c.fixed); got != want {
			t.Errorf("rg -S treats %q as %v, smartCase says %v", c.pattern, want, got)
		}
	}
}

func TestNormalizeResolvesSmartCaseOnly(t *testing.T) {
	root := t.TempDir()
	for _, c := range []struct {
		in, want CaseMode
		pattern  string
	}{
		{CaseSmart, CaseInsensitive, "foo"},
		{CaseSmart, CaseSensitive, "Foo"},
		{CaseSensitive, CaseSensitive, "foo"},
		{CaseInsensitive, CaseInsensitive, "Foo"},
	} {
		q, err := Normalize(Query{Pattern: c.pattern, Root: root, Case: c.in})
		if err != nil || q.Case != c.want {
			t.Errorf("Normalize(%q, %v).Case = %v, %v; want %v", c.pattern, c.in, q.Case, err, c.want)
		}
	}
}

func TestNormalizePaths(t *testing.T) {
	root := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(root, "sub", "deep"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "sub", "a.go"), nil, 0o644))
	must(t, os.WriteFile(filepath.Join(root, "-rf"), nil, 0o644))
	ok := map[string]string{
		"sub":                               "sub",
		"./sub/../sub/a.go":                 "sub/a.go",
		filepath.Join(root, "sub", "deep"):  "sub/deep",
		".":                                 ".",
		root:                                ".",
		"-rf":                               "-rf",
		"sub/deep/..":                       "sub",
		filepath.Join(root, "sub") + "/./.": "sub",
	}
	for in, want := range ok {
		q, err := Normalize(Query{Pattern: "x", Root: root + "/./", Paths: []string{in}})
		if err != nil {
			t.Errorf("path %q: %v", in, err)
			continue
		}
		if q.Paths[0] != want || q.Root != root {
			t.Errorf("path %q -> %q (root %q), want %q (root %q)", in, q.Paths[0], q.Root, want, root)
		}
	}
	for _, bad := range []string{"..", "../x", "sub/../../x", "/etc", filepath.Dir(root), root + "x", "", "a\x00b"} {
		if _, err := Normalize(Query{Pattern: "x", Root: root, Paths: []string{bad}}); err == nil {
			t.Errorf("path %q was accepted; it leaves the root or is malformed", bad)
		}
	}
	outside := t.TempDir()
	must(t, os.Symlink(outside, filepath.Join(root, "link_out")))
	must(t, os.Symlink(filepath.Join(root, "sub"), filepath.Join(root, "link_in")))
	must(t, os.Symlink(filepath.Join(root, "gone"), filepath.Join(root, "dangling")))
	if q, err := Normalize(Query{Pattern: "x", Root: root, Paths: []string{"link_in"}}); err != nil || q.Paths[0] != "link_in" {
		t.Errorf("a link that stays inside the root: %v, %v", q.Paths, err)
	}
	for _, bad := range []string{"link_out", "link_out/x", "dangling"} {
		if _, err := Normalize(Query{Pattern: "x", Root: root, Paths: []string{bad}}); err == nil {
			t.Errorf("path %q was accepted; it resolves outside the root or nowhere", bad)
		}
	}
	if err := mkfifo(filepath.Join(root, "fifo")); err == nil {
		if _, err := Normalize(Query{Pattern: "x", Root: root, Paths: []string{"fifo"}}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("an explicit FIFO: err = %v, want it refused (it would hang rg)", err)
		}
	}
	if _, err := Normalize(Query{Pattern: "x", Root: root, Paths: []string{"missing"}}); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing path: err = %v, want fs.ErrNotExist", err)
	}
}

func TestNormalizeRootAndNumbers(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "f")
	must(t, os.WriteFile(file, nil, 0o644))
	bad := []Query{
		{Pattern: "x", Root: file},
		{Pattern: "x", Root: filepath.Join(root, "missing")},
		{Pattern: "x", Root: root, Before: -1},
		{Pattern: "x", Root: root, MaxCountPerFile: -1},
		{Pattern: "x", Root: root, MaxFileSize: -5},
		{Pattern: "x", Root: root, Timeout: -1},
		{Pattern: "x", Root: root, Case: CaseMode(9)},
		{Pattern: "x", Root: root, Mode: OutputMode(9)},
		{Pattern: "x", Root: root, Types: []string{"no-such-type"}},
	}
	for i, q := range bad {
		if _, err := Normalize(q); err == nil {
			t.Errorf("case %d: %+v accepted", i, q)
		}
	}
	t.Chdir(root)
	q, err := Normalize(Query{Pattern: "x"})
	if err != nil || q.Root != root {
		t.Errorf("empty root: %q, %v; want the working directory %q", q.Root, err, root)
	}
}

func mkfifo(path string) error {
	if _, err := exec.LookPath("mkfifo"); err != nil {
		return err
	}
	return exec.Command("mkfifo", path).Run()
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// The reading fields are checked as rg checks its flags: an encoding label
// rg does not know is rg's error, a pattern needing a NUL byte is allowed
// with BinaryText (rg -a) only, and --crlf / --no-unicode are read into
// the pattern's flags.
func TestNormalizeReadingFields(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, tt := range []struct {
		q       Query
		wantErr string
	}{
		{Query{Pattern: "x", Encoding: "utf-16le"}, ""},
		{Query{Pattern: "x", Encoding: "none"}, ""},
		{Query{Pattern: "x", Encoding: "Shift_JIS"}, ""},
		{Query{Pattern: "x", Encoding: "bogus"}, "search: encoding: grep config error: unknown encoding: bogus"},
		{Query{Pattern: "x", Encoding: "iso-2022-kr"}, "search: encoding: grep config error: unknown encoding: iso-2022-kr"},
		{Query{Pattern: "x", Binary: BinaryMode(7)}, "search: unknown binary mode 7"},
		{Query{Pattern: `a\x00b`, Binary: BinaryText}, ""},
		{Query{Pattern: "a\x00b", Fixed: true, Binary: BinaryText}, ""},
		{Query{Pattern: `a\x00b`, Binary: BinarySearch}, "impossible to match"},
		{Query{Pattern: `(?-u:\w)`, NoUnicode: true}, ""},
		{Query{Pattern: `a.b`, NoUnicode: true}, ""},
		{Query{Pattern: `a.\w`, NoUnicode: true}, ""},
		{Query{Pattern: `(?-u:.)\w`}, ""},
		{Query{Pattern: `[é]`, NoUnicode: true}, "Unicode not allowed here"},
		{Query{Pattern: `foo$`, CRLF: true}, ""},
	} {
		t.Run(fmt.Sprintf("%+v", tt.q), func(t *testing.T) {
			q := tt.q
			q.Root = root
			_, err := Normalize(q)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}
