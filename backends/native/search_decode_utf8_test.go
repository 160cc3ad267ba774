package native

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"golang.org/x/text/transform"
)

// TestUTF8ReplacerReplacesEachMaximalInvalidPart: rg -E utf-8 keeps valid
// UTF-8 (a genuine U+FFFD too) and turns each maximal part of an invalid
// sequence into one U+FFFD, as encoding_rs does (checked against rg 15.2.0:
// "a\xffb\xe2\x82c\xf0\x9f\x98d\xed\xa0\x80e\xc0\xafz" prints
// a�b�c�d���e��z), whatever the reads cut.
func TestUTF8ReplacerReplacesEachMaximalInvalidPart(t *testing.T) {
	t.Parallel()
	const r = "\uFFFD"
	cases := []struct{ in, want string }{
		{"plain ascii\n", "plain ascii\n"},
		{"é€😀\uFFFD", "é€😀\uFFFD"},
		{"a\xffb", "a" + r + "b"},
		{"\xe2\x82c", r + "c"},              // cut short: one
		{"\xf0\x9f\x98d", r + "d"},          // cut short: one
		{"\xed\xa0\x80e", r + r + r + "e"},  // a surrogate: ED, A0, 80
		{"\xc0\xafz", r + r + "z"},          // an overlong lead byte
		{"\xe0\x80\x80", r + r + r},         // E0 wants A0-BF next
		{"\xf4\x90\x80\x80", r + r + r + r}, // past U+10FFFF
		{"\xf5", r},
		{"x\xe2\x82", "x" + r}, // cut short at the end
		{"\x80\xbf", r + r},
	}
	for _, c := range cases {
		got, _, err := transform.String(utf8Replacer{}, c.in)
		if err != nil || got != c.want {
			t.Errorf("%q: got %q (%v), want %q", c.in, got, err, c.want)
		}
		b, err := io.ReadAll(transform.NewReader(iotest.OneByteReader(strings.NewReader(c.in)), utf8Replacer{}))
		if err != nil || string(b) != c.want {
			t.Errorf("%q read a byte at a time: got %q (%v), want %q", c.in, b, err, c.want)
		}
	}
}
