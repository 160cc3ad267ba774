package dialect

import "testing"

func TestDFAWeightDeclinesOnlyRepeatedUnicodeClasses(t *testing.T) {
	for _, tt := range []struct {
		pattern string
		over    bool
	}{
		{`\w{500}`, true},
		{`\w{20}`, true},
		{`\w{5}\s+\w{5}\s+\w{5}`, true},
		{`\w+\d\s*=\s*\d`, false},
		{`\w+`, false},
		{`[a-z]{500}`, false},
		{`a{1000}`, false},
		{`ErrUnexpectedEOF`, false},
		{`(?i)http`, false},
	} {
		re, err := ReferenceTree(tt.pattern, false, false, false)
		if err != nil {
			t.Fatal(err)
		}
		if w := DFAWeight(re); (w > MaxDFAWeight) != tt.over {
			t.Errorf("%s: weight %d, over the limit %d: want %v", tt.pattern, w, MaxDFAWeight, tt.over)
		}
	}
}
