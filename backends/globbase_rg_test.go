package backends

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/internal/searchtest"
	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/rg"
	"github.com/rgkit/rgkit/search"
)

// rg matches --glob against the path as it walks it, relative to its
// working directory (or absolute outside it), not relative to the
// directory argument: `rg -g 'src/**' proj` finds nothing in proj/src,
// `rg -g 'proj/src/**' proj` does. The CLI on every engine prints what
// rg 15.2.0 prints, from the tree's parent, from inside it and from a
// directory below it.
func TestGlobsMatchThePathAsRgWalksIt(t *testing.T) {
	ref := testtool.ReferenceRg(t)
	top := t.TempDir()
	for _, f := range []string{"proj/src/a.txt", "proj/src/src/c.txt", "proj/lib/b.txt", "proj/lib/src/d.txt"} {
		searchtest.WriteFile(t, filepath.Join(top, f), "hit\n")
	}
	gitInit(t, filepath.Join(top, "proj"))
	proj := filepath.Join(top, "proj")
	globs := []string{"src/**", "proj/src/**", "/proj/src/**", "**/src/**", "*/src/**", "!src/**", "!proj/src/**", "src/*.txt", "../src/**"}
	for _, cwd := range []struct{ dir, paths string }{
		{top, "proj ./proj proj/ " + proj},
		{proj, ". ./ src -"},
		{filepath.Join(proj, "lib"), ".. " + proj},
	} {
		t.Chdir(cwd.dir)
		for _, path := range strings.Fields(cwd.paths) {
			for _, g := range globs {
				args := []string{"--sort", "path", "-l", "-g", g, "hit"}
				if path != "-" {
					args = append(args, path)
				}
				want, _ := exec.Command(ref, args...).Output()
				for _, e := range realEngines(t, proj) {
					var out, errOut bytes.Buffer
					p := rg.Program{Engines: func(string) (*search.Chain, error) {
						fresh, err := Default(Options{}).ByName(e.Name())
						return &search.Chain{Engines: []search.Engine{fresh, native.New()}}, err
					}}
					p.Main(context.Background(), append([]string{"--backend", e.Name()}, args...), nil, &out, &errOut)
					if out.String() != string(want) {
						t.Errorf("in %s, %s: rg %q:\ngot\n%s%s\nwant\n%s", cwd.dir, e.Name(), args, out.String(), errOut.String(), want)
					}
				}
			}
		}
	}
}
