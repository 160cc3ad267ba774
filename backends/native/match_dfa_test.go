package native

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// randomDFAPattern builds a small pattern in rg's dialect from pieces the
// line DFA treats differently: classes that split the ASCII bytes, Unicode
// classes, case folding, repetitions, alternations, line anchors and word
// assertions (which keep non-ASCII lines away from the DFA).
func randomDFAPattern(rng *rand.Rand) string {
	atoms := []string{"a", "b", "=", "_", " ", "é", "k", `\w`, `\d`, `\s`, `[a-c]`, `[^a ]`, `.`, `\W`,
		`\p{Greek}`, `(?i)k`, `(?i)é`, `[\x{80}-\x{10FFFF}]`, `\S`, `[[:upper:]]`}
	quants := []string{"", "", "*", "+", "?", "{2}", "{1,3}"}
	edges := []string{"", "", "", "^", `\b`, `\B`}
	seq := func() string {
		var b strings.Builder
		b.WriteString(edges[rng.IntN(len(edges))])
		for n := 1 + rng.IntN(4); n > 0; n-- {
			b.WriteString(atoms[rng.IntN(len(atoms))])
			b.WriteString(quants[rng.IntN(len(quants))])
		}
		if rng.IntN(5) == 0 {
			b.WriteString("$")
		}
		return b.String()
	}
	p := seq()
	if rng.IntN(4) == 0 {
		p = "(?:" + p + ")|" + seq()
	}
	return p
}

// randomText joins pieces chosen for the DFA's edges: line ends (with and
// without '\r'), multi-byte and invalid UTF-8, the Kelvin sign, U+FFFD.
func randomText(rng *rand.Rand, n int) []byte {
	pieces := []string{"a", "b", "=", "_", " ", "\t", "\n", "\n", "\r\n", "\r", "é", "\xff", "\xe2\x82", "ключ",
		"Ω", "\u212a", "k", "K", "1", "9", "ab1 = 2", "\ufffd", "aé"}
	var b bytes.Buffer
	for j := rng.IntN(n); j > 0; j-- {
		b.WriteString(pieces[rng.IntN(len(pieces))])
	}
	return b.Bytes()
}

// TestLineDFAFindsTheLinesTheRegexpFinds: on random patterns and texts, a
// search through the line DFA (scanning the whole data, or line by line
// behind the prefilter) reports exactly the lines and counts of a search
// with the regexp alone, also when the DFA's cache holds only a few states
// and keeps filling up and resetting.
func TestLineDFAFindsTheLinesTheRegexpFinds(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(23, 29))
	modes := []MatchOptions{{}, {CaseInsensitive: true}, {Word: true}, {NoUnicode: true}, {CRLF: true}}
	checkLineDFA(t, rng, modes, randomDFAPattern, 400)
}

// TestByteLineDFAFindsTheLinesTheVMFinds: the same for patterns that match
// single bytes (--no-unicode's '.', negated classes, \x80-\xFF), whose DFA
// steps on bytes where the one above steps on characters, with word
// assertions (which see the characters around a byte) among them.
func TestByteLineDFAFindsTheLinesTheVMFinds(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(31, 37))
	modes := []MatchOptions{{NoUnicode: true}, {NoUnicode: true, CaseInsensitive: true}, {NoUnicode: true, CRLF: true},
		{NoUnicode: true, Word: true}}
	atoms := []string{"a", "b", "=", " ", "k", ".", `[^a ]`, `\xE9`, `\xFF`, `[\x80-\xBF]`, `[^\x00-\x7F]`,
		`\xC3\xA9`, `\w`, `\s`, `[a-c]`, `(?u:é)`, `\x82`, `\b`, `(?u:\b)`, `\B`}
	quants := []string{"", "", "*", "+", "?", "{2}"}
	pattern := func(rng *rand.Rand) string {
		var b strings.Builder
		if rng.IntN(5) == 0 {
			b.WriteString("^")
		}
		for n := 1 + rng.IntN(4); n > 0; n-- {
			b.WriteString(atoms[rng.IntN(len(atoms))])
			b.WriteString(quants[rng.IntN(len(quants))])
		}
		if rng.IntN(5) == 0 {
			b.WriteString("$")
		}
		if rng.IntN(4) == 0 {
			return "(?:" + b.String() + ")|" + atoms[rng.IntN(len(atoms))]
		}
		return b.String()
	}
	if n := checkLineDFA(t, rng, modes, pattern, 300); n < 200 {
		t.Fatalf("only %d of the patterns ran on a byte DFA", n)
	}
}

