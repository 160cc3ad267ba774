package native_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/search"
)

// TestNativeSurvivesALargeFileTruncatedMidSearch: a large file is mapped
// rather than read, and another process cutting it short while it is
// searched makes its missing pages fault. That file must count as
// unreadable and the search go on, not crash the program.
func TestNativeSurvivesALargeFileTruncatedMidSearch(t *testing.T) {
	big := strings.Repeat("foo\n", 2<<20) // 8 MiB, well past the mapping threshold
	root := nativeTree(t, map[string]string{"big.txt": big, "small.txt": "foo\n"})
	sink := &truncatingSink{path: filepath.Join(root, "big.txt")}
	st, err := nativeSearch(t, search.Query{Pattern: "foo", Root: root}, sink)
	if err != nil {
		t.Fatal(err)
	}
	if !sink.truncated {
		t.Fatal("the large file's lines never reached the sink")
	}
	if st.Unreadable != 1 {
		t.Errorf("unreadable = %d, want 1 (the truncated file)", st.Unreadable)
	}
	if !sink.ended["small.txt"] {
		t.Errorf("small.txt was not reported: the search stopped at the fault")
	}
}

// truncatingSink cuts the file at path to nothing at the first of its lines.
type truncatingSink struct {
	path      string
	truncated bool
	ended     map[string]bool
}

func (s *truncatingSink) Begin(string) error { return nil }

func (s *truncatingSink) Line(l search.Line) error {
	if l.Path == "big.txt" && !s.truncated {
		s.truncated = true
		return os.Truncate(s.path, 0)
	}
	return nil
}

func (s *truncatingSink) End(f search.FileSummary) error {
	if s.ended == nil {
		s.ended = map[string]bool{}
	}
	s.ended[f.Path] = true
	return nil
}

// TestProbedLargeFilesAnswerAsMappedOnes: without statistics to report,
// the engine reads a large file in chunks first and skips it when none
// holds a literal a match needs, instead of mapping it. The answer is the
// same as with statistics (every large file mapped and searched): a match
// at the start, the middle and the very end, one across the first chunk's
// end, a case-folded one, a UTF-16 file whose raw bytes hold no literal,
// files with none, and files with a NUL byte before, between and after
// matches (with a UTF-8 byte order mark too), by default and with
// --binary and -a, which search on past a NUL.
func TestProbedLargeFilesAnswerAsMappedOnes(t *testing.T) {
	t.Parallel()
	filler := strings.Repeat("PM_RESUM and pm_resu, nothing else\n", 9000) // ~315 KiB
	utf16 := []byte{0xFF, 0xFE}
	for _, r := range "line one\nPM_RESUME in UTF-16\n" + filler[:300000] {
		utf16 = append(utf16, byte(r), byte(r>>8))
	}
	root := nativeTree(t, map[string]string{
		"start.c":   "PM_RESUME first\n" + filler,
		"middle.c":  filler[:150000] + "x PM_RESUME y\n" + filler[150000:],
		"end.c":     filler + "PM_RESUME",
		"border.c":  filler[:65536-6] + "\nPM_RESUME\n" + filler, // across 64 KiB
		"border2.c": filler[:73728-6] + "\nPM_RESUME\n" + filler, // and 72 KiB
		"folded.c":  filler + "pm_Resume\n",
		"utf16.txt": string(utf16),
		"none.c":    filler,
		"dir/none":  filler + filler,
		"small.c":   "PM_RESUME\n",
		// rg stops at a NUL (at the buffer fill before it): the probe
		// finds the NUL the search would have looked for first.
		"nul-late.bin":  "PM_RESUME 1\n" + filler[:200000] + "PM_RESUME 2\n\x00" + filler + "PM_RESUME 3\n",
		"nul-early.bin": "x\x00\n" + filler + "PM_RESUME\n",
		"nul-bom.bin":   "\xEF\xBB\xBFPM_RESUME 1\n" + filler[:140000] + "PM_RESUME 2\n" + filler[:70000] + "\x00" + filler + "PM_RESUME 3\n",
		"nul-only.bin":  filler + "\x00" + filler + "PM_RESUME after\n",
	})
	for _, q := range []search.Query{
		{Pattern: "PM_RESUME", Root: root},
		{Pattern: "PM_RESUME", Root: root, Mode: search.ModeCount},
		{Pattern: "PM_RESUME", Root: root, Mode: search.ModeFilesWithMatches},
		{Pattern: "pm_resume", Root: root, Case: search.CaseInsensitive},
		{Pattern: `\bPM_RESUME\b`, Root: root},
		// --binary and -a search past a NUL: the probe must not stop there
		// (it did, and a large binary file was missed whole).
		{Pattern: "PM_RESUME", Root: root, Binary: search.BinarySearch},
		{Pattern: "PM_RESUME", Root: root, Binary: search.BinaryText, Mode: search.ModeCount},
		{Pattern: "PM_RESUME", Root: root, Binary: search.BinaryText, Mode: search.ModeFilesWithMatches},
	} {
		want := collectNative(t, q, false)
		if got := collectNative(t, q, true); got != want {
			t.Errorf("%q mode %d: without stats\n%s\nwith stats\n%s", q.Pattern, q.Mode, got, want)
		}
		if !strings.Contains(want, "border.c") || !strings.Contains(want, "utf16.txt") {
			t.Errorf("%q mode %d: border.c and utf16.txt must match:\n%s", q.Pattern, q.Mode, want)
		}
		if q.Binary != search.BinaryQuit && (!strings.Contains(want, "nul-early.bin") || !strings.Contains(want, "nul-only.bin")) {
			t.Errorf("%q mode %d binary %d: the matches after a NUL must be found:\n%s", q.Pattern, q.Mode, q.Binary, want)
		}
	}
}

// collectNative runs the native engine (NoStats as given) and renders what
// reached the sink, sorted (workers report files in any order).
func collectNative(t *testing.T, q search.Query, noStats bool) string {
	t.Helper()
	nq, err := search.Normalize(q)
	if err != nil {
		t.Fatal(err)
	}
	e := native.New()
	e.NoStats = noStats
	var mu sync.Mutex
	var out []string
	add := func(s string) {
		mu.Lock()
		defer mu.Unlock()
		out = append(out, s)
	}
	_, err = e.Search(context.Background(), nq, search.SinkFuncs{
		LineFunc: func(l search.Line) error { add(fmt.Sprintf("%s:%d:%q", l.Path, l.Number, l.Text)); return nil },
		EndFunc:  func(s search.FileSummary) error { add(fmt.Sprintf("%s=%d", s.Path, s.MatchedLines)); return nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return strings.Join(out, "\n")
}
