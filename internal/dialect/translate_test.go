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
	"unicode/utf8"

	"github.com/rgkit/rgkit/internal/searchtest"
	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/search"
	"github.com/rgkit/rgkit/search/native"
)

// TestTranslateEmitsEachDialect: rg gets the pattern as written (plus
// the flags its command line does not carry); PCRE and ERE get rgregex's
// tree spelled out, with rg's Unicode classes as ranges.
func TestTranslateEmitsEachDialect(t *testing.T) {
	t.Parallel()
	cases := []struct {
		q               search.Query
		rust, pcre, ere string
	}{
		{search.Query{Pattern: `\d+`}, `\d+`, "", ""},
		{search.Query{Pattern: `(?-u:\d)+`}, `(?-u:\d)+`, `[0-9]+`, `[0-9]+`},
		{search.Query{Pattern: `(?-u:\w)`}, `(?-u:\w)`, `[0-9A-Z\x{5F}a-z]`, `[0-9A-Z_a-z]`},
		{search.Query{Pattern: `(?-u:\bfoo\b)`}, `(?-u:\bfoo\b)`, `\bfoo\b`, `\bfoo\b`},
		{search.Query{Pattern: `\b{start-half}foo`}, `\b{start-half}foo`, "", ""},
		{search.Query{Pattern: `(?-u:\b{start}foo)`}, "", `(?<![0-9A-Z\x{5F}a-z])(?=[0-9A-Z\x{5F}a-z])foo`, ""},
		{search.Query{Pattern: `a\{,3\}`}, `a\{,3\}`, `a\{,3\}`, `a\{,3\}`},
		{search.Query{Pattern: `(?:ab|cd)+?`}, `(?:ab|cd)+?`, `(?:ab|cd)+?`, `(ab|cd)+`},
		{search.Query{Pattern: `^foo$`}, `^foo$`, `^foo$`, `^foo$`},
		{search.Query{Pattern: `\Afoo\z`, Multiline: true}, `(?s)\Afoo\z`, "", ""},
		{search.Query{Pattern: `\Afoo\z`}, `\Afoo\z`, `^foo$`, `^foo$`},
		{search.Query{Pattern: `k`, Case: search.CaseInsensitive}, `(?i)k`, "[Kk\u212a]", "([Kk]|\xe2\x84\xaa)"},
		{search.Query{Pattern: `é+`}, `é+`, `é+`, `(é)+`},
		{search.Query{Pattern: `a.b`, Fixed: true}, `a\.b`, `a\.b`, `a.b`},
		{search.Query{Pattern: `(?x) a b # c`, Fixed: true, Case: search.CaseInsensitive}, `(?i)\(\?x\) a b # c`, "", ""},
		{search.Query{Pattern: `[\]^\[-]`}, `[\]^\[-]`, `[\x{2D}\x{5B}\x{5D}-\x{5E}]`, `[]^[-]`},
		{search.Query{Pattern: `[\^\-]`}, `[\^\-]`, `[\x{2D}\x{5E}]`, `[-^]`},
		{search.Query{Pattern: `[a-z&&[^aeiou]]`}, `[a-z&&[^aeiou]]`, `[b-df-hj-np-tv-z]`, `[b-df-hj-np-tv-z]`},
		{search.Query{Pattern: `foo`, Word: true}, `foo`, "", `(^|`},
		{search.Query{Pattern: `a.`}, `a.`, "", ""},
		{search.Query{Pattern: `a.`, Multiline: true, Case: search.CaseInsensitive}, `(?is)a.`, "", ""},
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
			if got.Pattern != want && !(strings.HasSuffix(want, "|") && strings.HasPrefix(got.Pattern, want)) {
				t.Errorf("%v %q:\n got %q\nwant %q", d, c.q.Pattern, got.Pattern, want)
			}
			if d == Rust && got.Word != c.q.Word {
				t.Errorf("rust %q: Word = %v, rg gets -w as its own flag", c.q.Pattern, got.Word)
			}
		}
	}
}

// TestRustWordWrapIsRgsOwn: spelled out for rg, -w is rg 14+'s own
// wrapper; a (?x) comment that would swallow its closing parenthesis is
// refused, not mistranslated.
func TestRustWordWrapIsRgsOwn(t *testing.T) {
	t.Parallel()
	got, err := TranslateWith(search.Query{Pattern: `a|b`, Word: true}, Rust, true)
	if err != nil || got.Pattern != `\b{start-half}(?:a|b)\b{end-half}` || got.Word {
		t.Errorf("TranslateWith(-w a|b) = %+v, %v", got, err)
	}
	if _, err := TranslateWith(search.Query{Pattern: `(?x)a # note`, Word: true}, Rust, true); !errors.Is(err, search.ErrUnsupported) {
		t.Errorf("(?x) comment under a spelled-out -w: err = %v, want ErrUnsupported", err)
	}
}

