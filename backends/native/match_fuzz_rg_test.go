package native

import (
	"errors"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/internal/rgregex"
)

// TestRandomPatternsAcceptedLikeRg builds random patterns from the
// dialect's special characters and checks that rgkit accepts exactly what
// rg 15 accepts (refusing as unsupported is allowed only where rg accepts),
// and, when both accept, that the lines and spans agree. 40 patterns by
// default, 400 under RGKIT_TEST_FULL=1 (sampleSize).
func TestRandomPatternsAcceptedLikeRg(t *testing.T) {
	rg := searchRg(t)
	if testing.Short() {
		t.Skip("randomised differential test skipped in -short mode")
	}
	dir := writeSearchFiles(t, map[string]string{"u.txt": unicodeCorpus})
	atoms := []string{"a", "k", "é", "ж", `\w`, `\d`, `\s`, `\b`, `\B`, `\pL`, `\p{Greek}`, ".", "^", "$", "(", ")", "(?:",
		"(?i)", "(?-u)", "(?x)", "[", "]", "[^", "&&", "--", "~~", "-", "*", "+", "?", "{2}", "{1,}", "{,2}", "{", "}", "|",
		`\`, `\x41`, `\u{e9}`, `\<`, `\>`, `\b{start}`, `\b{end-half}`, "[:alpha:]", " ", "#", `\.`, `\-`, "e\u0301"}
	rng := rand.New(rand.NewPCG(5, 8))
	var accepted []rgCase
	for range sampleSize(400, 40) {
		var b strings.Builder
		for j := 1 + rng.IntN(6); j > 0; j-- {
			b.WriteString(atoms[rng.IntN(len(atoms))])
		}
		pat := b.String()
		cmd := exec.Command(rg, "--no-config", "-c", "-e", pat, "--", "u.txt")
		cmd.Dir = dir
		err := cmd.Run()
		var ee *exec.ExitError
		rgRefused := errors.As(err, &ee) && ee.ExitCode() == 2
		_, cerr := Compile(MatchOptions{Pattern: pat})
		var re *rgregex.Error
		unsupported := errors.As(cerr, &re) && re.Kind == rgregex.KindUnsupported
		switch {
		case rgRefused && cerr == nil:
			t.Errorf("%q: rg 15 refuses it, rgkit accepts it", pat)
		case !rgRefused && cerr != nil && !unsupported:
			t.Errorf("%q: rg 15 accepts it, rgkit refuses it: %v", pat, cerr)
		case !rgRefused && cerr == nil:
			m, _ := Compile(MatchOptions{Pattern: pat})
			if m.matchBytes(nil) {
				continue // empty matches: rg reports them inside multi-byte characters too
			}
			accepted = append(accepted, rgCase{name: pat, files: map[string]string{"u.txt": unicodeCorpus}, match: MatchOptions{Pattern: pat}})
		}
	}
	checkAgainstRg(t, accepted)
}
