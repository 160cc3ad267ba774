package rgcli

import (
	"slices"
	"testing"
)

func TestCompleteFlagValues(t *testing.T) {
	types := func() []string { return []string{"go", "rust"} }
	tests := []struct {
		name       string
		before     []string
		toComplete string
		want       []string
	}{
		{"backend values", []string{"--backend"}, "", []string{"auto", "fastest", "ripgrep", "gitgrep", "grep", "native"}},
		{"backend prefix", []string{"--backend"}, "g", []string{"gitgrep", "grep"}},
		{"flag=value", nil, "--sort=m", []string{"--sort=modified"}},
		{"color", []string{"x", "--color"}, "a", []string{"auto", "always", "ansi"}},
		{"short type flag", []string{"-t"}, "", []string{"go", "rust"}},
		{"type-not", []string{"--type-not"}, "r", []string{"rust"}},
		{"format", []string{"--format"}, "", []string{"rg", "rgkit-json"}},
		{"long flags", nil, "--max-c", []string{"--max-columns", "--max-columns-preview", "--max-count"}},
		{"a pattern or path: files", []string{"-n"}, "fo", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Complete(tt.before, tt.toComplete, types)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Complete(%q, %q) = %q, want %q", tt.before, tt.toComplete, got, tt.want)
			}
		})
	}
}
