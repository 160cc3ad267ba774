package rg

import (
	"context"
	"io"
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
)

// TestThreadsFlagReachesTheProcess: rg -jN bounds rg to N threads, so the
// Program's Threads hook (GOMAXPROCS in the commands) is told N before the
// search, once, and not at all without -j.
func TestThreadsFlagReachesTheProcess(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	testtool.WriteTree(t, dir, map[string]string{"a.txt": "foo\n"})
	for _, tt := range []struct {
		args []string
		want []int
	}{
		{[]string{"-j1", "foo", dir}, []int{1}},
		{[]string{"--threads", "3", "foo", dir}, []int{3}},
		{[]string{"-j2", "-j5", "foo", dir}, []int{5}},
		{[]string{"foo", dir}, nil},
		{[]string{"-j0", "foo", dir}, nil}, // rg: 0 picks the number itself
	} {
		var got []int
		p := Program{Getenv: func(string) string { return "" }, Threads: func(n int) { got = append(got, n) }}
		if code := p.Main(context.Background(), tt.args, nil, io.Discard, io.Discard); code != 0 {
			t.Errorf("%q: exit %d, want 0", tt.args, code)
		}
		if len(got) != len(tt.want) || (len(got) == 1 && got[0] != tt.want[0]) {
			t.Errorf("%q: Threads told %v, want %v", tt.args, got, tt.want)
		}
	}
}
