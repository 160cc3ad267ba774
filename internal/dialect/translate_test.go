package dialect

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/internal/rgregex"
	"github.com/rgkit/rgkit/internal/searchtest"
	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/search"
)

func TestTranslateEmitsEachDialect(t *testing.T) {
	cases := []struct {
		q               search.Query
		rust, pcre, ere string
	}{
		{search.Query{Pattern: `(?-u:\d+)`}, `[0-9]+`, `[0-9]+`, `[0-9]+`},
		{search.Query{Pattern: `(?:ab|cd)+?`}, `(?:ab|cd)+?`, `(?:ab|cd)+?`, `(ab|cd)+`},
		{search.Query{Pattern: `^foo$`}, `^foo$`, `^foo$`, `^foo$`},
		{search.Query{Pattern: `\Afoo\z`, Multiline: true}, `\Afoo\z`, "", ""},
		{search.Query{Pattern: `\Afoo\z`}, `^foo$`, `^foo$`, `^foo$`},
		{search.Query{Pattern: `k`, Case: search.CaseInsensitive}, `[Kk\x{212A}]`, `[Kk\x{212A}]`, "([Kk]|\xe2\x84\xaa)"},
		{search.Query{Pattern: `é+`}, `é+`, `é+`, `(é)+`},
		{search.Query{Pattern: `a.b`, Fixed: true}, `a\.b`, `a\.b`, `a.b`},
		{search.Query{Pattern: `[]^\[-]`}, `[\x{2D}\x{5B}\x{5D}-\x{5E}]`, `[\x{2D}\x{5B}\x{5D}-\x{5E}]`, `[]^[-]`},
		{search.Query{Pattern: `[\^]`}, `\^`, `\^`, `\^`},
		{search.Query{Pattern: `[\^\-]`}, `[\x{2D}\x{5E}]`, `[\x{2D}\x{5E}]`, `[-^]`},
		{search.Query{Pattern: `foo`, Word: true}, `foo`, "", ""},
		{search.Query{Pattern: `a.`}, `a[\x{0}-\x{9}\x{B}-\x{D7FF}\x{E000}-\x{10FFFF}]`, "", ""},
		{search.Query{Pattern: `[^a]`, Multiline: true}, `[\x{0}-\x{60}b-\x{D7FF}\x{E000}-\x{10FFFF}]`, "", ""},
		{search.Query{Pattern: `^a$|\Ab\z`, Multiline: true}, `(?:(?m:^)a(?m:$)|\Ab\z)`, "", ""},
		// rg's dialect: (?-u:..) classes are ASCII; Unicode \b (Go's
		// syntax has none) becomes an empty match: the engines that
		// translate only choose files, so a wider pattern is safe.
		{search.Query{Pattern: `(?-u:\w)`}, `[0-9A-Z\x{5F}a-z]`, `[0-9A-Z\x{5F}a-z]`, `[0-9A-Z_a-z]`},
		{search.Query{Pattern: `\bfoo\b`}, `(?:)foo(?:)`, `(?:)foo(?:)`, `()foo()`},
		{search.Query{Pattern: `a\{,3\}`}, `a\{,3\}`, `a\{,3\}`, `a\{,3\}`},
	}
	for _, c := range cases {
		for d, want := range map[Dialect]string{Rust: c.rust, PCRE: c.pcre, ERE: c.ere} {
			if want == "" {
				continue
			}
			got, err := Translate(c.q, d)
			if err != nil {
				t.Errorf("%v %q: %v", d, c.q.Pattern, err)
				continue
			}
			if got.Pattern != want {
				t.Errorf("%v %q:\n got %q\nwant %q", d, c.q.Pattern, got.Pattern, want)
			}
		}
	}
}

func TestTranslateERERefusesWhatItCannotSay(t *testing.T) {
	for _, q := range []search.Query{
		{Pattern: `\x00`},
		{Pattern: `a(?s:.)b`, Multiline: true},
	} {
		if _, err := Translate(q, ERE); !errors.Is(err, search.ErrUnsupported) {
			t.Errorf("ERE %q: err = %v, want ErrUnsupported", q.Pattern, err)
		}
	}
	if _, err := Translate(search.Query{Pattern: "a", Multiline: true}, PCRE); !errors.Is(err, search.ErrUnsupported) {
		t.Errorf("PCRE multiline: err = %v, want ErrUnsupported (git grep is line-based)", err)
	}
}

