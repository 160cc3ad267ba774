package backends

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/internal/searchtest"
	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/rg"
	"github.com/rgkit/rgkit/search"
)

// Every engine reports rg 15.2.0's byte offsets (-b, --json's
// absolute_offset) and byte statistics (--stats, --json's bytes_searched),
// which count a binary file only up to where rg stops searching it.
// grep's and git grep's engines check a stretch of lines at a time and
// skip files their tool reports nothing for, so a match far into a file,
// CRLF lines, context and a binary file without a match are what can go
// wrong.
func TestByteOffsetsAndStatsOnEveryEngineAreRgs(t *testing.T) {
	t.Parallel()
	ref := testtool.ReferenceRg(t)
	root := t.TempDir()
	searchtest.WriteFile(t, filepath.Join(root, "a.txt"), strings.Repeat("filler line\n", 500)+"one hit\nafter\n"+strings.Repeat("more\n", 50)+"two hit\n")
	searchtest.WriteFile(t, filepath.Join(root, "crlf.txt"), "x\r\ny\r\nhit\r\nz\r\n")
	searchtest.WriteFile(t, filepath.Join(root, "d/b.txt"), "hit first\n"+strings.Repeat("z", 70000)+"\nlast hit")
	searchtest.WriteFile(t, filepath.Join(root, "bin.dat"), "no match\n\x00"+strings.Repeat("abc\n", 30000))
	searchtest.WriteFile(t, filepath.Join(root, "plain.txt"), "nothing here\n")
	gitInit(t, root)
	stats := regexp.MustCompile(`\d+ bytes searched|"bytes_searched":\d+|"absolute_offset":\d+`)
	for _, e := range realEngines(t, root) {
		for _, args := range [][]string{
			{"-b", "--sort", "path", "hit"},
			{"-b", "-C1", "--sort", "path", "hit"},
			{"-b", "-o", "--sort", "path", "hit"}, // CRLF lines: offsets count the \r as rg does
			{"--stats", "--sort", "path", "hit"},
			{"--stats", "-c", "--sort", "path", "hit"},
			{"--json", "--sort", "path", "hit"},
		} {
			t.Run(e.Name()+" "+strings.Join(args, " "), func(t *testing.T) {
				args := append(args, root)
				want, err := exec.Command(ref, args...).Output()
				if err != nil {
					t.Fatalf("rg %v: %v", args, err)
				}
				var out, errOut bytes.Buffer
				p := rg.Program{Engines: func(string) (*search.Chain, error) {
					fresh, err := Default(Options{}).ByName(e.Name()) // SkipByteStats changes an engine
					return &search.Chain{Engines: []search.Engine{fresh}}, err
				}}
				if code := p.Main(context.Background(), append([]string{"--backend", e.Name()}, args...), nil, &out, &errOut); code != 0 {
					t.Fatalf("exit %d: %s", code, errOut.String())
				}
				if args[0] == "-b" {
					if out.String() != string(want) {
						t.Errorf("got\n%s\nwant\n%s", out.String(), want)
					}
					return
				}
				g, w := stats.FindAllString(out.String(), -1), stats.FindAllString(string(want), -1)
				if len(w) == 0 || fmt.Sprint(g) != fmt.Sprint(w) {
					t.Errorf("got %q, rg says %q", g, w)
				}
			})
		}
	}
}
