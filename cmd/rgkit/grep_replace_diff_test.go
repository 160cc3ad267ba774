package main

import (
	"os"
	"testing"
)

// TestReplaceGroupsAgainstRg15: -r's $1, ${name} and the rest take the
// groups rg's pattern takes, read in rg's dialect: \w, \d and \s are
// Unicode classes there (read by Go's parser, a group around
// "Example_世界" did not match and the template was printed as it was),
// -i folds as rg folds, groups number on across -e patterns.
func TestReplaceGroupsAgainstRg15(t *testing.T) {
	rg := rg15(t)
	bin := rgkitBin(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.txt": "func Example_世界() {}\nfunc abc() {}\nfunc é() {}\n" +
		"x = ٣٤ + 12\nSTRASSE straße Kelvin K\nprice $5 and $$\ntab\there\n"})
	env := os.Environ()
	for _, args := range [][]string{
		{"-o", "-r", "$1", `func (\w+)`},
		{"-r", "[$1]", `func (\w+)`},
		{"-r", "${name}!", `func (?P<name>\w+)`},
		{"-r", "<$name>", `(?<name>\d+)`},
		{"-o", "-r", "$2-$1", `(\w)(\w+)\(`},
		{"-r", "$1x|${1}x|$$", `(\w+)\(`},
		{"-o", "-r", "$1/$2", "-e", `(abc)`, "-e", `(é)`},
		{"-i", "-o", "-r", "<$1>", `(strasse|kelvin)`},
		{"-S", "-o", "-r", "<$1>", `(strasse|kelvin)`}, {"-S", "-o", "-r", "<$1>", `(Strasse|kelvin)`},
		{"-o", "-r", "[$1]", `(\s+)here`},
		{"-w", "-o", "-r", "$1", `(\w+)`},
		{"-F", "-r", "€", "$5"},
		// A line replaced whole by "" prints empty (it printed as it was).
		{"-r", "", `^tab\there$`}, {"-o", "-r", "", `\d+`}, {"--json", "-r", "", `^tab\there$`},
		{"-o", "-r", "$1,$2", `(a)|(b)`},
		{"-x", "-r", "$1", `func (\w+)\(\) \{\}`},
		{"-o", "-U", "-r", "$1", `(\w+)\(\) \{\}\nfunc`},
	} {
		c := diffCase{args: args}
		t.Run(c.name(), func(t *testing.T) {
			t.Parallel()
			nativeLikeRg15(t, rg, bin, dir, env, c)
		})
	}
}
