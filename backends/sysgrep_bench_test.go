package backends

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkSystemGrepGoroot searches the Go source tree with the
// system-grep engine, the native engine and a raw `grep -rn` (no ignore
// rules, no Go-side checks), side by side in one run. Compare ns/op.
func BenchmarkSystemGrepGoroot(b *testing.B) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip("go env GOROOT failed")
	}
	root := filepath.Join(strings.TrimSpace(string(out)), "src")
	g := NewSystemGrep()
	info, err := g.Available(context.Background())
	if err != nil {
		b.Skipf("system grep unavailable: %v", err)
	}
	for _, pat := range []string{"ErrUnexpectedEOF", "func", `func \w+Error\(`} {
		q, err := Normalize(Query{Pattern: pat, Root: root})
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range []Backend{g, NewNative()} {
			b.Run(pat+"/"+e.Name(), func(b *testing.B) {
				for b.Loop() {
					if _, err := e.Search(context.Background(), q, discardSink{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		b.Run(pat+"/grep-r", func(b *testing.B) {
			tr, err := translate(q, dialectERE)
			if err != nil {
				b.Skip(err)
			}
			for b.Loop() {
				cmd := exec.Command(info.Path, "-rnE", "-e", tr.Pattern, "--", ".")
				cmd.Dir, cmd.Env = root, grepEnv
				if err := cmd.Run(); err != nil {
					if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() > 1 {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// discardSink drops everything.
type discardSink struct{}

func (discardSink) Begin(string) error    { return nil }
func (discardSink) Line(Line) error       { return nil }
func (discardSink) End(FileSummary) error { return nil }
