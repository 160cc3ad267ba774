package native

import "testing"

// globBenchPatterns are --glob and ignore-file shapes: the fast paths
// (extension, basename, literal, prefix), and the general ones (classes,
// recursive middles, alternates).
var globBenchPatterns = []string{
	"**/*.go", "**/README.md", "src/main.go", "**/npm-debug.log*",
	"report.[0-9]*.[0-9]*.json", "docs/**/*.tmp", "src/generated/**/*", "**/*.{ts,tsx,js}",
	"**/a?c/**/x*y", "web/{app,lib}/**/*.css",
	// The Linux tree's root .gitignore: most paths lack the literal inside.
	"**/*.o.*", "**/*.c.[012]*.*", "**/*.tab.[ch]", "**/#*#",
}

var globBenchPaths = []string{
	"src/components/button/index.tsx", "README.md", "docs/a/b/c.tmp", "packages/core/src/lib/util.js",
	"src/generated/api/types.ts", "web/app/styles/site.css", "x/abc/d/xqy", "report.1.2.json",
}

// BenchmarkGlobMatch measures one verdict per (glob, path) pair.
func BenchmarkGlobMatch(b *testing.B) {
	var globs []*glob
	for _, p := range globBenchPatterns {
		g, err := compileGlob(p, true)
		if err != nil {
			b.Fatal(err)
		}
		globs = append(globs, g)
	}
	b.ReportMetric(float64(len(globs)*len(globBenchPaths)), "pairs")
	for b.Loop() {
		for _, g := range globs {
			for _, p := range globBenchPaths {
				g.match(p)
			}
		}
	}
}
