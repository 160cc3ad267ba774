package native

import (
	"bytes"
	"slices"
	"testing"
)

// TestSubmatchesPastTheCapsAreCounted: issue 11, item 1. One line of
// MaxSubmatches+10 matches stores MaxSubmatches spans and counts 10 more;
// under a column cap, spans starting past it are counted, not stored.
func TestSubmatchesPastTheCapsAreCounted(t *testing.T) {
	t.Parallel()
	m, err := Compile(MatchOptions{Pattern: "A"})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name       string
		n, columns int
		spans      int
		more       int
	}{
		{"under the caps", 100, 0, 100, 0},
		{"past MaxSubmatches", MaxSubmatches + 10, 0, MaxSubmatches, 10},
		{"past the column cap", 100, 30, 30, 70},
		{"past both", MaxSubmatches + 10, MaxSubmatches + 5, MaxSubmatches, 10},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []Line
			_, err := m.Search(append(bytes.Repeat([]byte("A"), c.n), '\n'), SearchOptions{MaxColumns: c.columns}, func(l Line) error {
				l.Text = nil
				l.Submatches = append([][2]int(nil), l.Submatches...)
				got = append(got, l)
				return nil
			})
			if err != nil || len(got) != 1 {
				t.Fatalf("err %v, %d lines", err, len(got))
			}
			if l := got[0]; len(l.Submatches) != c.spans || l.More != c.more {
				t.Errorf("%d spans, %d more; want %d and %d", len(l.Submatches), l.More, c.spans, c.more)
			}
		})
	}
	t.Run("the first match is kept for its column, even past the cap", func(t *testing.T) {
		var spans [][2]int
		if _, err := m.Search([]byte("bbbbbAbA\n"), SearchOptions{MaxColumns: 2}, func(l Line) error {
			spans = append(spans, l.Submatches...)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if len(spans) != 1 || spans[0] != [2]int{5, 6} {
			t.Errorf("spans %v, want [[5 6]]", spans)
		}
	})
}

// TestLiteralSpansAreTheRegexpSpans: a pattern that is one case-sensitive
// literal has its submatches found with bytes.Index (Matcher.lit); they
// must be the regexp's leftmost, non-overlapping matches, whatever overlaps.
func TestLiteralSpansAreTheRegexpSpans(t *testing.T) {
	t.Parallel()
	cases := []struct{ pattern, line string }{
		{"aa", "aaaaa"},
		{"aba", "abababa xaba"},
		{"static", "static int static_x = staticstatic;"},
		{"é", "café é\xffé"},
		{"a.b", "a.b axb a.ba.b"},
	}
	for _, c := range cases {
		t.Run(c.pattern, func(t *testing.T) {
			t.Parallel()
			m, err := Compile(MatchOptions{Pattern: c.pattern, Fixed: true})
			if err != nil {
				t.Fatal(err)
			}
			if m.lit == nil {
				t.Fatal("the literal path is not taken")
			}
			data := []byte(c.line + "\n")
			got, _ := m.lineSpansCapped(data, 0, len(c.line), nil, func(int) bool { return true })
			lit := m.lit
			m.lit = nil
			want, _ := m.lineSpansCapped(data, 0, len(c.line), nil, func(int) bool { return true })
			wantN := m.countLineMatches(data, 0, len(c.line))
			m.lit = lit
			if !slices.Equal(got, want) || len(want) == 0 {
				t.Errorf("spans %v, regexp's %v", got, want)
			}
			if n := m.countLineMatches(data, 0, len(c.line)); n != wantN {
				t.Errorf("count %d, regexp's %d", n, wantN)
			}
		})
	}
}
