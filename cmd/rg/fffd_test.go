//go:build !wasip1

package main

import (
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
)

// TestGenuineFFFDAsRg15: a genuine U+FFFD in the text is a character to
// '.', negated classes, \W, \S and \pS, and a byte of invalid UTF-8 is
// not, in every output (-o, JSON, counts, colours, -v, -w, -U), as rg
// 15.2.0 prints them. The same holds in a text that also holds the
// noncharacters U+FFFE and U+FFFF (the native engine's first stand-ins
// for a genuine U+FFFD).
func TestGenuineFFFDAsRg15(t *testing.T) {
	t.Parallel()
	rg, bin := testtool.ReferenceRg(t), buildRg(t, "")
	dir := t.TempDir()
	text := "x\uFFFD\xffy\n\xff\uFFFD\nplain\n\uFFFD\n\uFFFD\uFFFD \u20ac\na\uFFFDb\nc\xffd\n"
	testtool.WriteTree(t, dir, map[string]string{
		"f.txt":     text,
		"fffe.txt":  text + "x\uFFFEy\n",
		"ffff.txt":  text + "x\uFFFEy\n\uFFFF\n",
		"fffe1.txt": "\uFFFD\n\uFFFE\n",
	})
	for _, file := range []string{"f.txt", "fffe.txt", "ffff.txt", "fffe1.txt"} {
		t.Run(file, func(t *testing.T) {
			t.Parallel()
			for _, pattern := range []string{`.`, `x..y`, `[^\n]+`, `\W+`, `\x{FFFD}`, `[\x{FFFD}x]+`, `\S+`, `^.$`, `\b.\b`, `(?i)X.`, `\p{So}`, `[^\p{L}]`, `a.b|c.d`, `\x{FFFE}|\x{FFFF}`} {
				for _, flags := range [][]string{{"-o"}, {"--json"}, {"-c"}, {"-U", "-o"}, {"--color=always"}, {"-v"}, {"-w"}, {"-n", "--column"}} {
					args := append(append([]string{}, flags...), "--", pattern, file)
					sameAsRg15(t, dir, rg, bin, args)
				}
			}
		})
	}
}

// TestAskedUTF8ReplacesInvalidBytesAsRg15: with -E utf-8 rg decodes the
// file, each maximal invalid part becoming one U+FFFD (which '.' then
// matches); without it, or with only a UTF-8 byte-order mark, it passes
// the bytes through.
func TestAskedUTF8ReplacesInvalidBytesAsRg15(t *testing.T) {
	t.Parallel()
	rg, bin := testtool.ReferenceRg(t), buildRg(t, "")
	dir := t.TempDir()
	testtool.WriteTree(t, dir, map[string]string{
		"bad.txt": "a\xffb\xe2\x82c\xf0\x9f\x98d\xed\xa0\x80e\xc0\xafz\nplain\n\xf4\x90\x80\x80 end\n",
		"bom.txt": "\xEF\xBB\xBFa\xffb\xe2\x82c\n",
	})
	for _, file := range []string{"bad.txt", "bom.txt"} {
		for _, args := range [][]string{{"a"}, {"-E", "utf-8", "a"}, {"-E", "utf8", "-o", "."}, {"-E", "utf-8", "--json", "end"}, {"-E", "utf-8", "-c", `\W`}, {"-E", "none", "a"}} {
			args := append(append([]string{}, args...), file)
			sameAsRg15(t, dir, rg, bin, args)
		}
	}
}
