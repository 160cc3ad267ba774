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

// probeFile runs probeThenMap on a file holding body, with a buffer of capacity
// room (tiny, so a short file crosses many chunk borders), and returns
// whether it found a candidate and, when it did, the data it returned.
func probeFile(t *testing.T, pattern, body string, room int) (found bool, data []byte) {
	t.Helper()
	found, data, _ = probeNUL(t, pattern, body, room)
	return found, data
}

// probeNUL is probeFile, also returning where the probe says the first NUL
// of the data as searched is.
func probeNUL(t *testing.T, pattern, body string, room int) (found bool, data []byte, nul int) {
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
	p := &probe{pre: m.pre}
	data, mapped, _, err := probeThenMap(sysFile{fd: fd, direct: true}, "f", make([]byte, 0, room), p)
	if errors.Is(err, errNoCandidate) {
		return false, nil, p.nul
	}
	if err != nil {
		t.Fatal(err)
	}
	if mapped {
		defer unmapData(data)
	}
	return true, bytes.Clone(data), p.nul
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
		if found, _ := probeFile(t, c.pattern, filler, 64); found {
			t.Fatalf("%s: a candidate in a file without one", c.pattern)
		}
		for at := 0; at <= len(filler); at++ {
			body := filler[:at] + c.lit + filler[at:]
			found, data := probeFile(t, c.pattern, body, 64)
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
		if found, _ := probeFile(t, "PM_RESUME", string(body), 64); !found {
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
	if found, data := probeFile(t, lit, body, 64); !found || string(data) != body {
		t.Errorf("found %v, %d bytes: want the whole file", found, len(data))
	}
}

// TestProbeFindsTheFirstNUL: rg searches a file only up to its first NUL
// (at a buffer fill's border), so the probe that reads a large file before
// it is mapped also finds that NUL, at every offset across the chunk
// borders, as an offset in the data the search sees (after a UTF-8 byte
// order mark); a file whose only candidate comes after the NUL is skipped.
func TestProbeFindsTheFirstNUL(t *testing.T) {
	t.Parallel()
	filler := strings.Repeat("PM_RESUM x\n", 20)
	for _, bom := range []string{"", "\xEF\xBB\xBF"} {
		if _, _, nul := probeNUL(t, "PM_RESUME", bom+"PM_RESUME\n"+filler, 64); nul != -1 {
			t.Errorf("BOM %q: no NUL, probe says %d", bom, nul)
		}
		for at := 0; at <= len(filler); at++ {
			body := bom + "PM_RESUME\n" + filler[:at] + "\x00" + filler[at:]
			found, _, nul := probeNUL(t, "PM_RESUME", body, 64)
			if want := len("PM_RESUME\n") + at; !found || nul != want {
				t.Fatalf("BOM %q, NUL at %d: found %v, nul %d, want %d", bom, at, found, nul, want)
			}
			if found, _, _ := probeNUL(t, "PM_RESUME", bom+filler[:at]+"\x00"+filler[at:]+"PM_RESUME\n", 64); found {
				t.Fatalf("BOM %q: the only candidate, after a NUL at %d, was not skipped", bom, at)
			}
		}
	}
}
