package engines_test

import (
	"context"
	"testing"

	"github.com/rgkit/rgkit/internal/conformance"
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
		t.Skipf("system grep unavailable: %v", err)
	}
	c, _, _ := conformanceSetup(t)
	ref := native.New()
	supported, total := 0, 0
	for _, cs := range conformance.SearchCases(conformance.Queries()) {
		q, err := search.Normalize(c.Query(cs))
		if err != nil {
			t.Fatalf("%s: Normalize: %v", cs.Name, err)
		}
		total++
		want := runEngine(t, ref, q, "")
		got := runEngine(t, g, q, "")
		switch got.status {
		case "unsupported":
			t.Logf("%s: grep refuses: %v", cs.Name, got.err)
			continue
		case "ok":
			supported++
		default:
			t.Errorf("%s: grep: %s %v", cs.Name, got.status, got.err)
			continue
		}
		if d := conformance.Diff(want.render, got.render); len(d) > 0 {
			if ex, ok := conformance.ExceptionFor("grep", cs.Name); ok {
				// Documented, and asserted exactly by TestConformanceExceptions.
				t.Logf("%s: grep differs from native as documented: %s", cs.Name, ex.Why)
				continue
			}
			t.Errorf("%s: grep differs from native (- native, + grep):\n%s", cs.Name, head(d, 30))
		}
		if len(got.violate) > 0 {
			t.Errorf("%s: grep breaks the Sink contract:\n%s", cs.Name, head(got.violate, 10))
		}
	}
	t.Logf("system grep honours %d of %d cases", supported, total)
	if supported*4 < total*3 {
		t.Errorf("grep honours only %d of %d cases (want at least 3/4)", supported, total)
	}
}
