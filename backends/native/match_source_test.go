package native

import (
	"math/rand/v2"
	"regexp"
	"testing"

	"github.com/rgkit/rgkit/internal/rgregex"
)

// TestGoSourceMeansWhatStringMeans: the source goSource writes for a
// parsed rg pattern compiles to a regexp that finds exactly what the one
// compiled from (*syntax.Regexp).String finds, submatches included, on
// random text over an alphabet that crosses every class below.
func TestGoSourceMeansWhatStringMeans(t *testing.T) {
	t.Parallel()
	patterns := []string{
		`\w+\d\s*=\s*\d`, `\w{5}\s+\w{5}`, `(?i)pm_résumé`, `(ERR|WARN)_[A-Z]+`, `a{2,}?b{0,3}c{2}`,
		`[^a-z\d]+`, `(?P<word>\pL+)\s(\d+)?`, `x*?|y+?|`, `^\s*$`, `(?m)^a$`, `\bfoo\b|\Bbar`, `(?s:.)a.b`,
		`[\x00-\x1f\x7f]`, `[\[\]\-^\\]+`, `(?i)[k-s]+ſ`, `\p{Greek}+|\P{L}`, `(?:)a(?:)`, `\.\*\+\?\(\)\{\}\|\$`,
	}
	alphabet := []rune("aAbBxyzKkſsS_019 =\t\n.*[]-^\\(){}|$éÉπΩ\x00\x1f\u212a")
	rng := rand.New(rand.NewPCG(9, 9))
	for _, p := range patterns {
		tree, err := rgregex.Parse(p, rgregex.Options{})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		tree = tree.Simplify()
		src, ok := goSource(tree)
		if !ok {
			t.Fatalf("%s: goSource refused %v", p, tree.Op)
		}
		mine, err := regexp.Compile(src)
		if err != nil {
			t.Fatalf("%s: goSource wrote %q, which does not compile: %v", p, src, err)
		}
		want := regexp.MustCompile(tree.String())
		if mine.NumSubexp() != want.NumSubexp() {
			t.Fatalf("%s: %d groups, want %d", p, mine.NumSubexp(), want.NumSubexp())
		}
		for range 3000 {
			in := make([]rune, rng.IntN(16))
			for i := range in {
				in[i] = alphabet[rng.IntN(len(alphabet))]
			}
			s := string(in)
			if g, w := mine.FindAllStringSubmatchIndex(s, -1), want.FindAllStringSubmatchIndex(s, -1); !equalIndexes(g, w) {
				t.Fatalf("%s on %q: goSource %v, String %v (source %q)", p, s, g, w, src)
			}
		}
	}
}

func equalIndexes(a, b [][]int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return false
		}
		for j := range a[i] {
			if a[i][j] != b[i][j] {
				return false
			}
		}
	}
	return true
}
