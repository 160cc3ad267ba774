package backends

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/backends/gitgrep"
	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/backends/ripgrep"
	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/search"
)

// BenchmarkEngineOverhead measures what spawning costs against searching:
// each external engine on a three-file repository (almost all process
// start-up: rg's, or git's three processes plus the walk) and on a copy of
// $GOROOT/src made into a git repository (mostly searching), with the native
// engine beside them. Run with:
//
//	go test ./backends -run '^$' -bench EngineOverhead -benchtime 20x
func BenchmarkEngineOverhead(b *testing.B) {
	testtool.Need(b, "git")
	trees := map[string]string{"tiny": benchTinyRepo(b), "goroot": benchGorootRepo(b)}
	engines := []search.Engine{ripgrep.New(nil), gitgrep.New(), native.New()}
	for _, tree := range []string{"tiny", "goroot"} {
		for _, pat := range []string{"func NewReader", `(?i)unicode\.Is[A-Z]\w+`} {
			for _, e := range engines {
				if _, err := e.Available(context.Background()); err != nil {
					continue
				}
				name := tree + "/" + map[bool]string{true: "literal", false: "regexp"}[!strings.Contains(pat, `\`)] + "/" + e.Name()
				b.Run(name, func(b *testing.B) {
					q, err := search.Normalize(search.Query{Root: trees[tree], Pattern: pat, Mode: search.ModeContent})
					if err != nil {
						b.Fatal(err)
					}
					var lines int
					var st search.Stats
					for b.Loop() {
						lines = 0
						st, err = e.Search(context.Background(), q, search.SinkFunc(func(search.Line) error { lines++; return nil }))
						if err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(lines), "lines")
					b.ReportMetric(float64(st.ProcessCPU.Microseconds()), "child-cpu-µs/op")
				})
			}
		}
	}
}

func benchTinyRepo(b *testing.B) string {
	dir := b.TempDir()
	for name, body := range map[string]string{"a.go": "package a\nfunc NewReader() {}\n", "b.txt": "x\n", "c/d.md": "y\n"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	benchGit(b, dir, "init", "-q")
	benchGit(b, dir, "add", "-A")
	return dir
}

// benchGorootRepo copies $GOROOT/src into a fresh git repository (git grep
// needs one) once per benchmark run.
func benchGorootRepo(b *testing.B) string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip("go env GOROOT failed")
	}
	src := filepath.Join(strings.TrimSpace(string(out)), "src")
	dir := filepath.Join(b.TempDir(), "src")
	if out, err := exec.Command("cp", "-r", src, dir).CombinedOutput(); err != nil {
		b.Skipf("copy GOROOT/src: %v %s", err, out)
	}
	benchGit(b, dir, "init", "-q")
	benchGit(b, dir, "add", "-A")
	return dir
}

func benchGit(b *testing.B, dir string, args ...string) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("git %v: %v %s", args, err, out)
	}
}

// BenchmarkEngineBroadMatch measures decoding cost when nearly every line
// matches (rg's JSON output is then large): ripgrep vs native on
// $GOROOT/src/net. Run with:
//
//	go test ./backends -run '^$' -bench EngineBroadMatch -benchtime 5x
func BenchmarkEngineBroadMatch(b *testing.B) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip("go env GOROOT failed")
	}
	root := filepath.Join(strings.TrimSpace(string(out)), "src", "net")
	for _, e := range []search.Engine{ripgrep.New(nil), native.New()} {
		if _, err := e.Available(context.Background()); err != nil {
			continue
		}
		b.Run(e.Name(), func(b *testing.B) {
			q, err := search.Normalize(search.Query{Root: root, Pattern: "e", NoIgnore: true})
			if err != nil {
				b.Fatal(err)
			}
			var lines int
			for b.Loop() {
				lines = 0
				if _, err := e.Search(context.Background(), q, search.SinkFunc(func(search.Line) error { lines++; return nil })); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(lines), "lines")
		})
	}
}
