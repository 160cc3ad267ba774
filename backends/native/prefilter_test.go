package native

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestPrefilterChoosesLiterals pins which literals each pattern shape is
// prefiltered on, and when a hit is a match by itself.
func TestPrefilterChoosesLiterals(t *testing.T) {
	cases := []struct {
		pattern string
		fold    bool
		want    string // literals, "" = no prefilter
		exact   bool
		split   bool
	}{
		{pattern: "ErrUnexpectedEOF", want: "[ErrUnexpectedEOF]", exact: true},
		{pattern: "http", fold: true, want: "[http/i]", exact: true},
		{pattern: "(Read|Write)(At|From|To)", want: "[Read Write]"},
		{pattern: `func \w+Error\(`, want: "[Error(]", split: true},
		{pattern: `\w+\d\s*=\s*\d`, want: "[=]", split: true},
		{pattern: "foo|bar", want: "[foo bar]", exact: true},
		{pattern: `^foo$`, want: "[foo]"},
		{pattern: `a+`, want: "[a]"},
		{pattern: `a*`, want: ""},
		{pattern: `\w+`, want: ""},
		{pattern: `kelvin`, fold: true, want: "[elvin/i]"},    // 'k' folds to the Kelvin sign: the rest stays one folded literal
		{pattern: `pm_resume`, fold: true, want: "[pm_re/i]"}, // not a scan for every 'm' and 'M'
		{pattern: `static`, fold: true, want: "[tatic/i]"},
		{pattern: `ks|xyz`, fold: false, want: "[ks xyz]", exact: true},
		{pattern: `caf\x{e9}`, fold: true, want: "[É é]"}, // non-ASCII letters fold beyond ASCII
		{pattern: `кЛюЧ`, fold: true, want: "[Л л]"},
		{pattern: `[ab]cd`, want: "[cd]", split: true}, // one pass beats two
		{pattern: `x(?:a|b|c|d|e|f|g|h|i)y`, want: "[x]", split: true},
	}
	for _, c := range cases {
		m, err := Compile(MatchOptions{Pattern: c.pattern, CaseInsensitive: c.fold})
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if m.pre != nil {
			var parts []string
			for _, f := range m.pre.finders {
				s := f.lit
				if f.fold {
					s += "/i"
				}
				parts = append(parts, s)
			}
			got = "[" + strings.Join(parts, " ") + "]"
		}
		if got != c.want || m.exact != c.exact || (m.split != nil) != c.split {
			t.Errorf("%q (fold %v): prefilter %s exact %v split %v, want %s exact %v split %v",
				c.pattern, c.fold, got, m.exact, m.split != nil, c.want, c.exact, c.split)
		}
	}
}

