package rg_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/rg"
)

// badPatterns are patterns rg 15's regex parser refuses, one or more of
// each of its errors: typos an agent or a user makes every day (an
// unescaped bracket, parenthesis or brace) and the rarer ones.
var badPatterns = [][]string{
	// brackets
	{"a["}, {"[a"}, {"[a-"}, {"[]"}, {"[^]"}, {"[a-z"}, {"[[:alpha:]"}, {"[a&&"},
	{`[a-\d]`}, {`[\d-z]`}, {"[z-a]"}, {"x[b-a]y"}, {"[[:foo:]]"},
	// groups
	{"a("}, {"(a"}, {"a)"}, {")"}, {"(a))"}, {"((a)"}, {"(?:a"}, {"(?"}, {"(?i"},
	{"(?P<n>a)(?P<n>b)"}, {"(?<n>a)(?<n>b)"}, {"(?P<"}, {"(?P<n"}, {"(?P<>a)"}, {"(?P<1a>x)"}, {"(?P<a-b>x)"},
	{"(?z)"}, {"(?-)"}, {"(?i-)"}, {"(?--i)"}, {"(?ii)"}, {"(?i-i)"}, {"(?:"},
	{"(?=a)"}, {"(?!a)"}, {"x(?<=a)"}, {"(?<!a)b"},
	// repetitions
	{"*a"}, {"+"}, {"?"}, {"a|*"}, {"(*)"}, {"a{"}, {"a{x}"}, {"a{1,x}"}, {"a{1"}, {"a{1,"}, {"a{2,1}"}, {"a{,3}"},
	{"{"}, {"x{1}{"}, {"a{}"},
	// escapes
	{`\`}, {`a\`}, {`\q`}, {`\1`}, {`a\9b`}, {`\b{`}, {`\b{foo}`}, {`\b{start`}, {`\x{`}, {`\x{}`}, {`\x{zz}`},
	{`\x{110000}`}, {`\xZ1`}, {`\x1`}, {`\u12`}, {`\U1234`}, {`\p{Foo}`}, {`\p{sc=Foo}`}, {`\pX`}, {`\p{`}, {`\p`},
	{`\P{Greekk}`}, {`[\p{Foo}]`}, {`\N`}, {`\z{`},
	// positions after characters of more than one byte, several lines,
	// several patterns
	{"é[ü"}, {"日本(語"}, {"a\nb["}, {"a\n\nb)"}, {"x\n"}, {"a", "b["}, {"b[", "c("}, {"a)", "c"}, {"a(", "c"},
	{"(?P<n>a)", "(?P<n>b)"},
	// found by the cases above being written
	{`[\b]`}, {`[\A]`}, {`[\<]`}, {`\p\d`}, {`\b{st_art}`}, {`\b{ab`}, {`\x{1`}, {`\uD800`}, {`\x{D800}`},
	{"(?x)a{ 1 , x }"}, {"[[a"}, {"[-"}, {"[^-"}, {`[a-\d`}, {"(?P<n>"}, {"(?<n"}, {"(?P=n)"}, {`\p{Greek`},
	{"(?u-u)"}, {"(?i:"}, {"(?P<n>a)|(?P<m>b)(?P<n>c)"}, {`\k<n>`}, {`[\d-\q]`}, {"a{2,1}?"},
	// a refusal rg makes after parsing yields to a syntax error after it
	{`\p{Foo}(`}, {`\p{Foo}\p{Bar}`}, {`(?-u)[é]`}, {`(?-u)[é`}, {`(?-u:\pL)`}, {`(?-u)[\x{100}]`},
	// (?x) spaces, line breaks ("\r\n" ends a line), a mark across lines
	{"(?x)a{1\n"}, {"(?x)a{1 \n "}, {"(?x)[a\n"}, {"a\r\nb["}, {"(?x)\\b{ab\n"}, {"(?x)\\b{ st art }"}, {"(?x)\\b{ sta rt"},
	{"a\rb["}, {"a\n(b"}, {"(?x)\\x4 1("}, {"(?x)\\x{ 4 1 }("}, {"(?x)\\u{ D800 }"}, {"(?x)\\uD8 00 "}, {"(?x)\\x{ 4 z }"},
	{"(?x)\\p{ Gre ek }("}, {"(?x)\\p{ Foo }"},
}

// badCommandLines are refused patterns with the flags that change what rg
// shows: --engine auto's two messages (the default engine's without its
// --pcre2 suggestion), -F, -x and -w (applied after the parse, so not
// shown), --no-unicode, -U, --crlf, --null-data.
var badCommandLines = [][]string{
	{"--engine", "auto", "-e", "a(?=b)["}, {"--engine", "auto", "-e", "(?<=a)b"}, {"--engine", "auto", "-e", `a\1`, "-e", "("},
	{"--engine", "auto", "-e", `\p{Foo}(?=a)`}, {"--engine", "auto", "-e", `\p{Foo}[`}, {"--engine", "pcre2", "-e", "a["},
	{"-P", "-e", "a["}, {"-F", "-e", "a[", "-e", "b("}, {"-x", "-e", "a)", "-e", "b"}, {"-w", "-e", "(?P<n>a)(?P<n>b)"},
	{"--no-unicode", "-e", `\w[é]`}, {"-U", "-e", "a\nb["}, {"--crlf", "-e", "a\r["}, {"-i", "-e", `\p{Lu}(`},
	{"--null-data", "-e", "a["},
	// PCRE2's own words for a class range it refuses, at its offset in the
	// pattern rg hands it (-w and -x wrap it; regexp2's words leaked)
	{"-P", "-e", "a[z-b]"}, {"-P", "-w", "-e", "a[z-b]"}, {"-P", "-x", "-e", "[b-a-z]"}, {"-P", "-e", "x", "-e", "é[ü-a]"},
	{"-P", "-e", `[\d-z]`}, {"-P", "-e", `[a-\d]`}, {"-P", "-e", `[\w-z]`}, {"-P", "-e", "[[:alpha:]-z]"}, {"-P", "-e", "[a-[:digit:]]"},
	{"-P", "-e", `[a-b-\d]`}, {"-P", "-e", "[--a]"}, {"-P", "-e", "[]-a]"},
}

// TestRegexParseErrorsAsRg15: a pattern rg refuses gets rg's own message,
// byte for byte: the pattern as rg's parser saw it (wrapped in a group,
// several joined by '|'), a line of carets under the offending part, the
// reason, and rg's suggestion where it makes one.
func TestRegexParseErrorsAsRg15(t *testing.T) {
	ref := testtool.ReferenceRg(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(file, []byte("abc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := badCommandLines
	for _, pats := range badPatterns {
		var args []string
		for _, p := range pats {
			args = append(args, "-e", p)
		}
		cases = append(cases, args)
	}
	for _, c := range cases {
		t.Run(strings.Join(c, " "), func(t *testing.T) {
			t.Parallel()
			args := append(append([]string{"--no-config"}, c...), file)
			cmd := exec.Command(ref, args...)
			wantOut, wantErr, wantCode := testtool.Run(t, cmd)
			var out, errOut bytes.Buffer
			code := rg.Main(context.Background(), args, nil, &out, &errOut)
			if code != wantCode || out.String() != wantOut || errOut.String() != wantErr {
				t.Errorf("rg %q: exit %d (rg 15.2.0: %d)\nstdout %q (rg: %q)\nstderr:\n%s\nrg 15.2.0's:\n%s", args, code, wantCode, out.String(), wantOut, errOut.String(), wantErr)
			}
		})
	}
}
