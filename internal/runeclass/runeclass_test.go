package runeclass

import (
	"fmt"
	"testing"
)

func TestWithoutSplitsTrimsOrKeepsRanges(t *testing.T) {
	cases := []struct {
		cls  []rune
		r    rune
		want string
	}{
		{[]rune{'a', 'z'}, 'm', "[97 108 110 122]"},     // split in the middle
		{[]rune{'a', 'z'}, 'a', "[98 122]"},             // trim the low end
		{[]rune{'a', 'z'}, 'z', "[97 121]"},             // trim the high end
		{[]rune{'\n', '\n', 'a', 'b'}, '\n', "[97 98]"}, // drop a one-rune range
		{[]rune{'a', 'b'}, 'x', "[97 98]"},              // not there: unchanged
		{nil, 'x', "[]"},
	}
	for _, c := range cases {
		if got := fmt.Sprint(Without(c.cls, c.r)); got != c.want {
			t.Errorf("Without(%q, %q) = %s, want %s", c.cls, c.r, got, c.want)
		}
	}
}

func TestHasAndSize(t *testing.T) {
	cls := []rune{'0', '9', 'a', 'f'}
	for r, want := range map[rune]bool{'0': true, '9': true, 'c': true, 'g': false, '/': false} {
		if Has(cls, r) != want {
			t.Errorf("Has(%q) = %v, want %v", r, !want, want)
		}
	}
	if n := Size(cls); n != 16 {
		t.Errorf("Size = %d, want 16", n)
	}
}

func TestWithAddsOrJoinsRanges(t *testing.T) {
	cases := []struct {
		cls  []rune
		r    rune
		want string
	}{
		{[]rune{'a', 'c', 'e', 'g'}, 'd', "[97 103]"},                // joins the two ranges around it
		{[]rune{'a', 'c'}, 'd', "[97 100]"},                          // grows the range before it
		{[]rune{'b', 'c'}, 'a', "[97 99]"},                           // grows the range after it
		{[]rune{'a', 'b', 'x', 'z'}, 'm', "[97 98 109 109 120 122]"}, // a range of its own
		{[]rune{'b', 'c'}, 'z', "[98 99 122 122]"},                   // after every range
		{[]rune{'a', 'z'}, 'm', "[97 122]"},                          // there already
		{nil, 'x', "[120 120]"},
	}
	for _, c := range cases {
		if got := fmt.Sprint(With(c.cls, c.r)); got != c.want {
			t.Errorf("With(%q, %q) = %s, want %s", c.cls, c.r, got, c.want)
		}
	}
}