// checkLineDFA compiles tries patterns from gen and searches random texts
// with each: through the line DFA (scanning the whole data, or line by
// line behind the prefilter), through a DFA whose cache holds two states
// and keeps filling up and resetting, and with the regexp or VM alone. All
// three must report the same lines and counts. It returns how many of the
// patterns ran on a DFA that steps on bytes.
func checkLineDFA(t *testing.T, rng *rand.Rand, modes []MatchOptions, gen func(*rand.Rand) string, tries int) (byteDFAs int) {
	t.Helper()
	for tried := 0; tried < tries; {
		opts := modes[rng.IntN(len(modes))]
		opts.Pattern = gen(rng)
		fast, err := Compile(opts)
		if err != nil {
			continue
		}
		tried++
		if fast.dfa != nil && fast.dfa.bytes {
			byteDFAs++
		}
		tiny, _ := Compile(opts)
		if tiny.dfa != nil {
			tiny.dfa.maxStates = 2
		}
		plain, _ := Compile(opts)
		plain.pre, plain.split, plain.exact, plain.dfa = nil, nil, false, nil
		for k := range 12 {
			data := randomText(rng, 40)
			if k >= 10 {
				// Large enough to be read as two halves (scanHalvesMin).
				data = randomText(rng, 3000)
			}
			for _, so := range []SearchOptions{{}, {CountOnly: true}, {Before: 1, After: 1}, {NoStats: true, Before: 1}} {
				want := render(t, plain, data, so)
				if got := render(t, fast, data, so); got != want {
					t.Fatalf("%+v %+v on %q:\nDFA    %s\nregexp %s", opts, so, data, got, want)
				}
				if got := render(t, tiny, data, so); got != want {
					t.Fatalf("%+v %+v on %q, 2 states:\nDFA    %s\nregexp %s", opts, so, data, got, want)
				}
			}
		}
	}
	return byteDFAs
}

// TestLineDFAScansAcrossWindows: the whole-data scan reads a large file a
// window at a time; lines across a window's edge, multi-byte runes at it
// and a last line without '\n' are found as a line-by-line search finds
// them.
func TestLineDFAScansAcrossWindows(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	for b.Len() < 3*releaseWindow {
		b.WriteString("plain text with no digits here ")
		if b.Len()%7 == 0 {
			b.WriteString("ключ")
		}
		if b.Len()%11 == 0 {
			b.WriteString("\n")
		}
	}
	for i, at := range []int{releaseWindow - 3, releaseWindow + 40, 2*releaseWindow + 1} {
		copy(b.Bytes()[at:], fmt.Sprintf("x%d = 42 ", i))
	}
	b.WriteString("\nlast ключ1 = 2")
	data := b.Bytes()
	for _, pat := range []string{`\w+\d\s*=\s*\d`, `[a-z]\d\s`, `ключ\d`, `\d$`, `^\w+\s+text\s`} {
		t.Run(pat, func(t *testing.T) {
			fast, err := Compile(MatchOptions{Pattern: pat})
			if err != nil {
				t.Fatal(err)
			}
			plain, _ := Compile(MatchOptions{Pattern: pat})
			plain.pre, plain.split, plain.exact, plain.dfa = nil, nil, false, nil
			so := SearchOptions{}
			got, want := render(t, fast, data, so), render(t, plain, data, so)
			if got != want {
				t.Fatalf("DFA and regexp disagree:\nDFA    %.300s\nregexp %.300s", got, want)
			}
			if !strings.Contains(want, ";") {
				t.Fatalf("no line matches %s: the test searches for nothing", pat)
			}
		})
	}
}

