package native

import (
	"strings"
	"testing"
)

// SearchOptions.NoStats changes nothing a caller prints: a file with a
// match, NUL or not, is searched as before; only a file the prefilter
// shows to hold no match skips the NUL scan, and then reports no Binary.
func TestNoStatsSkipsOnlyTheNULScanOfFilesWithoutAMatch(t *testing.T) {
	t.Parallel()
	m, err := Compile(MatchOptions{Pattern: "PM_RESUME"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name       string
		data       string
		binaryWith bool // FileResult.Binary with NoStats
	}{
		{"match then NUL", "a PM_RESUME\n" + string(make([]byte, 70000)) + "\x00", true},
		{"NUL then match", "\x00\nPM_RESUME\n", true},
		{"NUL, no match", "PM_RESUM\n\x00\n", false},
		{"text, match", "x\nPM_RESUME y\n", false},
		{"text, no match", "x\ny\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			for _, o := range []SearchOptions{{}, {CountOnly: true}, {FilesOnly: true}, {Before: 1, After: 1}} {
				want := render(t, m, []byte(c.data), o)
				o.NoStats = true
				if got := render(t, m, []byte(c.data), o); got != want {
					t.Errorf("%+v: %s, want %s", o, got, want)
				}
				res, _ := m.Search([]byte(c.data), o, func(Line) error { return nil })
				if res.Binary != c.binaryWith {
					t.Errorf("%+v: Binary %v, want %v", o, res.Binary, c.binaryWith)
				}
			}
		})
	}
}

// TestNoSpansChangesOnlyTheSpans: without spans the same lines are
// reported, with the same numbers, kinds and counts, and no match line
// carries submatches.
func TestNoSpansChangesOnlyTheSpans(t *testing.T) {
	t.Parallel()
	data := []byte("alpha beta\nERR_X and WARN_Y\n\x20\nbeta alpha beta\nnothing\nWARN_ only\nerr_low\n")
	for _, mo := range []MatchOptions{
		{Pattern: "beta"},
		{Pattern: `(ERR|WARN)_[A-Z]+`},
		{Pattern: `(?i)err_\w+`},
		{Pattern: `alpha`, Word: true},
		{Pattern: `^$`},
		{Pattern: `a\nb`, Multiline: true},
	} {
		m, err := Compile(mo)
		if err != nil {
			t.Fatal(err)
		}
		for _, so := range []SearchOptions{{}, {Before: 1, After: 1}, {MaxCount: 1, After: 2}, {CountOnly: true}} {
			var with, without []Line
			collect := func(o SearchOptions, into *[]Line) FileResult {
				res, err := m.Search(data, o, func(l Line) error {
					l.Text = append([]byte(nil), l.Text...)
					*into = append(*into, l)
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			r1 := collect(so, &with)
			so.NoSpans = true
			r2 := collect(so, &without)
			if r1 != r2 || len(with) != len(without) {
				t.Fatalf("%+v %+v: %+v/%d lines with spans, %+v/%d without", mo, so, r1, len(with), r2, len(without))
			}
			for i := range with {
				a, b := with[i], without[i]
				if a.Number != b.Number || string(a.Text) != string(b.Text) || a.Context != b.Context {
					t.Fatalf("%+v %+v line %d: %+v, without spans %+v", mo, so, i, a, b)
				}
				if b.Submatches != nil && !m.multi {
					t.Fatalf("%+v: line %d kept its submatches %v", mo, i, b.Submatches)
				}
			}
		}
	}
}

// TestNoStatsWithTheFirstCandidatePastTheNUL: a binary file is searched up
// to its NUL's line, while the prefilter's first look (NoStats) reads the
// whole file. When the first occurrence of a literal lies past the NUL,
// the search finds nothing; it used to start its scan there, past the end
// of the data it kept, and panicked.
func TestNoStatsWithTheFirstCandidatePastTheNUL(t *testing.T) {
	t.Parallel()
	data := []byte("0\x82\n$\x02\x00abc\n" + strings.Repeat("x", 900) + "\nfoo bar \xe9 baz\n")
	for _, mo := range []MatchOptions{
		{Pattern: "fo+"}, {Pattern: `f\w\wb`}, {Pattern: `[fb]a?o`}, {Pattern: "foo"}, {Pattern: "(?i)foo"},
		{Pattern: `foo|baz`}, {Pattern: `(?-u:\xE9)`}, {Pattern: `(?-u:.)(?-u:\xE9)`}, {Pattern: `\xE9`, NoUnicode: true},
	} {
		m, err := Compile(mo)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range []SearchOptions{{NoStats: true}, {NoStats: true, CountOnly: true}, {NoStats: true, FilesOnly: true}} {
			res, err := m.Search(data, o, func(l Line) error {
				t.Errorf("%q %+v: reported line %d", mo.Pattern, o, l.Number)
				return nil
			})
			if err != nil || res.MatchedLines != 0 || !res.Binary {
				t.Errorf("%q %+v: %+v, %v; want no match in a binary file", mo.Pattern, o, res, err)
			}
		}
	}
}
