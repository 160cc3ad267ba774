package native

import (
	"errors"
	"os/exec"
	"testing"

	"github.com/rgkit/rgkit/internal/rgregex"
	"github.com/rgkit/rgkit/internal/testtool"
)

// unicodeCorpus holds the scripts and characters where rg's Unicode-aware
// dialect differs from ASCII classes: Latin with diacritics, Cyrillic,
// Greek (with final sigma), Arabic-Indic and Devanagari digits, the Kelvin
// sign, the long s, combining marks, no-break and ideographic spaces, a
// zero-width joiner, an emoji, CRLF and an invalid byte.
const unicodeCorpus = "naïve résumé café\n" +
	"ключ_слово Ключ КЛЮЧ ключи\n" +
	"цифры ١٢٣ ४५६ 789\n" +
	"αβγ Ωμέγα ΣΊΣΥΦΟΣ σίσυφος\n" +
	"\u212a kelvin K k \u212aELVIN\n" +
	"\u017f long s S\n" +
	"e\u0301t\u00e9 cafe\u0301s\n" +
	"line 10\n" +
	"x_foo foo-bar foo\u00a0bar\u3000baz\n" +
	"a\u200db 😀smile\n" +
	"crlf end\r\n" +
	"bad\xffbyte foo\xff\n"

