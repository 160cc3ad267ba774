package sysgrep

import (
	"context"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/internal/dialect"
	"github.com/rgkit/rgkit/search"
)

// BenchmarkSystemGrepGoroot searches the Go source tree with the
// system-grep engine, the native engine and a raw `grep -rn` (no ignore
// rules, no Go-side checks), interleaved in every iteration so all three see
// the same machine load; it reports each one's median in ms.
func BenchmarkSystemGrepGoroot(b *testing.B) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip("go env GOROOT failed")
	}
	root := filepath.Join(strings.TrimSpace(string(out)), "src")
	g := New()
	info, err := g.Available(context.Background())
	if err != nil {
		b.Skipf("system grep unavailable: %v", err)
	}
	for _, pat := range []string{"ErrUnexpectedEOF", "func", `func \w+Error\(`} {
		b.Run(pat, func(b *testing.B) {
			q, err := search.Normalize(search.Query{Pattern: pat, Root: root})
			if err != nil {
				b.Fatal(err)
			}
			tr, err := dialect.Translate(q, dialect.ERE)
			if err != nil {
				b.Fatal(err)
			}
			var tg, tn, tr2 []time.Duration
			for b.Loop() {
				t0 := time.Now()
				if _, err := g.Search(context.Background(), q, search.Discard); err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				if _, err := native.New().Search(context.Background(), q, search.Discard); err != nil {
					b.Fatal(err)
				}
				t2 := time.Now()
				cmd := exec.Command(info.Path, "-rnE", "-e", tr.Pattern, "--", ".")
				// A pipe, not /dev/null: GNU grep stops at the first match
				// of each file when it sees its output is /dev/null.
				cmd.Dir, cmd.Env, cmd.Stdout = root, grepEnv, io.Discard
				if err := cmd.Run(); err != nil {
					if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() > 1 {
						b.Fatal(err)
					}
				}
				tg, tn, tr2 = append(tg, t1.Sub(t0)), append(tn, t2.Sub(t1)), append(tr2, time.Since(t2))
			}
			b.ReportMetric(medianMS(tg), "sysgrep-ms")
			b.ReportMetric(medianMS(tn), "native-ms")
			b.ReportMetric(medianMS(tr2), "grep-r-ms")
		})
	}
}

func medianMS(d []time.Duration) float64 {
	s := slices.Clone(d)
	slices.Sort(s)
	return float64(s[len(s)/2].Microseconds()) / 1000
}
