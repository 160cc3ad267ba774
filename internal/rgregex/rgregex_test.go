package rgregex

import (
	"errors"
	"fmt"
	"regexp/syntax"
	"strings"
	"testing"
	"unicode"
)

// matches compiles the tree with Go's regexp/syntax (no placeholder in
// these cases) and reports whether s matches in full.
func fullMatch(t *testing.T, re *syntax.Regexp, s string) bool {
	t.Helper()
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		t.Fatal(err)
	}
	// A tiny backtracking check is enough here: run the class test on each rune
	// of single-rune patterns.
	r := []rune(s)
	if len(r) != 1 {
		t.Fatalf("fullMatch takes one rune, got %q", s)
	}
	for _, in := range prog.Inst {
		if in.Op == syntax.InstRune || in.Op == syntax.InstRune1 {
			return in.MatchRune(r[0])
		}
	}
	return false
}

func TestPerlClassesAreUnicodeByDefaultAndASCIIUnderMinusU(t *testing.T) {
	t.Parallel()
	cases := []struct {
		pat, in string
		want    bool
	}{
		{`\w`, "é", true}, {`\w`, "ж", true}, {`\w`, "\u0301", true}, {`\w`, "\u200d", true}, {`\w`, "_", true},
		{`\w`, "-", false}, {`(?-u:\w)`, "é", false}, {`\d`, "١", true}, {`(?-u:\d)`, "١", false},
		{`\s`, "\u00a0", true}, {`\s`, "\u3000", true}, {`(?-u:\s)`, "\u00a0", false}, {`\s`, "\v", true},
		{`\W`, "é", false}, {`\D`, "x", true}, {`\p{Greek}`, "Ω", true}, {`\p{Greek}`, "\u0342", false},
		{`\pL`, "ж", true}, {`\p{Letter}`, "ж", true}, {`\p{gc=Lu}`, "Ж", true}, {`\p{sc=Cyrillic}`, "ж", true},
		{`\p{Cyrl}`, "ж", true}, {`\P{L}`, "ж", false}, {`\P{sc!=Greek}`, "Ω", true}, {`\p{digit}`, "٣", true},
		{`(?i)k`, "\u212a", true}, {`(?i)s`, "\u017f", true}, {`(?i)\x{212a}`, "k", true}, {`(?i-u)k`, "\u212a", false},
		{`(?i)[k]`, "\u212a", true}, {`(?i)[^k]`, "\u212a", false}, {`(?i)\p{Lu}`, "ж", true},
		{`[a-z&&[^aeiou]]`, "b", true}, {`[a-z&&[^aeiou]]`, "e", false}, {`[\w--\d]`, "7", false},
		{`[a-c~~b-d]`, "b", false}, {`[a-c~~b-d]`, "d", true}, {`(?i)[a~~A]`, "a", false}, {`(?i)[a-c--B]`, "b", false},
		{`(?i)[a-z~~[m-z]]`, "m", false}, {`(?i)[a-z~~[m-z]]`, "C", true}, {`(?i-u)[a-c--B]`, "b", false}, {`(?i)[k~~\x{212A}]`, "K", false}, {`[[:alpha:]]`, "é", false}, {`[[:^alpha:]]`, "é", true},
		{`\u{1F600}`, "😀", true}, {`\U0001F600`, "😀", true}, {`\x{e9}`, "é", true}, {`\u00E9`, "é", true},
		{`\a`, "\a", true}, {`\v`, "\v", true}, {`\%`, "%", true}, {`(?x)[ a ]`, " ", false}, {`(?x)\ `, " ", true},
	}
	for _, c := range cases {
		t.Run(c.pat+" "+c.in, func(t *testing.T) {
			re, err := Parse(c.pat, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := fullMatch(t, re, c.in); got != c.want {
				t.Errorf("%s on %q = %v, want %v", c.pat, c.in, got, c.want)
			}
		})
	}
}

func TestAssertionsBecomePlaceholders(t *testing.T) {
	t.Parallel()
	cases := map[string]Assertion{
		`\b`: WordBoundary, `\B`: NotWordBoundary, `\b{start}`: WordStart, `\<`: WordStart,
		`\b{end}`: WordEnd, `\>`: WordEnd, `\b{start-half}`: WordStartHalf, `\b{end-half}`: WordEndHalf,
		`(?-u:\b{start})`: WordStartASCII, `(?-u:\>)`: WordEndASCII, `(?-u:\b{start-half})`: WordStartHalfASCII,
		`(?-u:\b{end-half})`: WordEndHalfASCII, `(?R)^`: LineStartCRLF, `(?R)$`: LineEndCRLF,
	}
	for pat, want := range cases {
		re, err := Parse(pat, Options{})
		if err != nil {
			t.Fatalf("%s: %v", pat, err)
		}
		if got, ok := AssertionOf(re); !ok || got != want {
			t.Errorf("%s = %v (%v), want assertion %d", pat, re, ok, want)
		}
	}
	for pat, op := range map[string]syntax.Op{`(?-u:\b)`: syntax.OpWordBoundary, `(?-u:\B)`: syntax.OpNoWordBoundary,
		`^`: syntax.OpBeginLine, `$`: syntax.OpEndLine, `(?-m)^`: syntax.OpBeginText, `\A`: syntax.OpBeginText, `\z`: syntax.OpEndText} {
		re, err := Parse(pat, Options{})
		if err != nil || re.Op != op || HasAssertion(re) {
			t.Errorf("%s = %v, %v; want Go's %v", pat, re, err, op)
		}
	}
	w := Word(&syntax.Regexp{Op: syntax.OpLiteral, Rune: []rune("foo")})
	if a, _ := AssertionOf(w.Sub[0]); a != WordStartHalf {
		t.Errorf("Word starts with %v", w.Sub[0])
	}
	if a, _ := AssertionOf(w.Sub[2]); a != WordEndHalf {
		t.Errorf("Word ends with %v", w.Sub[2])
	}
}

func TestErrorsSayWhereWhatAndHowToFix(t *testing.T) {
	t.Parallel()
	cases := []struct {
		pat     string
		kind    Kind
		offset  int
		msg     string
		hintHas string
	}{
		{`ab(?=c)`, KindLookAround, 2, "look-around", "--pcre2"},
		{`(?<!a)b`, KindLookAround, 0, "look-around", "--pcre2"},
		{`(a)\1`, KindBackreference, 3, "backreferences are not supported", "--pcre2"},
		{`a{,3}`, KindSyntax, 2, "repetition quantifier expects a valid decimal", ""},
		{`x{2,1}`, KindSyntax, 1, "invalid repetition count range", ""},
		{`a)`, KindSyntax, 1, "unopened group", ""},
		{`(a`, KindSyntax, 0, "unclosed group", ""},
		{`[z-a]`, KindSyntax, 1, "invalid character class range", ""},
		{`a\x00b`, KindNUL, 0, `pattern contains "\0" but it is impossible to match`, "--text"},
		{`\p{age=6.0}`, KindUnsupported, 0, "not supported", ""},
		{`\p{sc=Nope}`, KindSyntax, 0, "Unicode property value not found", ""},
		{`(?-u:[é])`, KindSyntax, 6, "Unicode not allowed here", ""},
		{`\p{Nope}`, KindSyntax, 0, "Unicode property not found", ""},
		{"\xff", KindSyntax, 0, "not valid UTF-8", ""},
		{"\U0010FFF3", KindUnsupported, 0, "reserved", ""},
		{`(?i)\x00?k`, KindNUL, 0, "impossible to match", ""},
		{`(?i)\x00|a`, KindNUL, 0, "impossible to match", ""},
		{`[\x00]|[ab]`, KindNUL, 0, "impossible to match", ""},
		{`\x00|ab`, KindNUL, 0, "impossible to match", ""},
	}
	for _, c := range cases {
		t.Run(c.pat, func(t *testing.T) {
			_, err := Parse(c.pat, Options{})
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Parse(%q) = %v, want *Error", c.pat, err)
			}
			if e.Kind != c.kind || e.Offset != c.offset || !strings.Contains(e.Msg, c.msg) {
				t.Errorf("Parse(%q) = kind %d offset %d %q; want kind %d offset %d %q", c.pat, e.Kind, e.Offset, e.Msg, c.kind, c.offset, c.msg)
			}
			if c.hintHas != "" && !strings.Contains(e.Error(), c.hintHas) {
				t.Errorf("Parse(%q) error %q lacks the hint %q", c.pat, e.Error(), c.hintHas)
			}
			if strings.Contains(e.Error(), "syntax.") || strings.Contains(e.Error(), "strconv") {
				t.Errorf("error leaks Go identifiers: %q", e.Error())
			}
		})
	}
}

