package main

import (
	"strings"
	"testing"
)

// Shell completion offers the values of the flags that take a fixed set,
// including those of `rgkit grep`, whose flags rgcli (not cobra) parses.
// Before, every one of these completed file names.
func TestCompletionOffersFlagValues(t *testing.T) {
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"grep", "--backend", ""}, []string{"auto", "fastest", "native"}},
		{[]string{"grep", "--sort", ""}, []string{"path", "modified"}},
		{[]string{"grep", "--color", ""}, []string{"never", "always"}},
		{[]string{"grep", "-t", "ru"}, []string{"rust", "ruby"}},
		{[]string{"grep", "--format", ""}, []string{"rg", "rgkit-json"}},
		{[]string{"mcp", "--names", ""}, []string{"default", "snake"}},
		{[]string{"bench", "--format", ""}, []string{"table", "markdown", "json", "csv"}},
		{[]string{"glob", "--sort", ""}, []string{"modified", "path"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			t.Parallel()
			out, _, code := runCLI(t, append([]string{"__complete"}, tt.args...)...)
			if code != 0 {
				t.Fatalf("exit %d", code)
			}
			got := strings.Split(out, "\n")
			for _, w := range tt.want {
				found := false
				for _, g := range got {
					if g == w {
						found = true
					}
				}
				if !found {
					t.Errorf("completions %q lack %q", got, w)
				}
			}
		})
	}
}
