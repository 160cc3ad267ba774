package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
)

// TestLinksThePureGoRgAlone holds cmd/rg to the native engine: no other
// engine, rg finder, downloader, MCP server, cobra or network code, on
// every platform it is built for. The subprocess runner is there for
// --pre alone (internal/preproc), and not in the WASI build, which starts
// no process.
func TestLinksThePureGoRgAlone(t *testing.T) {
	t.Parallel()
	gocmd := testtool.Need(t, "go")
	const mod = "github.com/rgkit/rgkit/"
	forbidden := []string{
		"net/http", "github.com/spf13/cobra", "github.com/modelcontextprotocol/go-sdk/mcp",
		mod + "backends", mod + "backends/ripgrep", mod + "backends/gitgrep", mod + "backends/sysgrep",
		mod + "internal/realrg", mod + "rgfetch", mod + "tools/mcpserver",
	}
	for _, goos := range []string{"linux", "darwin", "windows", "wasip1"} {
		t.Run(goos, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(gocmd, "list", "-deps", mod+"cmd/rg")
			cmd.Env = append(cmd.Environ(), "GOOS="+goos)
			if goos == "wasip1" {
				cmd.Env = append(cmd.Env, "GOARCH=wasm")
			}
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("go list: %v", err)
			}
			deps := strings.Fields(string(out))
			if !slices.Contains(deps, mod+"backends/native") {
				t.Fatalf("cmd/rg does not link the native engine? deps: %v", deps)
			}
			for _, f := range forbidden {
				if slices.Contains(deps, f) {
					t.Errorf("cmd/rg links %s", f)
				}
			}
			runsPre := slices.Contains(deps, mod+"internal/preproc")
			if runsPre != (goos != "wasip1") {
				t.Errorf("cmd/rg links internal/preproc: %v, want %v (--pre outside WASI)", runsPre, goos != "wasip1")
			}
			if goos == "wasip1" && (slices.Contains(deps, "os/exec") || slices.Contains(deps, mod+"internal/proc")) {
				t.Errorf("the WASI build links a subprocess runner")
			}
		})
	}
}
