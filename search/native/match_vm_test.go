package native

import (
	"fmt"
	"math/rand/v2"
	"regexp"
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
		tree, err := rgregex.Parse(pat, rgregex.Options{})
		if err != nil {
			t.Fatal(err)
		}
		tree = tree.Simplify()
		if err := rewriteForRg(tree, false); err != nil {
			t.Fatal(err)
		}
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
