package version

import "testing"

func TestRipgrepVersionOutput(t *testing.T) {
	tests := []struct {
		name, out, want string
		ok              bool
	}{
		{"debian 13", "ripgrep 13.0.0\n-SIMD -AVX (compiled)\n+SIMD +AVX (runtime)\n", "13.0.0", true},
		{"with revision", "ripgrep 14.1.0 (rev e50df40a19)\n\nfeatures:+pcre2\n", "14.1.0", true},
		{"dev build", "ripgrep 15.0.0-dev\n", "15.0.0", true},
		{"windows line ending", "ripgrep 15.1.0\r\n", "15.1.0", true},
		{"another program", "grep (GNU grep) 3.8\n", "", false},
		{"ripgrep without a number", "ripgrep\n", "", false},
		{"empty", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Ripgrep([]byte(tt.out))
			if (err == nil) != tt.ok || got != tt.want {
				t.Fatalf("Ripgrep(%q) = %q, %v; want %q ok=%v", tt.out, got, err, tt.want, tt.ok)
			}
		})
	}
}

func TestOrder(t *testing.T) {
	tests := []struct {
		a, b string
		less bool
	}{
		{"11.0.0", "13.0.0", true},
		{"13.0.0", "13.0.0", false},
		{"13.0.1", "13.0.0", false},
		{"9.10.0", "13.0.0", true},
		{"14.1.1", "14.10.0", true},
	}
	for _, tt := range tests {
		a, err1 := Parse(tt.a)
		b, err2 := Parse(tt.b)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if a.Less(b) != tt.less {
			t.Errorf("%s < %s = %v, want %v", tt.a, tt.b, a.Less(b), tt.less)
		}
	}
	for _, bad := range []string{"", "v13.0.0", "13.0", "13.0.0.1", "x.y.z"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

func TestParseRefusesWhatRipgrepNeverTags(t *testing.T) {
	for _, bad := range []string{"013.0.0", "13.+1.0", "13.-1.0", " 13.0.0", "13.0.0-dev", "13..0"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
	if v, err := Parse("15.2.0"); err != nil || v != (V{15, 2, 0}) || v.String() != "15.2.0" {
		t.Errorf("Parse(15.2.0) = %v, %v", v, err)
	}
}

func TestAtLeast(t *testing.T) {
	v := V{14, 1, 0}
	for _, tt := range []struct {
		major, minor, patch int
		want                bool
	}{{14, 1, 0, true}, {14, 0, 9, true}, {14, 1, 1, false}, {15, 0, 0, false}, {13, 9, 9, true}} {
		if got := v.AtLeast(tt.major, tt.minor, tt.patch); got != tt.want {
			t.Errorf("%v.AtLeast(%d, %d, %d) = %v, want %v", v, tt.major, tt.minor, tt.patch, got, tt.want)
		}
	}
}

func TestPrefix(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want V
		ok   bool
	}{
		{"2.39.2", V{2, 39, 2}, true},
		{"2.39.2.windows.1", V{2, 39, 2}, true},
		{"2.15", V{2, 15, 0}, true},
		{"15.0.0-dev", V{15, 0, 0}, true},
		{"3.8", V{3, 8, 0}, true},
		{"2", V{2, 0, 0}, false},
		{"2.x", V{2, 0, 0}, false},
		{"", V{}, false},
		{"git", V{}, false},
	} {
		got, ok := Prefix(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Prefix(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
