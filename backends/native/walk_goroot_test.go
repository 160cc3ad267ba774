package native

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// gorootSrc is $(go env GOROOT)/src, the corpus of the walker's differential
// test and benchmarks (about 11,000 files, a few nested .gitignore files
// inside vendored modules, hidden files, no repository).
func gorootSrc(t testing.TB) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skipf("go env GOROOT: %v", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "src")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no Go source tree at %s", dir)
	}
	return dir
}

// TestWalkGorootMatchesRipgrep requires the same file set as rg --files on
// the Go source tree, for the default selection and a few flag sets.
func TestWalkGorootMatchesRipgrep(t *testing.T) {
	rgPath(t)
	root := gorootSrc(t)
	home := t.TempDir()
	for _, o := range []WalkOptions{
		{},
		{Hidden: true},
		{NoIgnore: true, Hidden: true},
		{Globs: []string{"*.go", "!*_test.go"}},
		{Globs: []string{"cmd/**/*.s"}},
		{TypeGlobs: []string{"*.s", "*.S"}},
		{MaxFileSize: 4096},
		{Paths: []string{"net/http", "cmd/vendor", "go.mod"}},
		{NoStat: true},
	} {
		o.Root = root
		want := rgFiles(t, o, home)
		got, st := walkFiles(t, o, home)
		if len(want) == 0 {
			t.Fatalf("%+v: rg listed nothing", o)
		}
		if !slices.Equal(got, want) {
			missing, extra := diffSorted(want, got)
			t.Errorf("%+v: Walk differs from rg --files (%d vs %d files)\n missing: %q\n extra: %q", o, len(got), len(want), head(missing), head(extra))
		}
		if st.Files != int64(len(got)) {
			t.Errorf("%+v: Stats.Files = %d, listed %d", o, st.Files, len(got))
		}
	}
}

func diffSorted(want, got []string) (missing, extra []string) {
	w := map[string]bool{}
	for _, s := range want {
		w[s] = true
	}
	g := map[string]bool{}
	for _, s := range got {
		g[s] = true
		if !w[s] {
			extra = append(extra, s)
		}
	}
	for _, s := range want {
		if !g[s] {
			missing = append(missing, s)
		}
	}
	return missing, extra
}

func head(s []string) []string {
	if len(s) > 10 {
		return s[:10]
	}
	return s
}

// BenchmarkWalkGoroot lists the Go source tree with Walk and, side by side in
// the same run, with a spawned `rg --files` (the target: Walk within
// 1.6x of rg). Compare ns/op of the two sub-benchmarks.
func BenchmarkWalkGoroot(b *testing.B) {
	root := gorootSrc(b)
	b.Run("native", func(b *testing.B) {
		for b.Loop() {
			if _, err := Walk(context.Background(), WalkOptions{Root: root}, func(File) error { return nil }); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("native-nostat", func(b *testing.B) {
		for b.Loop() {
			if _, err := Walk(context.Background(), WalkOptions{Root: root, NoStat: true}, func(File) error { return nil }); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("rg", func(b *testing.B) {
		rg := rgPath(b)
		for b.Loop() {
			cmd := exec.Command(rg, "--files", "--no-config")
			cmd.Dir = root
			if err := cmd.Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkWalkVsRipgrepInterleaved alternates a Walk and a spawned
// `rg --files` on the Go source tree in every iteration, so both see the
// same machine load, and reports the median time of each and their ratio
// (x-rg: Walk's median over rg's; the target is <= 1.6).
func BenchmarkWalkVsRipgrepInterleaved(b *testing.B) {
	root := gorootSrc(b)
	rg := rgPath(b)
	for _, mode := range []struct {
		name string
		o    WalkOptions
	}{{"stat", WalkOptions{Root: root}}, {"nostat", WalkOptions{Root: root, NoStat: true}}} {
		b.Run(mode.name, func(b *testing.B) {
			var walkT, rgT []time.Duration
			for b.Loop() {
				t0 := time.Now()
				if _, err := Walk(context.Background(), mode.o, func(File) error { return nil }); err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				cmd := exec.Command(rg, "--files", "--no-config", "--", root)
				if err := cmd.Run(); err != nil {
					b.Fatal(err)
				}
				walkT, rgT = append(walkT, t1.Sub(t0)), append(rgT, time.Since(t1))
			}
			w, r := median(walkT), median(rgT)
			b.ReportMetric(float64(w.Microseconds())/1000, "walk-ms")
			b.ReportMetric(float64(r.Microseconds())/1000, "rg-ms")
			b.ReportMetric(float64(w)/float64(r), "x-rg")
		})
	}
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}
