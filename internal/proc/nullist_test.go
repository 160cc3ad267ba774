package proc

import (
	"slices"
	"strings"
	"testing"
)

func FuzzReadNulList(f *testing.F) {
	f.Add([]byte("a.txt\x00sub/b c.go\x00-rf\x00"))
	f.Add([]byte("caf\xe9.txt\x00\x00x"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, data []byte) {
		var got []string
		if err := ReadNulList(strings.NewReader(string(data)), func(p string) error {
			got = append(got, p)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, p := range strings.Split(string(data), "\x00") {
			if p != "" {
				want = append(want, p)
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("parse %q = %q, want %q", data, got, want)
		}
	})
}
