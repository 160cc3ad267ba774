package engines_test

import (
	"context"
	"sync"
	"testing"

	"github.com/rgkit/rgkit/internal/conformance"
	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/search"
	"github.com/rgkit/rgkit/search/native"
	"github.com/rgkit/rgkit/search/sysgrep"
)

// TestSystemGrepConformance runs every conformance case through the
// system-grep engine and the native engine (itself held to rg by
// TestConformance) and requires the same answer, a documented exception
// (conformance.ExceptionFor), or a refusal (ErrUnsupported) before anything
// is emitted.
func TestSystemGrepConformance(t *testing.T) {
	g := sysgrep.New()
	if _, err := g.Available(context.Background()); err != nil {
		testtool.Missing(t, "system grep unavailable: "+err.Error())
	}
	c, _, _ := conformanceSetup(t)
	ref := native.New()
	var mu sync.Mutex
	cases := conformance.SearchCases(conformance.Queries())
	supported, total := 0, 0
	t.Cleanup(func() {
		t.Logf("system grep honours %d of %d cases", supported, total)
		if total == len(cases) && supported*4 < total*3 {
			t.Errorf("grep honours only %d of %d cases (want at least 3/4)", supported, total)
		}
	})
	for _, cs := range cases {
		t.Run(cs.Name, func(t *testing.T) {
			t.Parallel()
			q, err := search.Normalize(c.Query(cs))
			if err != nil {
				t.Fatalf("Normalize: %v", err)
			}
			want := runEngine(t, ref, q, "")
			got := runEngine(t, g, q, "")
			mu.Lock()
			total++
			if got.status == "ok" {
				supported++
			}
			mu.Unlock()
			switch got.status {
			case "unsupported":
				t.Logf("grep refuses: %v", got.err)
				return
			case "ok":
			default:
				t.Fatalf("grep: %s %v", got.status, got.err)
			}
			if d := conformance.Diff(want.render, got.render); len(d) > 0 {
				if ex, ok := conformance.ExceptionFor("grep", cs.Name); ok {
					// Documented, and asserted exactly by TestConformanceExceptions.
					t.Logf("grep differs from native as documented: %s", ex.Why)
					return
				}
				t.Errorf("grep differs from native (- native, + grep):\n%s", head(d, 30))
			}
			if len(got.violate) > 0 {
				t.Errorf("grep breaks the Sink contract:\n%s", head(got.violate, 10))
			}
		})
	}
}