// TestDialectMatchesRg compares every match span of rg 15.2.0 and the
// native matcher, pattern by pattern, on unicodeCorpus: every other
// pattern by default, all of them under RGKIT_TEST_FULL=1.
func TestDialectMatchesRg(t *testing.T) {
	t.Parallel()
	type dc struct {
		pat  string
		opts MatchOptions // Pattern is filled in
	}
	word := MatchOptions{Word: true}
	fold := MatchOptions{CaseInsensitive: true}
	cases := []dc{
		{pat: `na\wve`}, {pat: `\w+`}, {pat: `\w+_слово`}, {pat: `\d+`}, {pat: `\s+`}, {pat: `\S+`},
		{pat: `\W+`}, {pat: `\D+`}, {pat: `\bслово\b`}, {pat: `\b\w+\b`}, {pat: `\B\w+\B`}, {pat: `\w\B`},
		{pat: `\b{start}\w`}, {pat: `\w+\b{end}`}, {pat: `\<\w+`}, {pat: `\w+\>`},
		{pat: `\b{start-half}\w+`}, {pat: `\w+\b{end-half}`}, {pat: `\b{start-half}foo\b{end-half}`},
		{pat: `(?i)ключ`}, {pat: `(?i)КЛЮЧ`}, {pat: `(?i)k`}, {pat: `(?i)s`}, {pat: `(?i)σ`},
		{pat: `(?i)[a-z]+`}, {pat: `(?i)\p{Lu}+`}, {pat: `(?i)[^k]+`}, {pat: `(?i-u)k+`},
		{pat: `\p{Greek}+`}, {pat: `\p{sc=Greek}+`}, {pat: `\p{Cyrillic}+`}, {pat: `\pL+`},
		{pat: `\p{L}+`}, {pat: `\p{Letter}+`}, {pat: `\p{Lu}`}, {pat: `\P{L}+`}, {pat: `\p{Nd}+`},
		{pat: `\p{gc=Nd}+`}, {pat: `\p{ Decimal Number }+`}, {pat: `\pM`}, {pat: `\p{Mn}`},
		{pat: `\p{White_Space}+`}, {pat: `\p{Alphabetic}+`}, {pat: `\P{sc!=Greek}+`}, {pat: `\p{Greek}`},
		{pat: `[\p{L}&&\p{Greek}]+`}, {pat: `[a-z&&[^aeiou]]+`}, {pat: `[\w--\d]+`}, {pat: `[a-z~~aeiou]+`},
		{pat: `[[:alpha:]]+`}, {pat: `[[:^alpha:][:digit:]]+`}, {pat: `[^[:^digit:]]+`}, {pat: `[]a]+`}, {pat: `[a-]+`},
		{pat: `(?-u:\w)+`}, {pat: `(?-u:\b)\w+`}, {pat: `(?-u)[a-z]+`}, {pat: `(?-u:\d)+`}, {pat: `(?-u:\s)`},
		{pat: "(?x) \\w+ \\s # a comment\n слово"}, {pat: `(?x)ключ _ слово`}, {pat: `(?x)[ a b ]+`},
		{pat: `\u{0301}`}, {pat: `\x{41}`}, {pat: `\x6b`}, {pat: `\u006B`}, {pat: `\U0000006b`}, {pat: `e\u0301`},
		{pat: `(?P<n>\w)(?<m>\d)`}, {pat: `\w{2}`}, {pat: `\w{2,3}`}, {pat: `\w{2,}`}, {pat: `(?U)\w+`},
		{pat: `\w+?`}, {pat: `(?s:.)`}, {pat: `.`}, {pat: `(?:ke)**lvin`}, {pat: `\b{2}foo`},
		{pat: `(?R)end$`}, {pat: `end$`}, {pat: `(?R)^\w+`}, {pat: `(?m)^\w+`}, {pat: `(?-m)^\w+`}, {pat: `\A\w+`},
		{pat: `\w+\z`}, {pat: `\%\_\-\~`}, {pat: `a{1001}|k`}, {pat: `\x00|k`}, {pat: `(?i)\x00|1`}, {pat: `[\x00a]|k`},
		{pat: `\w[a-z]\w*`, opts: word}, {pat: `слово`, opts: word}, {pat: `ключ`, opts: word},
		{pat: `\d+`, opts: word}, {pat: `foo`, opts: word}, {pat: `kelvin|k`, opts: MatchOptions{Word: true, CaseInsensitive: true}},
		{pat: `b`, opts: word}, {pat: `[^ ]+`, opts: word}, {pat: `-bar`, opts: word},
		{pat: `кЛюЧ`, opts: fold}, {pat: `kelvin`, opts: fold}, {pat: `ÉTÉ`, opts: fold}, {pat: `ΣΊΣΥΦΟΣ`, opts: fold}, {pat: `k`, opts: fold}, {pat: `\w+`, opts: fold},
		{pat: `s`, opts: MatchOptions{CaseInsensitive: true, Fixed: true}}, {pat: `ΣΊ`, opts: MatchOptions{Fixed: true}},
		{pat: `\w+\n\w+`, opts: MatchOptions{Multiline: true}}, {pat: `\bend\b`, opts: MatchOptions{Multiline: true}},
		{pat: `\d+`, opts: MatchOptions{Multiline: true, Word: true}},
		{pat: `\w+\s\w+`, opts: MatchOptions{Multiline: true, Word: true}},
		{pat: `\b`, opts: MatchOptions{}}, {pat: `\B`, opts: MatchOptions{}}, {pat: `\b{start}`, opts: MatchOptions{}},
		{pat: `end$`, opts: MatchOptions{CRLF: true}}, {pat: `^\w+$`, opts: MatchOptions{CRLF: true}},
		{pat: `d.`, opts: MatchOptions{CRLF: true}},
	}
	var rc []rgCase
	for i, c := range cases {
		if !testtool.Full() && i%2 == 1 {
			continue // every other pattern by default; all under RGKIT_TEST_FULL=1
		}
		o := c.opts
		o.Pattern = c.pat
		rc = append(rc, rgCase{name: c.pat, files: map[string]string{"u.txt": unicodeCorpus}, match: o})
	}
	checkAgainstRg(t, rc)
}

