package search_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
)

// The search contract is importable without the engines, the network or
// process spawning: a library user who only wants the types (or the native
// engine) does not link net/http, TLS or os/exec. go list proves it, one
// run for every package (each package's Deps are what go list -deps of it
// prints, less itself).
func TestImportGraph(t *testing.T) {
	gocmd := testtool.Need(t, "go")
	const mod = "github.com/rgkit/rgkit/"
	cases := []struct {
		pkg       string
		forbidden []string
	}{
		{"search", []string{"net/http", "os/exec", mod + "backends/native", mod + "backends", mod + "rgfetch", mod + "internal/proc"}},
		// The pure-Go rg: what a program that embeds it (or cmd/rg) links.
		{"rg", []string{"net/http", "os/exec", mod + "backends", mod + "backends/ripgrep", mod + "backends/gitgrep", mod + "backends/sysgrep", mod + "internal/proc", mod + "rgfetch"}},
		{"backends/native", []string{"net/http", "os/exec", mod + "internal/proc", mod + "rgfetch"}},
		{"search/printer", []string{"net/http", "os/exec"}},
		{"internal/dialect", []string{"net/http", "os/exec"}},
		{"backends/ripgrep", []string{"net/http", mod + "rgfetch"}},
		{"backends/gitgrep", []string{"net/http", mod + "rgfetch"}},
		{"backends/sysgrep", []string{"net/http", mod + "rgfetch"}},
		{"backends", []string{"net/http", mod + "rgfetch"}},
	}
	args := []string{"list", "-f", "{{.ImportPath}}{{range .Deps}} {{.}}{{end}}"}
	for _, tt := range cases {
		args = append(args, mod+tt.pkg)
	}
	out, err := exec.Command(gocmd, args...).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		deps[f[0]] = f[1:]
	}
	for _, tt := range cases {
		t.Run(tt.pkg, func(t *testing.T) {
			got, ok := deps[mod+tt.pkg]
			if !ok {
				t.Fatalf("go list printed nothing for %s:\n%s", tt.pkg, out)
			}
			for _, f := range tt.forbidden {
				if slices.Contains(got, f) {
					t.Errorf("%s depends on %s", tt.pkg, f)
				}
			}
		})
	}
}
