package native

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"golang.org/x/sys/unix"
)

// probe runs probeThenMap on a file holding body, with a buffer of capacity
// room (tiny, so a short file crosses many chunk borders), and returns
// whether it found a candidate and, when it did, the data it returned.
func probe(t *testing.T, pattern, body string, room int) (found bool, data []byte) {
	t.Helper()
	m, err := Compile(MatchOptions{Pattern: pattern})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	fd, err := unix.Open(path, unix.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	data, mapped, _, err := probeThenMap(fd, "f", make([]byte, 0, room), m.pre)
	if errors.Is(err, errNoCandidate) {
		return false, nil
	}
	if err != nil {
		t.Fatal(err)
	}
	if mapped {
		defer unmapData(data)
	}
	return true, bytes.Clone(data)
}

// TestProbeSeesALiteralAcrossEveryChunkBorder: a large file is read a
// chunk at a time and skipped when no chunk holds a literal a match needs.
// The literal at every offset of a file many chunks long (so across every
// border, and at the very start and end) is found, case-folded too, and
// then the whole file is what the search gets; a file without it is
// skipped.
func TestProbeSeesALiteralAcrossEveryChunkBorder(t *testing.T) {
	t.Parallel()
	filler := strings.Repeat("PM_RESUM pm_resum x\n", 12)
	for _, c := range []struct{ pattern, lit string }{
		{"PM_RESUME", "PM_RESUME"},
		{"(?i)pm_return", "pM_rEtUrN"}, // no s or k: those fold beyond ASCII
		{`\bPM_RESUME\b`, "PM_RESUME"},
	} {
		if found, _ := probe(t, c.pattern, filler, 64); found {
			t.Fatalf("%s: a candidate in a file without one", c.pattern)
		}
		for at := 0; at <= len(filler); at++ {
			body := filler[:at] + c.lit + filler[at:]
			found, data := probe(t, c.pattern, body, 64)
			if !found {
				t.Fatalf("%s: %q at %d of %d bytes not seen", c.pattern, c.lit, at, len(body))
			}
			if string(data) != body {
				t.Fatalf("%s: at %d the search would get %d bytes, not the file's %d", c.pattern, at, len(data), len(body))
			}
		}
	}
}

// TestProbeLeavesUTF16ToTheSearch: a file with a UTF-16 byte order mark is
// searched transcoded, where its raw bytes hold no literal at all; the
// probe must not skip it.
func TestProbeLeavesUTF16ToTheSearch(t *testing.T) {
	t.Parallel()
	for _, bom := range [][]byte{{0xFF, 0xFE}, {0xFE, 0xFF}} {
		units := utf16.Encode([]rune(strings.Repeat("filler line\n", 40) + "PM_RESUME\n"))
		body := append([]byte{}, bom...)
		for _, u := range units {
			if bom[0] == 0xFF {
				body = append(body, byte(u), byte(u>>8))
			} else {
				body = append(body, byte(u>>8), byte(u))
			}
		}
		if found, _ := probe(t, "PM_RESUME", string(body), 64); !found {
			t.Errorf("BOM % x: the UTF-16 file was skipped", bom)
		}
	}
}

// TestProbeGivesUpOnALiteralLongerThanHalfItsBuffer: the chunks overlap by
// the longest literal, so one that long is not probed (the file is read
// as before) rather than missed.
func TestProbeGivesUpOnALiteralLongerThanHalfItsBuffer(t *testing.T) {
	t.Parallel()
	lit := strings.Repeat("abcdefgh", 5)
	body := strings.Repeat("x", 100) + lit + strings.Repeat("y", 100)
	if found, data := probe(t, lit, body, 64); !found || string(data) != body {
		t.Errorf("found %v, %d bytes: want the whole file", found, len(data))
	}
}
