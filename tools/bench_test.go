package tools

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rgkit/rgkit/backends"
	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/search"
)

// BenchmarkGrepTool measures one whole Grep tool call (sandbox, search,
// paging, rendering) over GOROOT/src, once per engine, side by side. The
// tools confine every search beneath the held root, which the ripgrep
// engine refuses, so "auto" is the default chain as it then runs (the
// system grep engine here, git grep in a repository) and "native" the
// pure-Go engine:
//
//	go test ./tools -run '^$' -bench GrepTool -benchtime 20x
func BenchmarkGrepTool(b *testing.B) {
	root := filepath.Join(testtool.GOROOT(b), "src")
	if _, err := os.Stat(root); err != nil {
		b.Skipf("no GOROOT/src: %v", err)
	}
	engines := map[string]Searcher{
		"auto":   backends.Default(backends.Options{}),
		"native": &search.Chain{Engines: []search.Engine{native.New()}},
	}
	inputs := map[string]GrepInput{
		"files":   {Pattern: `func \w+Error\(`},
		"content": {Pattern: `func \w+Error\(`, OutputMode: GrepContent},
	}
	for _, name := range []string{"auto", "native"} {
		eng := engines[name]
		for _, mode := range []string{"files", "content"} {
			b.Run(name+"/"+mode, func(b *testing.B) {
				w, err := NewWorkspace(root, Options{Searcher: eng})
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
