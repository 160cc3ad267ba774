package native

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRunSpansFindWhatGoFinds holds the class-run span finder to Go's
// FindAllIndex on the same pattern: random ASCII lines over an alphabet
// that makes runs, literals, near-literals and their overlaps common.
func TestRunSpansFindWhatGoFinds(t *testing.T) {
	t.Parallel()
	patterns := []string{
		`\w+Error`, `\w+_\d+`, `[a-z]*ab`, `[a-z]+?ab`, `.+ab:`, `[ab]+abab`, `\w+aa_\d+`,
		`\w+ab(?:c|bc)?`, `[a-c]*a\d*`, `[^ ]+a b`, `(?i:\w+)ab`,
	}
	rng := rand.New(rand.NewPCG(7, 25))
	const alphabet = "aabbc_1 :=ErorA\t"
	for _, pat := range patterns {
		t.Run(pat, func(t *testing.T) {
			t.Parallel()
			m, err := Compile(MatchOptions{Pattern: pat})
			if err != nil {
				t.Fatal(err)
			}
			if m.runs == nil {
				t.Fatalf("%s: no run span finder built", pat)
			}
			for range 20000 {
				line := make([]byte, rng.IntN(40))
				for i := range line {
					line[i] = alphabet[rng.IntN(len(alphabet))]
				}
				var want [][2]int
				for _, loc := range m.re.FindAllIndex(line, -1) {
					want = append(want, [2]int{loc[0], loc[1]})
				}
				var got [][2]int
				m.runs.each(line, func(s, e int) bool { got = append(got, [2]int{s, e}); return true })
				if !slices.Equal(got, want) {
					t.Fatalf("%s on %q: spans %v, Go's regexp finds %v", pat, line, got, want)
				}
			}
		})
	}
}

// TestRunSpansOnlyForTheirShape: patterns whose matches need not follow a
// class run right before the literal keep the regexp.
func TestRunSpansOnlyForTheirShape(t *testing.T) {
	t.Parallel()
	for _, o := range []MatchOptions{
		{Pattern: `Error\w+`},             // the literal first
		{Pattern: `\w{2,5}Error`},         // a bounded run
		{Pattern: `(?:ab)+Error`},         // a repeated sequence, not a class
		{Pattern: `\w+Error`, Word: true}, // -w adds assertions
		{Pattern: `\b\w+Error`},           // an assertion
		{Pattern: `\w+error`, CaseInsensitive: true},
		{Pattern: `\w+\nError`, Multiline: true},
		{Pattern: `Error`}, // a literal alone
	} {
		m, err := Compile(o)
		if err != nil {
			t.Fatal(err)
		}
		if m.runs != nil {
			t.Errorf("%+v: a run span finder was built", o)
		}
	}
}