// translationCorpus is valid UTF-8 text that tells the dialects apart
// (invalid UTF-8 is a documented exception: Go's '.' matches a bad byte).
var translationCorpus = []string{
	"foo", "FOO", "Foo bar", "foobar", "x42", "café", "CAFÉ", "caf", "k", "K", "KELVIN \u212a",
	"\u017f long s", "s", "S", "a{,3}", "aaa", "interface{}", "TODO: fix", "tab\there", "a.b", "a-b",
	"aéb", "[x]", "^caret", `back\slash`, "price $5", `"quoted" and "more"`, "foo_bar baz", "-e --pre=x",
	"日本語", "αβγ ΑΒΓ", "", " ", "fooo", "x=é", "é", "a]b", "dash-", "_under_", "naïve café",
}

var translationPatterns = []search.Query{
	{Pattern: `\d`}, {Pattern: `\d+`}, {Pattern: `\w+`}, {Pattern: `\W`}, {Pattern: `\bfoo\b`},
	{Pattern: `foo\b`}, {Pattern: `\Bar`}, {Pattern: `caf\b`}, {Pattern: `caf\w`}, {Pattern: `(?-u:caf\w)`},
	{Pattern: `(?-u:\bfoo\b)`}, {Pattern: `a.b`}, {Pattern: `(?i)foo`}, {Pattern: `(?i)k`}, {Pattern: `(?i)s`},
	{Pattern: `(?i)café`}, {Pattern: `[^a-z]`}, {Pattern: `^[^ ]+$`}, {Pattern: `\s`}, {Pattern: `[[:upper:]]`},
	{Pattern: `\pL+`}, {Pattern: `\p{Greek}`}, {Pattern: `[αβ]`}, {Pattern: `é`}, {Pattern: `fo+?`},
	{Pattern: `(foo|bar)`}, {Pattern: `foo|^x`}, {Pattern: `^$`}, {Pattern: `x*`}, {Pattern: `.`},
	{Pattern: `^.{3}$`}, {Pattern: `^.{4}$`}, {Pattern: `[^"]+"`}, {Pattern: `\$5`}, {Pattern: `\[x\]`},
	{Pattern: `\^c`}, {Pattern: `\\`}, {Pattern: `\t`}, {Pattern: `[\]\-^]`}, {Pattern: `[\[]`},
	{Pattern: `[-]`}, {Pattern: `[]a]`}, {Pattern: `(?:)`}, {Pattern: `a|`}, {Pattern: `[^\x00-\x7f]`},
	{Pattern: `\x{212a}`}, {Pattern: `(?U)fo+`}, {Pattern: `\A\w+\z`}, {Pattern: `(?m)^foo$`}, {Pattern: `[a-c]{2,3}`},
	{Pattern: `^.$`}, {Pattern: `^[^a]$`}, {Pattern: `(?i)[a-c]`}, {Pattern: `(?i)ſ`}, {Pattern: `\x{17F}`},
	{Pattern: `foo`, Case: search.CaseInsensitive}, {Pattern: `CAFÉ`, Case: search.CaseInsensitive},
	{Pattern: `foo`, Word: true}, {Pattern: `caf`, Word: true}, {Pattern: `é`, Word: true},
	{Pattern: `-e`, Word: true}, {Pattern: `a.b`, Word: true}, {Pattern: `under`, Word: true},
	{Pattern: `a.b`, Fixed: true}, {Pattern: `a{,3}`, Fixed: true}, {Pattern: `--pre=x`, Fixed: true},
	{Pattern: `Caf`, Fixed: true, Case: search.CaseInsensitive}, {Pattern: `k`, Fixed: true, Case: search.CaseInsensitive},
	{Pattern: `$5`, Fixed: true, Word: true},
	// Assertions before ^.
	{Pattern: `\B^`}, {Pattern: `\b^`}, {Pattern: `\B^\W`}, {Pattern: `(?:x|\b^f)`},
}

