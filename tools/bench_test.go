package tools

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/backends"
)

// BenchmarkGrepTool measures one whole Grep tool call (sandbox, search,
// paging, rendering) over GOROOT/src, once per engine, side by side:
//
//	go test ./tools -run '^$' -bench GrepTool -benchtime 20x
func BenchmarkGrepTool(b *testing.B) {
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skipf("go env GOROOT: %v", err)
	}
	root := filepath.Join(strings.TrimSpace(string(goroot)), "src")
	if _, err := os.Stat(root); err != nil {
		b.Skipf("no GOROOT/src: %v", err)
	}
	engines := map[string]backends.Backend{
		"ripgrep": backends.NewRipgrep(nil),
		"native":  backends.NewNative(),
	}
	inputs := map[string]GrepInput{
		"files":   {Pattern: `func \w+Error\(`},
		"content": {Pattern: `func \w+Error\(`, OutputMode: GrepContent},
	}
	for _, name := range []string{"ripgrep", "native"} {
		eng := engines[name]
		if _, err := eng.Available(context.Background()); err != nil {
			b.Logf("%s unavailable: %v", name, err)
			continue
		}
		for _, mode := range []string{"files", "content"} {
			b.Run(name+"/"+mode, func(b *testing.B) {
				w, err := NewWorkspace(root, Options{Searcher: &backends.Chain{Backends: []backends.Backend{eng}}})
				if err != nil {
					b.Fatal(err)
				}
				var chars int
				for b.Loop() {
					out, err := w.Grep(context.Background(), inputs[mode])
					if err != nil {
						b.Fatal(err)
					}
					chars = len(out.Text)
				}
				b.ReportMetric(float64(chars), "text-chars")
			})
		}
	}
}
