package textenc

import (
	"errors"
	"testing"
)

func TestLookupReadsWHATWGLabelsAsRgDoes(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		label string
		mode  Mode
		name  string
	}{
		{"", Auto, ""}, {"auto", Auto, ""}, {"none", None, ""},
		{"utf-8", Label, "utf-8"}, {" UTF8 ", Label, "utf-8"},
		{"utf-16", Label, "utf-16le"}, {"UTF-16LE", Label, "utf-16le"}, {"utf-16be", Label, "utf-16be"},
		{"latin1", Label, "windows-1252"}, {"iso-8859-1", Label, "windows-1252"},
		{"sjis", Label, "shift_jis"}, {"euc-kr", Label, "euc-kr"}, {"gbk", Label, "gbk"},
		{"x-user-defined", Label, "x-user-defined"},
	} {
		t.Run(tt.label, func(t *testing.T) {
			e, err := Lookup(tt.label)
			if err != nil || e.Mode != tt.mode || e.Name != tt.name {
				t.Fatalf("Lookup(%q) = %+v, %v; want mode %d name %q", tt.label, e, err, tt.mode, tt.name)
			}
			if (e.Enc == nil) != (tt.mode != Label || tt.name == "utf-8") {
				t.Errorf("Lookup(%q).Enc = %v", tt.label, e.Enc)
			}
		})
	}
	for _, label := range []string{"bogus", "iso-2022-kr", "hz-gb-2312", "replacement", "AUTO", "None"} {
		t.Run("unknown "+label, func(t *testing.T) {
			_, err := Lookup(label)
			if !errors.Is(err, ErrUnknown) || err.Error() != "grep config error: unknown encoding: "+label {
				t.Fatalf("Lookup(%q) error = %v", label, err)
			}
		})
	}
}
