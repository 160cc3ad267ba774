package search

import (
	"errors"
	"slices"
	"testing"
)

func TestTypeDefsChangeAsRgTypeAddAndClear(t *testing.T) {
	t.Parallel()
	d := DefaultTypeDefs()
	for _, spec := range []string{"web:*.{html,css}", "web:*.js", "web:*.js", "mine:include:web,go"} {
		if err := d.Add(spec); err != nil {
			t.Fatalf("Add(%q): %v", spec, err)
		}
	}
	if g, _ := d.Globs("web"); !slices.Equal(g, []string{"*.js", "*.js", "*.{html,css}"}) {
		t.Errorf("web: %q (sorted, a repeated glob kept, braces never split)", g)
	}
	if g, _ := d.Globs("mine"); !slices.Equal(g, []string{"*.go", "*.js", "*.js", "*.{html,css}"}) {
		t.Errorf("mine: %q (include: copies the globs the types have now)", g)
	}
	d.Clear("go")
	if _, ok := d.Globs("go"); ok {
		t.Error("a cleared type no longer exists")
	}
	if _, err := d.Selection("go", false); err == nil || err.Error() != "unrecognized file type: go" {
		t.Errorf("selecting a cleared type: %v", err)
	}
	if s, err := d.Selection("web", true); err != nil || !s.Negate || len(s.Globs) != 3 {
		t.Errorf("Selection(web, negate) = %+v, %v", s, err)
	}
	if fresh, _ := DefaultTypeDefs().Globs("go"); !slices.Equal(fresh, []string{"*.go"}) {
		t.Errorf("the shared table changed: go is %q", fresh)
	}
}

func TestTypeDefsRefuseWhatRgRefuses(t *testing.T) {
	t.Parallel()
	// Each is refused by rg 15.2.0 with "invalid definition (format is
	// type:glob, e.g., html:*.html)".
	for _, spec := range []string{"foo", "foo:", ":x", "all:*.x", "a-b:*.x", "a:b:c", "foo:include:nope", "foo:include:", "a:b:c:d"} {
		if err := DefaultTypeDefs().Add(spec); !errors.Is(err, ErrInvalidTypeDef) {
			t.Errorf("Add(%q) = %v, want ErrInvalidTypeDef", spec, err)
		}
	}
}