// TestPrefilterNeverChangesResults searches random texts with and without
// the prefilter, split check and line DFA (the plain path is Go's regexp
// alone): the lines must be identical.
func TestPrefilterNeverChangesResults(t *testing.T) {
	patterns := []string{
		"foo", "Foo", "fo+", "(Read|Write)(At|From|To)", `func \w+Error\(`, `\w+\d\s*=\s*\d`,
		`a=\d`, `x\s*=`, `=\s*\d`, "[ab]c", "é", "http", "k", "foo|bar|baz", `(?:foo)+x`, `=`, `.=.`,
		`[A-Z][a-z]+[0-9]{2}`, `\bfoo\b`, `^foo`, `foo$`, `^$`, `\Bo`, `x*`, `[^a-z ]+=`, `(?i)ab|c\d`,
		`(?m:^)(?:foo)(?m:$)`, `^(?:http)$`, `(?m:^)(?:a1)(?m:$)`, // rg -x around a literal (Matcher.wholeLine)
	}
	words := []string{"foo", "FOO", "Foo", "bar", "baz", "ReadAt", "WriteTo", "ReadFull", "func ", "xError(",
		"a1", "b2 = 3", "=", " ", "\n", "_", "9", "Ab12", "-", "\r\n", "http", "HTTP", "é", "\xff", "k", "\u212a", "c", "ac", "x="}
	type pair struct {
		opts       MatchOptions
		fast, slow *Matcher
	}
	var pairs []pair
	for _, p := range patterns {
		for _, mode := range []MatchOptions{{}, {CaseInsensitive: true}, {Word: true}, {CRLF: true}} {
			opts := MatchOptions{Pattern: p, CaseInsensitive: mode.CaseInsensitive, Word: mode.Word, CRLF: mode.CRLF}
			fast, err := Compile(opts)
			if err != nil {
				t.Fatal(err)
			}
			slow, _ := Compile(opts)
			slow.pre, slow.split, slow.exact, slow.dfa, slow.wholeLine = nil, nil, false, nil, ""
			pairs = append(pairs, pair{opts, fast, slow})
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	so := SearchOptions{Before: 1, After: 1}
	for i := 0; i < 600; i++ {
		var b bytes.Buffer
		for j := rng.IntN(60); j > 0; j-- {
			b.WriteString(words[rng.IntN(len(words))])
		}
		data := b.Bytes()
		for _, p := range pairs {
			if got, want := render(t, p.fast, data, so), render(t, p.slow, data, so); got != want {
				t.Fatalf("%+v on %q:\nprefiltered %s\nplain       %s", p.opts, data, got, want)
			}
			// NoStats: the prefilter's first hit is found before the
			// search, which then starts there.
			ns := SearchOptions{NoStats: true, Before: 1, After: 1}
			if got, want := render(t, p.fast, data, ns), render(t, p.slow, data, ns); got != want {
				t.Fatalf("%+v on %q, NoStats:\nprefiltered %s\nplain       %s", p.opts, data, got, want)
			}
		}
	}
}

func render(t *testing.T, m *Matcher, data []byte, o SearchOptions) string {
	t.Helper()
	var b strings.Builder
	res, err := m.Search(data, o, func(l Line) error {
		fmt.Fprintf(&b, "%d:%v:%q:%v;", l.Number, l.Context, l.Text, l.Submatches)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, " count=%d", res.MatchedLines)
	return b.String()
}

// TestFinderAgreesWithReference compares each finder with a plain search.
func TestFinderAgreesWithReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte("aAbBhHtTpP=( \n")
	for _, lit := range []string{"http", "ab", "b", "aab", "(", "hTtP", "=="} {
		for _, fold := range []bool{false, true} {
			re := regexp.MustCompile(regexp.QuoteMeta(lit))
			if fold {
				re = regexp.MustCompile("(?i)" + regexp.QuoteMeta(lit))
			}
			l := lit
			if fold {
				l = strings.ToLower(lit)
			}
			f := newFinder(lit2(l, fold))
			for i := 0; i < 200; i++ {
				data := make([]byte, rng.IntN(40))
				for j := range data {
					data[j] = alphabet[rng.IntN(len(alphabet))]
				}
				from := 0
				if len(data) > 0 {
					from = rng.IntN(len(data))
				}
				want := -1
				if loc := re.FindIndex(data[from:]); loc != nil {
					want = from + loc[0]
				}
				if got := f.index(data, from); got != want {
					t.Fatalf("finder %q fold %v in %q from %d: %d, want %d", lit, fold, data, from, got, want)
				}
			}
		}
	}
}

func lit2(s string, fold bool) lit { return lit{s: s, fold: fold} }

// TestSpansAreRg14WordSemantics: -w is \b{start-half}(?:P)\b{end-half},
// the same wherever rg's buffers start (rg 13 reported "ine" for "line 10"
// past a buffer start, ripgrep#2574). Checked against rg 15 in
// TestDialectMatchesRg; this pins Spans without rg.
func TestSpansAreRg14WordSemantics(t *testing.T) {
	m, err := Compile(MatchOptions{Pattern: `\w[a-z]\w*`, Word: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ line, want string }{
		{"line 10", "[[0 4]]"},
		{"a line", "[[2 6]]"},
		{"éline x", "[[0 6]]"}, // é is a word character: the word starts at it
		{"x\xffline", "[]"},    // no half boundary right after invalid UTF-8
		{"ключ line", "[[9 13]]"},
	} {
		if got := fmt.Sprint(m.Spans([]byte(c.line))); got != c.want {
			t.Errorf("Spans(%q) = %s, want %s", c.line, got, c.want)
		}
		if got, want := fmt.Sprint(m.WordSpans([]byte(c.line), true)), fmt.Sprint(m.Spans([]byte(c.line))); got != want {
			t.Errorf("WordSpans(%q) = %s, Spans %s", c.line, got, want)
		}
	}
}

// TestWindowedScannerFindsWhatTheWholeScanFinds: a scanner that looks at a
// large file a window at a time (so its pages can be dropped behind it)
// must report the same occurrences, in the same order, as one that sees
// the whole data, also when a literal crosses a window's end and a longer
// literal starts before a shorter one found in the window.
func TestWindowedScannerFindsWhatTheWholeScanFinds(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(13, 3))
	patterns := []MatchOptions{
		{Pattern: "ab"},
		{Pattern: "abcdefg|xy"},
		{Pattern: "abcdefg|cd"}, // "cd" inside a crossing "abcdefg" is not the first hit
		{Pattern: "foo|quxquux|zz"},
		{Pattern: "http", CaseInsensitive: true},
		{Pattern: `\w+\d\s*=\s*\d`}, // one byte, scanned with bytes.Index
		{Pattern: "xa"},             // its rare byte first: bytes.Index too
	}
	alphabet := []byte("abcdefgxyzfoquHTPhtp\n=1")
	for _, mo := range patterns {
		m, err := Compile(mo)
		if err != nil || m.pre == nil {
			t.Fatalf("%s: %v (prefilter %v)", mo.Pattern, err, m.pre != nil)
		}
		for range 200 {
			data := make([]byte, rng.IntN(300))
			for i := range data {
				data[i] = alphabet[rng.IntN(len(alphabet))]
			}
			if len(data) > 20 && rng.IntN(2) == 0 {
				at := rng.IntN(len(data) - 10)
				copy(data[at:], "abcdefgquxquux")
			}
			whole := m.pre.scanner(data)
			want := allFinds(&whole, len(data))
			size := 1 + rng.IntN(16)
			sc := m.pre.scanner(data)
			released := 0
			sc.window(size, func(n int) bool {
				if n < released {
					t.Fatalf("%s: release went back from %d to %d", mo.Pattern, released, n)
				}
				released = n
				return true
			})
			if got := allFinds(&sc, len(data)); !slices.Equal(got, want) {
				t.Fatalf("%s, window %d, data %q:\n got %v\nwant %v", mo.Pattern, size, data, got, want)
			}
			// A search goes on past the hit's line, which may end beyond
			// the window (it panicked there with a one-byte literal).
			skip := rng.IntN(40)
			whole = m.pre.scanner(data)
			sc = m.pre.scanner(data)
			sc.window(size, func(int) bool { return true })
			if got, want := skipFinds(&sc, len(data), skip), skipFinds(&whole, len(data), skip); !slices.Equal(got, want) {
				t.Fatalf("%s, window %d, skipping %d, data %q:\n got %v\nwant %v", mo.Pattern, size, skip, data, got, want)
			}
		}
	}
}

// allFinds walks a scanner one hit after another.
func allFinds(sc *scanner, n int) []int { return skipFinds(sc, n, 0) }

// skipFinds walks a scanner as a search does, going on skip bytes past
// each hit (past its line).
func skipFinds(sc *scanner, n, skip int) []int {
	var out []int
	for pos := 0; pos < n; {
		c := sc.find(pos)
		if c < 0 {
			break
		}
		out = append(out, c)
		pos = c + 1 + skip
	}
	return out
}

// TestScannerFindsEachOccurrenceInTurn: a scanner asked again and again
// for the next occurrence after the last one (as a search that rejects each
// candidate asks), whole or a few bytes of window at a time, finds every
// occurrence of its literals in order, remembering where each case of a
// folded literal's rare byte was found without skipping one. (A scanner's
// searches only move forwards: it remembers each literal's next hit too.)
func TestScannerFindsEachOccurrenceInTurn(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(59, 61))
	alphabet := []byte("aAbBxXhHtTpP= \n")
	for _, set := range [][]lit{{lit2("x", true)}, {lit2("ab", true)}, {lit2("http", true)}, {lit2("x", true), lit2("b", false)}, {lit2("b", true), lit2("pa", true)}} {
		var alts []string
		for _, l := range set {
			alt := regexp.QuoteMeta(l.s)
			if l.fold {
				alt = "(?i:" + alt + ")"
			}
			alts = append(alts, alt)
		}
		re := regexp.MustCompile(strings.Join(alts, "|"))
		p := &prefilter{}
		for _, l := range set {
			p.finders = append(p.finders, newFinder(l))
		}
		for range 300 {
			data := make([]byte, rng.IntN(200))
			for j := range data {
				data[j] = alphabet[rng.IntN(len(alphabet))]
			}
			for _, win := range []int{0, 8} {
				sc := p.scanner(data)
				if win > 0 {
					sc.window(win, func(int) bool { return true })
				}
				for from := 0; from <= len(data); {
					want := -1
					// Occurrences may overlap: the first one starting at or after from.
					for k := from; k < len(data); k++ {
						if loc := re.FindIndex(data[k:]); loc != nil && loc[0] == 0 {
							want = k
							break
						}
					}
					got := sc.find(from)
					if got != want {
						t.Fatalf("%v in %q from %d (window %d): %d, want %d", set, data, from, win, got, want)
					}
					if got < 0 {
						break
					}
					from = got + 1 + rng.IntN(2)
				}
			}
		}
	}
}
