package native

import (
	"strings"
	"testing"
)

// nodeGitignore is a typical project .gitignore (GitHub's Node template,
// abridged): literals, extensions, anchored paths, directories, negations.
const nodeGitignore = `logs
*.log
npm-debug.log*
yarn-debug.log*
lerna-debug.log*
report.[0-9]*.[0-9]*.[0-9]*.[0-9]*.json
pids
*.pid
*.seed
*.pid.lock
lib-cov
coverage
*.lcov
.nyc_output
.grunt
bower_components
.lock-wscript
build/Release
node_modules/
jspm_packages/
web_modules/
*.tsbuildinfo
.npm
.eslintcache
.stylelintcache
.rpt2_cache/
.node_repl_history
*.tgz
.yarn-integrity
.env
.env.development.local
!.env.example
.cache
.parcel-cache
.next
out
.nuxt
dist
.vuepress/dist
.temp
.docusaurus
.serverless/
.fusebox/
.dynamodb/
.tern-port
.vscode-test
.yarn/cache
.yarn/unplugged
.yarn/build-state.yml
.yarn/install-state.gz
.pnp.*
/src/generated/**
docs/**/*.tmp
`

// BenchmarkIgnoreMatch measures one verdict of a 55-rule .gitignore for
// typical paths (most match nothing, so every rule is tried).
func BenchmarkIgnoreMatch(b *testing.B) {
	f := parseIgnore([]byte(nodeGitignore), false)
	paths := []string{"src/components/button/index.tsx", "README.md", "logs", "src/generated/api/types.ts", "docs/a/b/c.tmp", "packages/core/src/lib/util.js", ".env.example"}
	b.ReportMetric(float64(len(f.rules)), "rules")
	for b.Loop() {
		for _, p := range paths {
			f.match(p, strings.HasSuffix(p, "logs"))
		}
	}
}
