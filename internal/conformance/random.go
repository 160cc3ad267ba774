package conformance

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"

	"github.com/rgkit/rgkit/search"
)

// RandomCases returns n generated queries over the corpus's text files,
// deterministic for a seed: patterns built from the words, classes, anchors
// and quantifiers the fixed matrix uses (a line break in one query in eight,
// in multiline mode), with random case, word, fixed, context, max-count and
// output-mode options. They find the combinations no
// one thought to write down; a failure prints the case, which then belongs
// in Queries().
func RandomCases(seed uint64, n int) []Case {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	out := make([]Case, 0, n)
	for i := 0; i < n; i++ {
		q := search.Query{Paths: randomPaths}
		if r.IntN(10) == 0 {
			q.Fixed = true
			q.Pattern = pick(r, randomWords)
		} else {
			q.Pattern = randomPattern(r, 0)
		}
		if r.IntN(8) == 0 {
			q.Multiline = true
			if !q.Fixed {
				q.Pattern += `\n` + randomPattern(r, 1)
			}
		}
		q.Case = search.CaseMode(r.IntN(3))
		q.Word = r.IntN(6) == 0
		if r.IntN(3) == 0 {
			q.Before, q.After = r.IntN(3), r.IntN(3)
		}
		if r.IntN(5) == 0 {
			q.MaxCountPerFile = 1 + r.IntN(2)
		}
		switch r.IntN(10) {
		case 0:
			q.Mode = search.ModeFilesWithMatches
		case 1:
			q.Mode = search.ModeCount
		}
		out = append(out, Case{Name: fmt.Sprintf("random/%d/%03d", seed, i), Query: q,
			Why: fmt.Sprintf("pattern %q case=%d word=%v fixed=%v multiline=%v -B%d -A%d -m%d mode=%d",
				q.Pattern, q.Case, q.Word, q.Fixed, q.Multiline, q.Before, q.After, q.MaxCountPerFile, q.Mode)})
	}
	return out
}

// randomPaths are the text files random queries search.
var randomPaths = []string{"dialect.txt", "context.txt", "multi.txt", "crlf.txt", "latin1.txt", "nofinal.txt", "edge"}

var randomWords = []string{
	"foo", "bar", "hello", "World", "café", "CAFÉ", "line", "hit", "a", "o", "é", "ångström", "end", "needle",
	"begin", "middle", "x[y]z", "$5.00", "(a+b)", "-flag", "tab", "Ωmega", "kelvin", "1", "42", " ",
}

var randomAtoms = []string{
	`\d`, `\w`, `\s`, `\W`, `\D`, `\S`, `[a-z]`, `[^ ]`, `.`, `[[:upper:]]`, `[[:punct:]]`, `\p{L}`, `\pN`,
	`[éÉ]`, `[^a-z]`, `\b`, `\B`, `^`, `$`,
}

var randomQuantifiers = []string{"", "", "", "*", "+", "?", "{1,2}", "+?", "*?", "{2}"}

func pick(r *rand.Rand, from []string) string { return from[r.IntN(len(from))] }

// randomPattern builds a small regular expression; depth bounds nesting.
func randomPattern(r *rand.Rand, depth int) string {
	var b strings.Builder
	if depth == 0 && r.IntN(8) == 0 {
		b.WriteString("(?i)")
	}
	for parts := 1 + r.IntN(3); parts > 0; parts-- {
		switch k := r.IntN(10); {
		case k < 4:
			b.WriteString(regexp.QuoteMeta(pick(r, randomWords)))
		case k < 8:
			atom := pick(r, randomAtoms)
			b.WriteString(atom)
			if atom != "^" && atom != "$" && atom != `\b` && atom != `\B` {
				b.WriteString(pick(r, randomQuantifiers))
			}
		case depth < 2:
			b.WriteString("(" + randomPattern(r, depth+1) + "|" + randomPattern(r, depth+1) + ")")
			b.WriteString(pick(r, randomQuantifiers))
		default:
			b.WriteString(regexp.QuoteMeta(pick(r, randomWords)))
		}
	}
	return b.String()
}
