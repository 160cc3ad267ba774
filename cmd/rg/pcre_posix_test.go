//go:build !wasip1

package main

import (
	"strings"
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
)

// TestPCREPosixClassesAsRg15: -P's POSIX classes are PCRE2's, with Unicode
// (UCP) and without (--no-unicode): [:punct:] is punctuation and the ASCII
// symbols ($ + < = > ^ ` | ~, not ¢ or ©), [:graph:] letters, marks,
// numbers, punctuation, symbols and the format characters but U+061C,
// U+180E and U+2066-U+2069, [:print:] those, U+180E and the space
// separators. rgkit refused the three under UCP, and its [:space:] and \s
// missed U+0085 and U+180E, which PCRE2's \s ([\p{Z}\h\v]) holds.
func TestPCREPosixClassesAsRg15(t *testing.T) {
	t.Parallel()
	rg, bin := testtool.ReferenceRg(t), buildRg(t, "")
	var chars []string
	for _, r := range []rune{0x20, '!', '$', '+', '<', '^', '`', '|', '~', 'A', '0', '_', 0x7F, 0x85, 0xA0, 0xA2, 0xA7,
		0xA9, 0xAD, 0xD7, 0x300, 0x61C, 0x180E, 0x2000, 0x200B, 0x2010, 0x2066, 0x2069, 0x206A, 0x2028, 0x20AC,
		0x3000, 0x3001, 0xE000, 0xFEFF, 0xFF01, 0x1F600, 0xE0001} {
		chars = append(chars, "x"+string(r)+"x")
	}
	dir := t.TempDir()
	testtool.WriteTree(t, dir, map[string]string{"c.txt": strings.Join(chars, "\n") + "\n"})
	var classes []string
	for _, name := range []string{"punct", "graph", "print", "alpha", "alnum", "space", "blank", "cntrl", "word"} {
		classes = append(classes, "[[:"+name+":]]", "[[:^"+name+":]]")
	}
	classes = append(classes, `\s`, `\S`, `\h`, `\v`, `\w`)
	for _, class := range classes {
		for _, mode := range []string{"--unicode", "--no-unicode"} {
			args := []string{"-P", mode, "-n", "--", "^x" + class + "x$", "c.txt"}
			t.Run(strings.Join(args[1:5], " "), func(t *testing.T) {
				t.Parallel()
				sameAsRg15(t, dir, rg, bin, args)
			})
		}
	}
}
