package native

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/internal/rgregex"
)

// TestPikeVMFindsWhatGoFinds runs patterns without rg-only assertions both
// through the VM and through Go's regexp: leftmost-first spans, empty
// matches and invalid UTF-8 must agree, so the VM is only ever different
// where rg's assertions make it so.
func TestPikeVMFindsWhatGoFinds(t *testing.T) {
	t.Parallel()
	patterns := []string{`a`, `a*`, `a+?`, `(?:a|ab)(?:c|bcd)`, `\w+`, `\d*`, `[^ ]+`, `.`, `^\w`, `\w$`,
		`(?-u:\b)\w+(?-u:\b)`, `(?-u:\B).`, `(?i)k`, `x*|y`, `(?:a*)*b`, `(?:ab|a)*?b`, `\s+|\S+`, `\Aa|b\z`, ``}
	pieces := []string{"a", "b", "ab", " ", "é", "\u212a", "k", "\xff", "1", "x", "y", "_", "cd", "\u0301"}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, pat := range patterns {
		tree := lineModeTree(t, pat)
		re := regexp.MustCompile(tree.String())
		prog, err := compileProg(tree)
		if err != nil {
			t.Fatal(err)
		}
		vm := newPikeVM(prog)
		for i := 0; i < 300; i++ {
			var b strings.Builder
			for j := rng.IntN(8); j > 0; j-- {
				b.WriteString(pieces[rng.IntN(len(pieces))])
			}
			in := []byte(b.String())
			var want [][2]int
			for _, loc := range re.FindAllIndex(in, -1) {
				want = append(want, [2]int{loc[0], loc[1]})
			}
			if got := vm.findAll(in, 0, nil); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%q on %q: VM %v, Go %v", pat, in, got, want)
			}
			if _, _, ok := vm.find(in, 0, true); ok != re.Match(in) {
				t.Fatalf("%q on %q: VM match %v, Go %v", pat, in, ok, re.Match(in))
			}
		}
	}
}

// TestAnchoredDFAAgreesWithTheRegexp: the split check's anchored DFAs
// (a suffix read forwards, a reversed prefix read backwards) decide
// exactly what `\A(?:piece)` decides on the same bytes, stopping early at a
// dead state, and leave to the regexp what they cannot decide.
func TestAnchoredDFAAgreesWithTheRegexp(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 17))
	alphabet := []byte("ab1 =_\tZ(é")
	for _, piece := range []string{`\s*\d`, `\w+\d\s*`, `\d\w+`, `(?i)ab+`, `[a-z]{2,}`, `a|b1`, `x*`, `\w+Error\(`, `.`} {
		re, err := syntax.Parse(piece, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		dfa, err := anchoredDFA(re)
		if err != nil {
			t.Fatal(err)
		}
		want := regexp.MustCompile(`\A(?:` + piece + `)`)
		c := dfa.get()
		for range 2000 {
			in := make([]byte, rng.IntN(12))
			for i := range in {
				in[i] = alphabet[rng.IntN(len(alphabet))]
			}
			for _, reverse := range []bool{false, true} {
				read := in
				if reverse {
					read = []byte(string(reverseRunes(in, new([]byte))))
				}
				got, decided := c.matchAnchored(in, reverse)
				if !decided {
					if bytes.IndexFunc(in, func(r rune) bool { return r >= 0x80 }) < 0 {
						t.Fatalf("%s on %q: undecided on ASCII", piece, in)
					}
					continue
				}
				if w := want.Match(read); got != w {
					t.Fatalf("%s on %q (reverse %v): DFA %v, regexp %v", piece, in, reverse, got, w)
				}
			}
		}
	}
}

// lineModeTree parses pat in rg's dialect as Compile does in line mode:
// simplified, with '\n' and U+FFFD taken out of the classes (rewriteForRg).
func lineModeTree(t *testing.T, pat string) *syntax.Regexp {
	t.Helper()
	tree, err := rgregex.Parse(pat, rgregex.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tree = tree.Simplify()
	if err := rewriteForRg(tree, false); err != nil {
		t.Fatal(err)
	}
	return tree
}
