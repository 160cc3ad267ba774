package native

import "testing"

// SearchOptions.NoStats changes nothing a caller prints: a file with a
// match, NUL or not, is searched as before; only a file the prefilter
// shows to hold no match skips the NUL scan, and then reports no Binary.
func TestNoStatsSkipsOnlyTheNULScanOfFilesWithoutAMatch(t *testing.T) {
	t.Parallel()
	m, err := Compile(MatchOptions{Pattern: "PM_RESUME"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name       string
		data       string
		binaryWith bool // FileResult.Binary with NoStats
	}{
		{"match then NUL", "a PM_RESUME\n" + string(make([]byte, 70000)) + "\x00", true},
		{"NUL then match", "\x00\nPM_RESUME\n", true},
		{"NUL, no match", "PM_RESUM\n\x00\n", false},
		{"text, match", "x\nPM_RESUME y\n", false},
		{"text, no match", "x\ny\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			for _, o := range []SearchOptions{{}, {CountOnly: true}, {FilesOnly: true}, {Before: 1, After: 1}} {
				want := render(t, m, []byte(c.data), o)
				o.NoStats = true
				if got := render(t, m, []byte(c.data), o); got != want {
					t.Errorf("%+v: %s, want %s", o, got, want)
				}
				res, _ := m.Search([]byte(c.data), o, func(Line) error { return nil })
				if res.Binary != c.binaryWith {
					t.Errorf("%+v: Binary %v, want %v", o, res.Binary, c.binaryWith)
				}
			}
		})
	}
}