// TestDialectRefusalsMatchRg: a pattern rg 15 refuses is refused, with the
// kind of error rg gives; a pattern rg accepts that rgkit cannot give rg's
// meaning is refused as unsupported (never answered differently).
func TestDialectRefusalsMatchRg(t *testing.T) {
	t.Parallel()
	rg := searchRg(t)
	dir := writeSearchFiles(t, map[string]string{"u.txt": unicodeCorpus})
	cases := []struct {
		pat  string
		kind rgregex.Kind // of the native error; -1: no rgregex error (the line-mode '\n' rule)
		rgOK bool         // rg accepts it (only for KindUnsupported)
	}{
		{`a{,3}`, rgregex.KindSyntax, false}, {`(?=a)`, rgregex.KindLookAround, false},
		{`(?!a)`, rgregex.KindLookAround, false}, {`(?<=a)b`, rgregex.KindLookAround, false},
		{`(?<!a)b`, rgregex.KindLookAround, false}, {`(a)\1`, rgregex.KindBackreference, false},
		{`a\x00b`, rgregex.KindNUL, false}, {`[\x00]`, rgregex.KindNUL, false}, {`\x00?k`, rgregex.KindNUL, false},
		{`(?i)\x00|a`, rgregex.KindNUL, false}, {`[\x00]|[ab]`, rgregex.KindNUL, false},
		{`(`, rgregex.KindSyntax, false}, {`)`, rgregex.KindSyntax, false}, {`[a`, rgregex.KindSyntax, false},
		{`[z-a]`, rgregex.KindSyntax, false}, {`\e`, rgregex.KindSyntax, false}, {`\Z`, rgregex.KindSyntax, false},
		{`\b{foo}`, rgregex.KindSyntax, false}, {`\p{Foo}`, rgregex.KindSyntax, false},
		{`(?P=n)`, rgregex.KindSyntax, false}, {`(?<n>a)(?<n>b)`, rgregex.KindSyntax, false},
		{`x{2,1}`, rgregex.KindSyntax, false}, {`*a`, rgregex.KindSyntax, false}, {`{`, rgregex.KindSyntax, false},
		{`a{`, rgregex.KindSyntax, false}, {`a{1`, rgregex.KindSyntax, false},
		{`(?x)a#c`, rgregex.KindSyntax, false}, {`\x{D800}`, rgregex.KindSyntax, false},
		{`\x{110000}`, rgregex.KindSyntax, false}, {`(?ii)a`, rgregex.KindSyntax, false},
		{`(?-)a`, rgregex.KindSyntax, false}, {`(?)`, rgregex.KindSyntax, false}, {`[\d-z]`, rgregex.KindSyntax, false},
		{`(?-u)\pL`, rgregex.KindSyntax, false}, {`\`, rgregex.KindSyntax, false}, {`\p{^Greek}`, rgregex.KindSyntax, false}, {`\xZZ`, rgregex.KindSyntax, false},
		{`a\nb`, -1, false}, {`[\n]`, -1, false},
		{`\p{age=6.0}`, rgregex.KindUnsupported, true},
		{`(?-u)[é]`, rgregex.KindSyntax, false}, {`(?-u:[\x{e9}])`, rgregex.KindSyntax, false},
	}
	for _, c := range cases {
		t.Run(c.pat, func(t *testing.T) {
			cmd := exec.Command(rg, "--no-config", "-c", "-e", c.pat, "--", "u.txt")
			cmd.Dir = dir
			err := cmd.Run()
			var ee *exec.ExitError
			rgRefused := errors.As(err, &ee) && ee.ExitCode() == 2
			if rgRefused == c.rgOK {
				t.Fatalf("rg 15 refused=%v (%v), the case says rg accepts=%v", rgRefused, err, c.rgOK)
			}
			_, cerr := Compile(MatchOptions{Pattern: c.pat})
			var pe *PatternError
			if !errors.As(cerr, &pe) {
				t.Fatalf("Compile(%q) = %v, want a *PatternError", c.pat, cerr)
			}
			var re *rgregex.Error
			switch {
			case c.kind < 0:
				if errors.As(cerr, &re) {
					t.Fatalf("Compile(%q): %v, want the line terminator error", c.pat, cerr)
				}
			case !errors.As(cerr, &re) || re.Kind != c.kind:
				t.Fatalf("Compile(%q): %v, want an *rgregex.Error of kind %d", c.pat, cerr, c.kind)
			}
		})
	}
}
