package backends

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/internal/searchtest"
	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/search"
	"github.com/rgkit/rgkit/search/printer"
)

// The library's Text printer, fed by the default chain, prints what
// `rg --no-heading -n` prints with context: "--" between groups that are
// not contiguous and between files, whether one file's last line and the
// next file's first line have consecutive numbers or not.
func TestTextPrinterSeparatesGroupsAndFilesAsRg(t *testing.T) {
	t.Parallel()
	rg := testtool.ReferenceRg(t)
	root := t.TempDir()
	searchtest.WriteFile(t, filepath.Join(root, "a.txt"), "a\nhit\nb\nc\nd\nhit\n")
	searchtest.WriteFile(t, filepath.Join(root, "b.txt"), "x\nx\nx\nx\nx\nx\nhit\ny\n")
	searchtest.WriteFile(t, filepath.Join(root, "c/d.txt"), "hit\nhit\nz\n")
	searchtest.WriteFile(t, filepath.Join(root, "e.txt"), "none\n")
	gitInit(t, root)
	for _, engine := range realEngines(t, root) {
		for _, c := range [][2]int{{0, 0}, {1, 1}, {2, 2}, {1, 0}, {0, 1}} {
			for _, noFilename := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s -B%d -A%d nofilename=%v", engine.Name(), c[0], c[1], noFilename), func(t *testing.T) {
					args := []string{"--no-heading", "-n", "--sort", "path", fmt.Sprintf("-B%d", c[0]), fmt.Sprintf("-A%d", c[1]), "hit"}
					if noFilename {
						args = append(args, "--no-filename")
					}
					cmd := exec.Command(rg, args...)
					cmd.Dir = root
					want, err := cmd.Output()
					if err != nil {
						t.Fatal(err)
					}
					var got bytes.Buffer
					p := printer.NewText(&got, printer.Options{Context: c[0]+c[1] > 0, NoFilename: noFilename})
					q := search.Query{Pattern: "hit", Root: root, Before: c[0], After: c[1]}
					chain := &search.Chain{Engines: []search.Engine{engine}}
					if _, err := chain.Search(context.Background(), q, p); err != nil {
						t.Fatal(err)
					}
					if g, w := got.String(), strings.ReplaceAll(string(want), "./", ""); g != w {
						t.Errorf("rg %v:\ngot\n%s\nwant\n%s", args, g, w)
					}
				})
			}
		}
	}
}