// referenceLines is what the native engine selects: the definition of right.
func referenceLines(t *testing.T, q search.Query, data []byte) []int {
	m, err := native.Compile(native.MatchOptions{Pattern: q.Pattern, Fixed: q.Fixed, Word: q.Word,
		CaseInsensitive: q.Case == search.CaseInsensitive, Multiline: q.Multiline})
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	if _, err := m.Search(data, native.SearchOptions{}, func(l native.Line) error {
		got = append(got, l.Number)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return got
}

// TestTranslationsSelectWhatGoSelects runs each Translation through the real
// tool and compares the selected lines with the native matcher's: the same
// lines, or (for a pattern with an assertion Go's syntax lacks, such as
// Unicode \b) at least those lines. Every other (pattern, tool) cell runs
// by default, all of them under RGKIT_TEST_FULL=1.
func TestTranslationsSelectWhatGoSelects(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "corpus.txt")
	data := []byte(strings.Join(translationCorpus, "\n") + "\n")
	searchtest.Must(t, os.WriteFile(file, data, 0o644))

	type tool struct {
		d   Dialect
		bin string
		env []string
		cmd func(tr Translation) []string
	}
	var tools []tool
	if rg, err := exec.LookPath("rg"); err == nil {
		tools = append(tools, tool{Rust, rg, nil, func(tr Translation) []string {
			args := []string{"--no-config", "-n", "--no-filename", "-e", tr.Pattern, "--", file}
			if tr.Word {
				args = append([]string{"-w"}, args...)
			}
			return args
		}})
	}
	if git, err := exec.LookPath("git"); err == nil {
		// git 2.39 aborts on grep --no-index outside a repository
		// ("BUG: environment.c:211"), so the corpus gets its own.
		for _, args := range [][]string{{"init", "-q"}, {"add", "corpus.txt"}} {
			c := exec.Command(git, args...)
			c.Dir = dir
			if out, err := c.CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v %s", args, err, out)
			}
		}
		tools = append(tools, tool{PCRE, git, []string{"LC_ALL=C.UTF-8"}, func(tr Translation) []string {
			return []string{"grep", "-n", "-h", "-P", "-e", tr.Pattern, "--", "corpus.txt"}
		}})
		tools = append(tools, tool{ERE, git, []string{"LC_ALL=C"}, func(tr Translation) []string {
			mode := "-E"
			if tr.Fixed {
				mode = "-F"
			}
			return []string{"grep", "-n", "-h", mode, "-e", tr.Pattern, "--", "corpus.txt"}
		}})
	}
	if grep, err := exec.LookPath("grep"); err == nil {
		tools = append(tools, tool{ERE, grep, []string{"LC_ALL=C"}, func(tr Translation) []string {
			mode := "-E"
			if tr.Fixed {
				mode = "-F"
			}
			return []string{"-n", "-a", mode, "-e", tr.Pattern, "--", file}
		}})
	}
	if len(tools) == 0 {
		t.Skip("none of rg, git, grep installed")
	}
	for qi, q := range translationPatterns {
		want := referenceLines(t, q, data)
		for ti, tl := range tools {
			if !testtool.Full() && (qi+ti)%2 == 1 {
				// By default every other (pattern, tool) cell runs, so each
				// pattern meets half the tools and each tool half the
				// patterns; RGKIT_TEST_FULL=1 (CI) runs them all.
				continue
			}
			if (q.Pattern == "^$" || q.Pattern == `\B^`) && tl.d == ERE && strings.HasSuffix(tl.bin, "git") {
				// git grep -E reports a phantom empty line after the final
				// '\n'; the engine filters it (TestGitGrepPhantomEmptyLastLine).
				continue
			}
			name := fmt.Sprintf("%s/%v/%q/w=%v/f=%v/i=%v", filepath.Base(tl.bin), tl.d, q.Pattern, q.Word, q.Fixed, q.Case)
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				tr, err := Translate(q, tl.d)
				if errors.Is(err, search.ErrUnsupported) {
					return
				}
				if err != nil {
					t.Errorf("%s: %v", name, err)
					return
				}
				cmd := exec.Command(tl.bin, tl.cmd(tr)...)
				cmd.Env = append(os.Environ(), tl.env...)
				cmd.Dir = dir
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				out, err := cmd.Output()
				if ee := (*exec.ExitError)(nil); errors.As(err, &ee) && ee.ExitCode() != 1 || err != nil && !errors.As(err, &ee) {
					t.Errorf("%s: %v: %s (pattern %q)", name, err, stderr.String(), tr.Pattern)
					return
				}
				var got []int
				for _, l := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
					if n, _, ok := strings.Cut(l, ":"); ok {
						v, _ := strconv.Atoi(n)
						got = append(got, v)
					}
				}
				if wider(q) {
					if missing := slices.DeleteFunc(slices.Clone(want), func(n int) bool { return slices.Contains(got, n) }); len(missing) > 0 {
						t.Errorf("%s: tool missed lines %v the native matcher selects (translated %q)", name, missing, tr.Pattern)
					}
				} else if !slices.Equal(got, want) {
					t.Errorf("%s: tool selected lines %v, the native matcher selects %v (translated %q)", name, got, want, tr.Pattern)
				}
			})
		}
	}
}

// wider reports whether q's Translation may select more lines than the
// pattern (see ReferenceTree): it holds an assertion Go's syntax lacks.
func wider(q search.Query) bool {
	if q.Fixed {
		return false
	}
	re, err := rgregex.Parse(q.Pattern, rgregex.Options{CaseInsensitive: q.Case == search.CaseInsensitive, DotNL: q.Multiline})
	return err == nil && (rgregex.HasAssertion(re) || q.Word)
}
