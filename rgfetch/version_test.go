package rgfetch

import "testing"

func TestParseRgVersion(t *testing.T) {
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
			got, err := ParseRgVersion([]byte(tt.out))
			if (err == nil) != tt.ok || got != tt.want {
				t.Fatalf("ParseRgVersion(%q) = %q, %v; want %q ok=%v", tt.out, got, err, tt.want, tt.ok)
			}
		})
	}
}

func TestSemverOrder(t *testing.T) {
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
		a, err1 := parseSemver(tt.a)
		b, err2 := parseSemver(tt.b)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if a.less(b) != tt.less {
			t.Errorf("%s < %s = %v, want %v", tt.a, tt.b, a.less(b), tt.less)
		}
	}
	for _, bad := range []string{"", "v13.0.0", "13.0", "13.0.0.1", "x.y.z"} {
		if _, err := parseSemver(bad); err == nil {
			t.Errorf("parseSemver(%q) accepted", bad)
		}
	}
}
