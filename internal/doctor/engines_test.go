package doctor

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/backends"
	"github.com/rgkit/rgkit/internal/testtool"
)

// Without rg the report says native answers every class, why ripgrep does
// not, and that git grep and grep were put after native by the cost model;
// with the reference rg, rgkit grep runs it and the agent tools still run
// native, confined.
func TestChooseEnginesNamesTheEngineAndWhy(t *testing.T) {
	dir := t.TempDir()
	noRg := func(context.Context) (string, error) { return "", errors.New("no rg in this test") }
	got := ChooseEngines(context.Background(), backends.Default(backends.Options{Locate: noRg}), dir)
	if len(got) != 2 || got[0].For != "rgkit grep" || got[0].Engine != "native" || got[1].For != "agent tools" || got[1].Engine != "native" {
		t.Fatalf("choices %+v; want native for rgkit grep and the agent tools", got)
	}
	why := strings.Join(got[0].Why, "\n")
	for _, want := range []string{"ripgrep: unavailable: ", "no rg in this test", "native: answers (literal, literal -i, alternation, regex, no literal, -c, -l)"} {
		if !strings.Contains(why, want) {
			t.Errorf("why says\n%s\nwithout %q", why, want)
		}
	}
	for _, tool := range []string{"gitgrep", "grep"} {
		if !slices.ContainsFunc(got[0].Why, func(s string) bool {
			return strings.HasPrefix(s, tool+": tried after native, measured slower (literal ")
		}) {
			t.Errorf("why says\n%s\nnothing of %s's cost", why, tool)
		}
	}

	rg := testtool.ReferenceRg(t)
	withRg := ChooseEngines(context.Background(), backends.Default(backends.Options{Locate: func(context.Context) (string, error) { return rg, nil }}), dir)
	if withRg[0].Engine != "ripgrep" || withRg[1].Engine != "native" {
		t.Errorf("with rg: %+v; want ripgrep for rgkit grep, native for the agent tools", withRg)
	}
	if !slices.Contains(withRg[1].Why, "ripgrep: answers only what native declines") {
		t.Errorf("agent tools: %q", withRg[1].Why)
	}
}