// TestTranslateRefusesWhatItCannotSay lists every refusal: each is
// search.ErrUnsupported with the reason.
func TestTranslateRefusesWhatItCannotSay(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		q    search.Query
		d    Dialect
		says string
	}{
		{search.Query{Pattern: `a`, Multiline: true}, ERE, "multiline"},
		{search.Query{Pattern: `a`, Multiline: true}, PCRE, "multiline"},
		{search.Query{Pattern: `\bfoo`}, ERE, "word assertion"},
		{search.Query{Pattern: `\<foo\>`}, ERE, "word assertion"},
		{search.Query{Pattern: `foo\b{end-half}`}, ERE, "word assertion"},
		{search.Query{Pattern: `a\Bb`}, ERE, "word assertion"},
		{search.Query{Pattern: `\bfoo\b \bbar\b`}, PCRE, "too large"},
		{search.Query{Pattern: `\w+ \w+ \w+ \w+ \w+ \w+ \w+ \w+ \w+`}, ERE, "too large"},
	} {
		_, err := Translate(c.q, c.d)
		if !errors.Is(err, search.ErrUnsupported) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%v %q (multiline=%v): err = %v, want ErrUnsupported saying %q", c.d, c.q.Pattern, c.q.Multiline, err, c.says)
		}
	}
}

func TestUTF8SequencesCoverExactly(t *testing.T) {
	for _, r := range [][2]rune{{0x80, 0x10FFFF}, {0x80, 0xD7FF}, {0xE000, 0x10FFFF}, {0x3B1, 0x3C9}, {0x7FF, 0x800}, {0xFFFF, 0x10000}, {0x212A, 0x212A}, {0x1F600, 0x1F64F}, {0x100, 0x2FFF}} {
		seqs := utf8Sequences(r[0], r[1])
		in := func(c rune) int {
			var buf [4]byte
			b := buf[:utf8.EncodeRune(buf[:], c)]
			n := 0
			for _, s := range seqs {
				if len(s) != len(b) {
					continue
				}
				ok := true
				for i := range s {
					ok = ok && b[i] >= s[i].lo && b[i] <= s[i].hi
				}
				if ok {
					n++
				}
			}
			return n
		}
		for c := rune(0); c <= 0x10FFFF; c++ {
			if c >= 0xD800 && c <= 0xDFFF {
				continue
			}
			want := 0
			if c >= r[0] && c <= r[1] {
				want = 1
			}
			if got := in(c); got != want {
				t.Fatalf("range %U-%U: %U is in %d sequences, want %d", r[0], r[1], c, got, want)
			}
		}
	}
}

// translationCorpus is valid UTF-8 text that tells the dialects apart
// (invalid UTF-8 is a documented exception: Go's '.' matches a bad byte),
// with the Unicode lines where rg's dialect differs from ASCII classes:
// Latin with diacritics (precomposed and combining), Cyrillic, Greek,
// Arabic-Indic digits, the Kelvin sign.
var translationCorpus = []string{
	"foo", "FOO", "Foo bar", "foobar", "x42", "café", "CAFÉ", "caf", "k", "K", "KELVIN \u212a",
	"\u017f long s", "s", "S", "a{,3}", "aaa", "interface{}", "TODO: fix", "tab\there", "a.b", "a-b",
	"aéb", "[x]", "^caret", `back\slash`, "price $5", `"quoted" and "more"`, "foo_bar baz", "-e --pre=x",
	"日本語", "αβγ ΑΒΓ", "", " ", "fooo", "x=é", "é", "a]b", "dash-", "_under_", "naïve café",
	"naïve résumé", "nai\u0308ve", "цифры ١٢٣", "ключ_слово", "КЛЮЧ_СЛОВО", "Σίσυφος ΣΊΣΥΦΟΣ", "x\u00a0y",
}

