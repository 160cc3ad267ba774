package search

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/internal/rgregex"
	"github.com/rgkit/rgkit/internal/testtool"
)

// TestNormalizeRejectsInvalidPatternsWithPositionAndHint: the pattern
// language is rg 15's, so a refused pattern carries rg's offset (into the
// pattern as written) and rg's message, with a hint. The offsets and
// messages were checked against rg 15.2.0's errors.
func TestNormalizeRejectsInvalidPatternsWithPositionAndHint(t *testing.T) {
	cases := []struct {
		pattern    string
		offset     int
		reasonHas  string
		hintHas    string
		fixedInput bool
	}{
		{`foo(?=bar)`, 3, "look-around", "-P", false},
		{`foo(?!bar)`, 3, "look-around", "-P", false},
		{`(?<=a)b`, 0, "look-around", "-P", false},
		{`x(?<!a)b`, 1, "look-around", "-P", false},
		{`(a)\1`, 3, "backreferences", "-P", false},
		{`*a`, 0, "repetition operator missing expression", `'\*'`, false},
		{`a(b(c)`, 1, "unclosed group", `'\('`, false},
		{`func main(`, 9, "unclosed group", `'\('`, false},
		{`([(])(x`, 5, "unclosed group", `'\('`, false},
		{`ab)`, 2, "unopened group", `'\)'`, false},
		{`x[ab`, 1, "unclosed character class", `'\['`, false},
		{`[z-a]`, 1, "invalid character class range", "low-high", false},
		{`a{,3}`, 2, "repetition quantifier expects a valid decimal", `'\{'`, false},
		{`a{2`, 1, "unclosed counted repetition", `'\{'`, false},
		{`\QTODO\E`, 0, "unrecognized escape sequence", `\Q..\E is not one`, false},
		{`\Z`, 0, "unrecognized escape sequence", "", false},
		{`interface{}`, 10, "repetition quantifier expects a valid decimal", `'\{'`, false},
		{`{`, 0, "repetition operator missing expression", `'\{'`, false},
		{`(?x) a # comment`, 0, "unclosed group", "", false},
		{`(?y)a`, 2, "unrecognized flag", "flags are", false},
		{`\p{Klingon}`, 0, "Unicode property not found", "", false},
		{`a\x00b`, -1, "NUL", "--text", false},
		{`(?-u:\xFF)`, 5, "rgkit cannot give it rg's meaning", "", false},
		{`a\nb`, 1, "line break", "multiline", false},
		{`[\n]`, 1, "line break", "multiline", false},
		{"a\nb", 1, "line break", "multiline", true},
	}
	root := t.TempDir()
	for _, c := range cases {
		t.Run(c.pattern, func(t *testing.T) {
			t.Parallel()
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
		})
	}
}

// TestInvalidPatternUnwrapsTheParsersError: a caller inside the module
// can tell rg's kinds of refusal apart (look-around, a NUL, a pattern rg
// accepts that rgkit cannot run).
func TestInvalidPatternUnwrapsTheParsersError(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for pattern, kind := range map[string]rgregex.Kind{
		`a(?=b)`: rgregex.KindLookAround, `(a)\1`: rgregex.KindBackreference, `a\x00`: rgregex.KindNUL,
		`(?-u:.)`: rgregex.KindUnsupported, `a{,2}`: rgregex.KindSyntax,
	} {
		_, err := Normalize(Query{Pattern: pattern, Root: root})
		var re *rgregex.Error
		if !errors.As(err, &re) || re.Kind != kind {
			t.Errorf("Normalize(%q) = %v, want an *rgregex.Error of kind %d inside", pattern, err, kind)
		}
	}
}

// TestNormalizeDecidesSmartCaseBeforeValidating: as in rg, the case mode
// smart case picks can decide whether a pattern is accepted (checked with
// rg 15.2.0: -S refuses `\x00|a`, -s accepts it).
func TestNormalizeDecidesSmartCaseBeforeValidating(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	if _, err := Normalize(Query{Pattern: `\x00|a`, Root: root, Case: CaseSensitive}); err != nil {
		t.Errorf("case-sensitive: %v, want ok (rg -s accepts it)", err)
	}
	_, err := Normalize(Query{Pattern: `\x00|a`, Root: root, Case: CaseSmart})
	var pe *InvalidPatternError
	if !errors.As(err, &pe) || !strings.Contains(pe.Reason, "NUL") {
		t.Errorf("smart case: err = %v, want the NUL refusal (rg -S refuses it)", err)
	}
}

// TestNormalizeAcceptsRgDialect: what rg 15 accepts and Go's RE2 syntax
// does not (or reads differently) is a valid pattern.
func TestNormalizeAcceptsRgDialect(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{`interface\{\}`, `(?i)foo`, `\pL+`, `(?<n>a)`, ``, `a\nb|c`,
		`[a-z&&[^aeiou]]`, `[\w--\d]`, "(?x) a b # comment\n", `\b{start}foo\b{end}`, `\<foo\>`,
		`\u{1F600}`, `\p{Greek}+`, `a**`, `(?-u:\w)`, `\w+_слово`} {
		q := Query{Pattern: p, Root: root, Multiline: strings.Contains(p, `\n`)}
		if _, err := Normalize(q); err != nil {
			t.Errorf("Normalize(%q) = %v, want ok", p, err)
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
		{`\x{46}oo`, false, CaseSensitive},
		{`(?x) f\ o o`, false, CaseInsensitive},
		{`(?x) F o o`, false, CaseSensitive},
		{`[a-z&&[^E]]`, false, CaseSensitive},
		{`\b{start}foo`, false, CaseInsensitive},
		{`\p{Lu}oo`, false, CaseInsensitive},
		{`\Soo`, false, CaseInsensitive},
		{"Ⅰoo", false, CaseSensitive},
		{"ⅰoo", false, CaseInsensitive},
		{"Ωmega", false, CaseSensitive},
		{"ωmega", false, CaseInsensitive},
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
	if err := os.WriteFile(file, []byte("foo\nFOO\nfoo.\nFOO.\nfOo\nⅠoo\nⅰoo\nωmega\nΩmega\nΩMEGA\nEoo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		// Decide rg's mode by comparing -S with -s and -i on a probe that
		// the pattern selects differently per case mode.
		if c.pattern == "" {
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
