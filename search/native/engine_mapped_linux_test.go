package native_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

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
