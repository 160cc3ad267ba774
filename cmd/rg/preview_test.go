//go:build !wasip1

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
)

// TestPreviewCountsGraphemeClustersAsRg15: --max-columns-preview keeps the
// line's first N grapheme clusters, so a character that extends the one
// before it (a mark, Thai and Lao AM) or joins the one after it (Prepend)
// keeps one more character in the preview. Every code point from U+0080 to
// U+1FFFF is tried after a letter and before one. rgkit took every spacing
// mark (Mc) for an extension, where Unicode leaves out a few Myanmar, Tai
// Tham, Tai Viet and Ahom vowels, and missed U+0E33 and U+0EB3, which are
// letters (Lo) yet extend.
func TestPreviewCountsGraphemeClustersAsRg15(t *testing.T) {
	t.Parallel()
	rg, bin := testtool.ReferenceRg(t), buildRg(t, "")
	dir := t.TempDir()
	var after, before strings.Builder
	for r := rune(0x80); r < 0x20000; r++ {
		if (r >= 0xD800 && r <= 0xDFFF) || r == 0x85 || r == 0x2028 || r == 0x2029 {
			continue // (not a character; line breaks to rg's printer)
		}
		fmt.Fprintf(&after, "a%cbbbbbbbbbbbbbbbbbbbb %x\n", r, r)
		fmt.Fprintf(&before, "%cabbbbbbbbbbbbbbbbbbbb %x\n", r, r)
	}
	for name, text := range map[string]string{"after.txt": after.String(), "before.txt": before.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		sameAsRg15(t, dir, rg, bin, []string{"-n", "-M", "15", "--max-columns-preview", "", name})
	}
}