func TestHostilePatternsAreRefusedNotFatal(t *testing.T) {
	t.Parallel()
	for name, pat := range map[string]string{
		"deep groups":        strings.Repeat("(", 10000) + strings.Repeat(")", 10000),
		"deep classes":       strings.Repeat("[", 10000) + "a" + strings.Repeat("]", 10000),
		"huge count":         "a{4294967296}",
		"count above limit":  "a{10001}",
		"unterminated hex":   `\x{`,
		"unterminated name":  `(?P<abc`,
		"unterminated prop":  `\p{Greek`,
		"lone escape at end": `ab\`,
	} {
		if _, err := Parse(pat, Options{}); err == nil {
			t.Errorf("%s: Parse accepted it", name)
		}
	}
}

func TestIsWordRuneIsRgsUnicodeWord(t *testing.T) {
	t.Parallel()
	for _, r := range []rune{'a', 'Z', '0', '_', 'é', 'ж', 'Ω', '١', '\u0301', '\u200c', '\u200d', '\u2160', '‿'} {
		if !IsWordRune(r) {
			t.Errorf("IsWordRune(%U) = false", r)
		}
	}
	for _, r := range []rune{' ', '-', '\u00a0', '😀', '·', '\u3000', '$'} {
		if IsWordRune(r) {
			t.Errorf("IsWordRune(%U) = true", r)
		}
	}
	// Every letter is a word rune.
	for r := rune(0); r < 0x3000; r++ {
		if unicode.IsLetter(r) && !IsWordRune(r) {
			t.Fatalf("letter %U is not a word rune", r)
		}
	}
}

func TestSingleCharacterAlternationIsAClassAsInRg(t *testing.T) {
	t.Parallel()
	// rg sees `\x00|a` as the class [\x00a], not a literal NUL, so its NUL
	// ban does not apply; (?i)\x00|1 too (1 has no case).
	for _, pat := range []string{`\x00|a`, `(?i)\x00|1`, `a|\x00`, `[ab]|[cd]`} {
		re, err := Parse(pat, Options{})
		if err != nil {
			t.Errorf("%s: %v", pat, err)
			continue
		}
		if re.Op != syntax.OpCharClass {
			t.Errorf("%s = %v, want one class", pat, re)
		}
	}
}

// TestParseKeepsCapturesWhenAsked: with Options.Captures the groups are
// OpCapture nodes numbered in the order they open, with their names, and
// non-capturing and flag groups are not; without it, no group is kept.
func TestParseKeepsCapturesWhenAsked(t *testing.T) {
	caps := func(re *syntax.Regexp) (out []string) {
		var walk func(*syntax.Regexp)
		walk = func(re *syntax.Regexp) {
			if re.Op == syntax.OpCapture {
				out = append(out, fmt.Sprintf("%d:%s", re.Cap, re.Name))
			}
			for _, s := range re.Sub {
				walk(s)
			}
		}
		walk(re)
		return out
	}
	for _, c := range []struct {
		pattern string
		want    string
	}{
		{`(a)(?:b)(?P<x>c(d))`, "[1: 2:x 3:]"},
		{`(?i)(a|(?<y>b))()`, "[1: 2:y 3:]"},
		{`(?i:a)(?x) ( b )`, "[1:]"},
		{`a`, "[]"},
	} {
		re, err := Parse(c.pattern, Options{Captures: true})
		if err != nil {
			t.Fatalf("%s: %v", c.pattern, err)
		}
		if got := fmt.Sprint(caps(re)); got != c.want {
			t.Errorf("%s: captures %s, want %s", c.pattern, got, c.want)
		}
		plain, err := Parse(c.pattern, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := caps(plain); len(got) != 0 {
			t.Errorf("%s without Captures: %v", c.pattern, got)
		}
	}
}