var translationPatterns = []search.Query{
	{Pattern: `\d`}, {Pattern: `\d+`}, {Pattern: `\w+`}, {Pattern: `\W`}, {Pattern: `\bfoo\b`},
	{Pattern: `foo\b`}, {Pattern: `\Bar`}, {Pattern: `caf\b`}, {Pattern: `caf\w`}, {Pattern: `a\{,3\}`},
	{Pattern: `a\.b`}, {Pattern: `a.b`}, {Pattern: `(?i)foo`}, {Pattern: `(?i)k`}, {Pattern: `(?i)s`},
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
	{Pattern: `\B^`}, {Pattern: `\b^`}, {Pattern: `\B^\W`}, {Pattern: `(?:x|\b^f)`},
	// rg's dialect: Unicode classes, set operations, special boundaries,
	// verbose mode, (?-u) for ASCII.
	{Pattern: `na\wve`}, {Pattern: `\w+_слово`}, {Pattern: `\d{3}`}, {Pattern: `(?-u:\d)`}, {Pattern: `(?-u:\w)+_`},
	{Pattern: `x\sy`}, {Pattern: `\bключ`}, {Pattern: `ve\b`}, {Pattern: `na\b`}, {Pattern: `\b١`},
	{Pattern: `\b{start}ключ`}, {Pattern: `\<naïve\>`}, {Pattern: `\b{end-half}_`}, {Pattern: `(?-u:\bna)`},
	{Pattern: `ключ`, Case: search.CaseInsensitive}, {Pattern: `σίσυφοσ`, Case: search.CaseInsensitive},
	{Pattern: `КЛЮЧ`, Word: true, Case: search.CaseInsensitive}, {Pattern: `naïve`, Word: true},
	{Pattern: `na`, Word: true}, {Pattern: `цифры`, Word: true}, {Pattern: `\d+`, Word: true},
	{Pattern: `[\w&&\p{Cyrillic}]+`}, {Pattern: `[\p{L}--\p{Latin}]{3}`}, {Pattern: `[a-z~~c-f]+`},
	{Pattern: "(?x) ключ _ слово # comment\n"}, {Pattern: `\u{212A}`}, {Pattern: `\p{Nd}`}, {Pattern: `(?i)КЛЮЧ_слово`},
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

// TestTranslationsSelectWhatRgSelects runs each Translation through the
// real tool and compares the selected lines with the native matcher's
// (which its own tests hold to rg 15.2.0): rg 15.2.0 as the reference
// (RGKIT_REFERENCE_RG or rg 15 on PATH), git grep -P, git grep -E and
// grep -E. A refused translation (ErrUnsupported) is fine: that engine
// then steps aside.
func TestTranslationsSelectWhatRgSelects(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "corpus.txt")
	data := []byte(strings.Join(translationCorpus, "\n") + "\n")
	searchtest.Must(t, os.WriteFile(file, data, 0o644))

	t.Run("rg", func(t *testing.T) {
		t.Parallel()
		rg := testtool.ReferenceRg(t)
		checkTool(t, dir, data, Rust, rg, nil, func(tr Translation) []string {
			args := []string{"--no-config", "-n", "--no-filename", "--case-sensitive", "-e", tr.Pattern, "--", file}
			if tr.Word {
				args = append([]string{"-w"}, args...)
			}
			return args
		})
	})
	t.Run("git", func(t *testing.T) {
		git := testtool.Need(t, "git")
		// git 2.39 aborts on grep --no-index outside a repository
		// ("BUG: environment.c:211"), so the corpus gets its own.
		for _, args := range [][]string{{"init", "-q"}, {"add", "corpus.txt"}} {
			c := exec.Command(git, args...)
			c.Dir = dir
			if out, err := c.CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v %s", args, err, out)
			}
		}
		t.Run("pcre", func(t *testing.T) {
			t.Parallel()
			checkTool(t, dir, data, PCRE, git, []string{"LC_ALL=C.UTF-8"}, func(tr Translation) []string {
				return []string{"grep", "-n", "-h", "-P", "-e", tr.Pattern, "--", "corpus.txt"}
			})
		})
		t.Run("ere", func(t *testing.T) {
			t.Parallel()
			checkTool(t, dir, data, ERE, git, []string{"LC_ALL=C"}, func(tr Translation) []string {
				mode := "-E"
				if tr.Fixed {
					mode = "-F"
				}
				return []string{"grep", "-n", "-h", mode, "-e", tr.Pattern, "--", "corpus.txt"}
			})
		})
	})
	t.Run("grep", func(t *testing.T) {
		t.Parallel()
		grep := testtool.Need(t, "grep")
		checkTool(t, dir, data, ERE, grep, []string{"LC_ALL=C"}, func(tr Translation) []string {
			mode := "-E"
			if tr.Fixed {
				mode = "-F"
			}
			return []string{"-n", "-a", mode, "-e", tr.Pattern, "--", file}
		})
	})
}

// checkTool runs every pattern's Translation for d through bin and
// compares the selected lines with the native matcher's.
func checkTool(t *testing.T, dir string, data []byte, d Dialect, bin string, env []string, argv func(Translation) []string) {
	translated := 0
	for _, q := range translationPatterns {
		want := referenceLines(t, q, data)
		{
			if (q.Pattern == "^$" || q.Pattern == `\B^`) && d != Rust && strings.HasSuffix(bin, "git") {
				// git grep reports a phantom empty line after the final
				// '\n'; the engine filters it (TestGitGrepPhantomEmptyLastLine).
				continue
			}
			name := fmt.Sprintf("%s/%v/%q/w=%v/f=%v/i=%v", filepath.Base(bin), d, q.Pattern, q.Word, q.Fixed, q.Case)
			tr, err := Translate(q, d)
			if errors.Is(err, search.ErrUnsupported) {
				continue
			}
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			translated++
			cmd := exec.Command(bin, argv(tr)...)
			cmd.Env = append(os.Environ(), env...)
			cmd.Dir = dir
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if ee := (*exec.ExitError)(nil); errors.As(err, &ee) && ee.ExitCode() != 1 || err != nil && !errors.As(err, &ee) {
				t.Errorf("%s: %v: %s (pattern %q)", name, err, stderr.String(), tr.Pattern)
				continue
			}
			var got []int
			for _, l := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
				if n, _, ok := strings.Cut(l, ":"); ok {
					v, _ := strconv.Atoi(n)
					got = append(got, v)
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s: tool selected lines %v, the native matcher %v (translated %.200q)", name, got, want, tr.Pattern)
			}
		}
	}
	if translated < len(translationPatterns)/2 {
		t.Errorf("only %d of %d patterns translated for %v", translated, len(translationPatterns), d)
	}
}
