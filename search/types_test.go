package search

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
)

func TestTypeGlobs(t *testing.T) {
	cases := []struct {
		types []string
		want  []string
	}{
		{nil, nil},
		{[]string{"go"}, []string{"*.go"}},
		{[]string{"ts"}, []string{"*.ts", "*.tsx"}},
		{[]string{"py", "go"}, []string{"*.py", "*.go"}},
		{[]string{"h", "c"}, []string{"*.h", "*.hpp", "*.[chH]", "*.[chH].in", "*.cats"}},
		{[]string{"md", "markdown"}, []string{"*.markdown", "*.md", "*.mdown", "*.mkdn"}},
	}
	for _, c := range cases {
		got, err := TypeGlobs(c.types)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("TypeGlobs(%q) = %q, %v; want %q", c.types, got, err, c.want)
		}
	}
	if _, err := TypeGlobs([]string{"go", "golang"}); err == nil || !strings.Contains(err.Error(), "golang") {
		t.Errorf("unknown type: err = %v, want it named", err)
	}
}

// TestTypeTableMatchesRipgrep compares the table with the installed rg's
// `--type-list`, so that a type selects the same files with every engine.
func TestTypeTableMatchesRipgrep(t *testing.T) {
	rg := testtool.Need(t, "rg")
	ver, _ := exec.Command(rg, "--version").Output()
	if !strings.HasPrefix(string(ver), "ripgrep 13.") {
		t.Skipf("the table is ripgrep 13's; installed: %s", strings.SplitN(string(ver), "\n", 2)[0])
	}
	out, err := exec.Command(rg, "--no-config", "--type-list").Output()
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		name, globs, _ := strings.Cut(line, ": ")
		want := strings.Split(globs, ", ")
		if got := typeTable[name]; !slices.Equal(got, want) {
			t.Errorf("type %s: table %q, rg %q", name, got, want)
		}
		seen++
	}
	if seen != len(typeTable) {
		t.Errorf("rg lists %d types, the table has %d", seen, len(typeTable))
	}
}
