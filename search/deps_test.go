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
// engine) does not link net/http, TLS or os/exec. go list -deps proves it.
func TestImportGraph(t *testing.T) {
	gocmd := testtool.Need(t, "go")
	const mod = "github.com/rgkit/rgkit/"
	for _, tt := range []struct {
		pkg       string
		forbidden []string
	}{
		{"search", []string{"net/http", "os/exec", mod + "search/native", mod + "search/engines", mod + "rgfetch", mod + "internal/proc"}},
		{"search/native", []string{"net/http", "os/exec", mod + "internal/proc", mod + "rgfetch"}},
		{"search/printer", []string{"net/http", "os/exec"}},
		{"internal/dialect", []string{"net/http", "os/exec"}},
		{"search/ripgrep", []string{"net/http", mod + "rgfetch"}},
		{"search/gitgrep", []string{"net/http", mod + "rgfetch"}},
		{"search/sysgrep", []string{"net/http", mod + "rgfetch"}},
		{"search/engines", []string{"net/http", mod + "rgfetch"}},
	} {
		t.Run(tt.pkg, func(t *testing.T) {
			t.Parallel()
			out, err := exec.Command(gocmd, "list", "-deps", mod+tt.pkg).Output()
			if err != nil {
				t.Fatalf("go list -deps %s: %v", tt.pkg, err)
			}
			deps := strings.Fields(string(out))
			for _, f := range tt.forbidden {
				if slices.Contains(deps, f) {
					t.Errorf("%s depends on %s", tt.pkg, f)
				}
			}
		})
	}
}
