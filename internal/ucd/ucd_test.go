package ucd

import (
	"slices"
	"testing"
	"unicode"
)

// TestTablesAreSortedForTheirSearches: the lookups binary-search each
// list, so each must be sorted and each range list well formed.
func TestTablesAreSortedForTheirSearches(t *testing.T) {
	t.Parallel()
	for i := 1; i < len(tables); i++ {
		a, b := tables[i-1], tables[i]
		if a.kind > b.kind || a.kind == b.kind && a.name >= b.name {
			t.Fatalf("tables out of order at %s/%s, %s/%s", a.kind, a.name, b.kind, b.name)
		}
	}
	for _, tab := range tables {
		for i := 0; i+1 < len(tab.ranges); i += 2 {
			if tab.ranges[i] > tab.ranges[i+1] || i > 0 && tab.ranges[i] <= tab.ranges[i-1]+1 {
				t.Fatalf("%s/%s: ranges not sorted and disjoint at %d", tab.kind, tab.name, i)
			}
		}
	}
	if !slices.IsSortedFunc(propertyNames[:], func(a, b alias) int { return compare(a.name, b.name) }) {
		t.Fatal("propertyNames out of order")
	}
	for i := 1; i < len(valueNames); i++ {
		a, b := valueNames[i-1], valueNames[i]
		if a.property > b.property || a.property == b.property && a.name >= b.name {
			t.Fatalf("valueNames out of order at %v, %v", a, b)
		}
	}
	for i := 2; i < len(foldNext); i += 2 {
		if foldNext[i] <= foldNext[i-2] {
			t.Fatalf("foldNext out of order at %#x", foldNext[i])
		}
	}
}

func compare(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func TestLookupsFindUnicode16(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		kind Kind
		prop string
		r    rune
		want bool
	}{
		{"U+A7DC is an upper-case letter in 16.0", GeneralCategory, "Uppercase_Letter", 0xA7DC, true},
		{"Garay is a script in 16.0", Script, "Garay", 0x10D50, true},
		{"U+00B7 is Greek by script extension", ScriptExtension, "Greek", 0xB7, true},
		{"U+00B7 is not Greek by script", Script, "Greek", 0xB7, false},
		{"an emoji", Binary, "Emoji", 0x1F600, true},
		{"a letter is not an emoji", Binary, "Emoji", 'a', false},
		{"the combining ypogegrammeni is Other_Alphabetic", Binary, "Other_Alphabetic", 0x345, true},
		{"CR is its own grapheme break class", GraphemeBreak, "CR", '\r', true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rs, ok := Ranges(c.kind, c.prop)
			if !ok {
				t.Fatalf("no table %s/%s", c.kind, c.prop)
			}
			if got := In(rs, c.r); got != c.want {
				t.Errorf("In(%s/%s, %U) = %v, want %v", c.kind, c.prop, c.r, got, c.want)
			}
		})
	}
	for _, c := range []struct{ prop, name, want string }{
		{"General_Category", "lu", "Uppercase_Letter"},
		{"General_Category", "punct", "Punctuation"},
		{"Script", "grek", "Greek"},
		{"Script", "gara", "Garay"},
		{"Script_Extensions", "zyyy", "Common"},
		{"Word_Break", "aletter", "ALetter"},
	} {
		if got, ok := Value(c.prop, c.name); !ok || got != c.want {
			t.Errorf("Value(%q, %q) = %q, %v; want %q", c.prop, c.name, got, ok, c.want)
		}
	}
	for name, want := range map[string]string{"gc": "General_Category", "scx": "Script_Extensions", "alpha": "Alphabetic", "wspace": "White_Space", "emoji": "Emoji"} {
		if got, ok := Property(name); !ok || got != want {
			t.Errorf("Property(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
}

// TestSimpleFoldAgreesWithGoWhereUnicode15Did: Unicode 16 added case
// pairs (U+A7DC and U+019B) and changed none, so every orbit Go's
// Unicode 15 tables know is the same here.
func TestSimpleFoldAgreesWithGoWhereUnicode15Did(t *testing.T) {
	t.Parallel()
	added := 0
	for r := rune(0); r <= unicode.MaxRune; r++ {
		got, goFold := SimpleFold(r), unicode.SimpleFold(r)
		if got == goFold {
			continue
		}
		if goFold != r {
			t.Fatalf("SimpleFold(%U) = %U, Go's Unicode %s says %U", r, got, unicode.Version, goFold)
		}
		added++
	}
	if SimpleFold(0xA7DC) != 0x19B || SimpleFold(0x19B) != 0xA7DC {
		t.Errorf("U+A7DC and U+019B do not fold together: %U, %U", SimpleFold(0xA7DC), SimpleFold(0x19B))
	}
	if added == 0 {
		t.Error("no orbit beyond Go's: the tables are not Unicode 16")
	}
}