// TestAnchoredDFAReadsAroundAnOccurrence: the split check's DFAs read the
// data itself around an occurrence of the literal, forwards after it and
// backwards before it, without being told where its line ends. They must
// decide what `\A(?:piece)` decides on the rest of the line (read
// backwards: its runes reversed), across '\n', multi-byte and invalid
// UTF-8, and leave undecided only what lies past their read limit.
func TestAnchoredDFAReadsAroundAnOccurrence(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(31, 37))
	for _, piece := range []string{`\s*\d`, `\w+\d\s*`, `(?i)ab+`, `[a-z]{2,}`, `x*`, `.`, `[^a]+`, `é+1`, `\p{Cyrillic}+\d`, `.+=`} {
		// As buildSplit gets its pieces: in rg's dialect, with '\n' taken
		// out of every class.
		re := lineModeTree(t, piece)
		dfa, err := anchoredDFA(re)
		if err != nil {
			t.Fatal(err)
		}
		want := regexp.MustCompile(`\A(?:` + re.String() + `)`)
		c := dfa.get()
		for range 1500 {
			data := randomText(rng, 12)
			at := rng.IntN(len(data) + 1)
			if at < len(data) && !utf8.RuneStart(data[at]) {
				continue // an occurrence of a literal starts a rune
			}
			ls := bytes.LastIndexByte(data[:at], '\n') + 1
			le := at + bytes.IndexByte(data[at:], '\n')
			if le < at {
				le = len(data)
			}
			for _, limit := range []int{3, 1000} {
				for _, reverse := range []bool{false, true} {
					read := data[at:le]
					if reverse {
						read = reverseRunes(data[ls:at], new([]byte))
					}
					got, decided := c.matchAnchoredAt(data, at, reverse, limit)
					if !decided {
						if limit == 1000 {
							t.Fatalf("%s on %q from %d (reverse %v): undecided", piece, data, at, reverse)
						}
						continue
					}
					if w := want.Match(read); got != w {
						t.Fatalf("%s on %q from %d (reverse %v, limit %d): DFA %v, regexp %v", piece, data, at, reverse, limit, got, w)
					}
				}
			}
		}
	}
}

// TestScanHalvesStopsWhereScanStops: reading the data as two halves at
// once stops where reading it in one stream stops (the first match, or
// byte the DFA cannot read, in the first half before any in the second),
// and ends in the same state, on random patterns and texts split at every
// line start. A search goes on after each stop from the next line, the
// second half from where it was: the stops must be the same all along.
func TestScanHalvesStopsWhereScanStops(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(41, 43))
	for tried := 0; tried < 300; {
		m, err := Compile(MatchOptions{Pattern: randomDFAPattern(rng), CaseInsensitive: rng.IntN(4) == 0})
		if err != nil || m.dfa == nil {
			continue
		}
		tried++
		c := m.dfa.get()
		for range 5 {
			data := randomText(rng, 30)
			for mid := 1; mid < len(data); mid++ {
				if data[mid-1] != '\n' {
					continue
				}
				ahead := &scanAhead{pos: mid, restart: mid}
				for pos := 0; pos < len(data); {
					at, st, res := c.scan(data, pos, len(data), 0)
					var hat, hres int
					var hst int32
					if pos < mid {
						hat, hst, hres = c.scanHalves(data, pos, mid, len(data), ahead)
					} else {
						hat, hst, hres = ahead.next(c, data, pos, len(data))
					}
					if at != hat || res != hres || (res == scanNone && st != hst) {
						t.Fatalf("%s on %q split at %d, from %d: halves stop at %d (outcome %d, state %d), one stream at %d (outcome %d, state %d)",
							m.opts.Pattern, data, mid, pos, hat, hres, hst, at, res, st)
					}
					if res == scanNone {
						break
					}
					pos = lineEnd(data, at) + 1
				}
			}
		}
	}
}

// TestLineDFAResetsOnlyAfterServing: a full state cache is reset only once
// it has read resetWorth bytes per state since its last reset, so a text
// that needs more states than the cache holds on every line does not
// rebuild the cache line after line; the lines it cannot decide are left
// to the regexp, and what it decides is right.
func TestLineDFAResetsOnlyAfterServing(t *testing.T) {
	t.Parallel()
	m, err := Compile(MatchOptions{Pattern: `[a-z]*[aeiou][a-z]{6}x`})
	if err != nil {
		t.Fatal(err)
	}
	m.dfa.maxStates = 8
	c := m.dfa.get()
	rng := rand.New(rand.NewPCG(47, 53))
	read, undecided := 0, 0
	for range 2000 {
		line := make([]byte, 8+rng.IntN(40))
		for i := range line {
			line[i] = "aeioubcdx"[rng.IntN(9)]
		}
		got, ok := c.match(line)
		read += len(line)
		if !ok {
			undecided++
			continue
		}
		if want := m.re.Match(line); got != want {
			t.Fatalf("%q: DFA %v, regexp %v", line, got, want)
		}
	}
	if most := read/(resetWorth*m.dfa.maxStates) + 1; c.gen > most {
		t.Fatalf("%d resets over %d bytes: more than one per %d bytes read", c.gen, read, resetWorth*m.dfa.maxStates)
	}
	if c.gen == 0 || undecided == 0 {
		t.Fatalf("resets %d, undecided lines %d: the cache never filled, the test shows nothing", c.gen, undecided)
	}
}
