package search

import (
	"slices"
	"testing"
)

// TestDifferencesFollowTheReleaseTable: each release gets exactly the
// behaviours in which it answers differently from rg 15.2.0 (the measured
// table in docs/conformance.md); the reference and later releases none.
func TestDifferencesFollowTheReleaseTable(t *testing.T) {
	t.Parallel()
	all13 := []Behavior{WordHalfBoundaries, RegexEngine, NULPatternRefused, MultilineMaxCount, CountMaxContext,
		ContextSides, FileSelection15, FileSelection14, TypeTable}
	for _, tt := range []struct {
		version string
		want    []Behavior
	}{
		{"13.0.0", all13},
		{"14.0.0", []Behavior{MultilineMaxCount, CountMaxContext, FileSelection15, ParentIgnoreUnderSubpath, TypeTable}},
		{"14.1.1", []Behavior{MultilineMaxCount, CountMaxContext, FileSelection15, ParentIgnoreUnderSubpath, TypeTable}},
		{"15.0.0", []Behavior{FileSelection15, TypeTable}},
		{"15.1.0", []Behavior{FileSelection15, TypeTable}},
		{ReferenceVersion, nil},
		{"15.2.1-dev", nil},
		{"16.0.0", nil},
	} {
		t.Run(tt.version, func(t *testing.T) {
			got, err := Differences(tt.version)
			if err != nil || !slices.Equal(got, tt.want) {
				t.Errorf("Differences(%q) = %v, %v; want %v", tt.version, got, err, tt.want)
			}
		})
	}
	if _, err := Differences("ripgrep"); err == nil {
		t.Error("an unreadable version gave no error")
	}
}

func TestBehaviorNamesAreComplete(t *testing.T) {
	t.Parallel()
	for b := Behavior(0); int(b) < len(behaviorNames); b++ {
		if behaviorNames[b] == "" || behaviors[b] == nil {
			t.Errorf("behaviour %d has no name or no release span", int(b))
		}
	}
	if got := Behavior(99).String(); got != "Behavior(99)" {
		t.Errorf("String of an unknown behaviour = %q", got)
	}
}
