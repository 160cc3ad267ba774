package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
)

// statsCounts is --stats' block without its timing lines, which no two
// runs share.
func statsCounts(out string) string {
	var keep []string
	counts := regexp.MustCompile(`^\d+ (matches|matched lines|files contained matches|files searched|bytes searched)$`)
	for _, l := range strings.Split(out, "\n") {
		if counts.MatchString(l) {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// The same query reports the same statistics on every in-process and
// prefiltering engine (the ripgrep engine said "files searched: 2" where
// the others said 415, and in -l mode counted files as matched lines).
func TestGrepStatsAreTheSameOnEveryEngine(t *testing.T) {
	testtool.Need(t, "grep")
	dir := t.TempDir()
	for i, body := range []string{"needle\nx\nneedle needle\n", "none\n", "a needle\n", "", "b\nc\n"} {
		if err := os.WriteFile(filepath.Join(dir, "f"+string(rune('0'+i))+".txt"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, mode := range [][]string{nil, {"-l"}, {"-c"}} {
		t.Run(strings.Join(append([]string{"mode"}, mode...), " "), func(t *testing.T) {
			var first, firstEngine string
			for _, engine := range []string{"native", "grep"} {
				args := append([]string{"grep", "--backend", engine, "--stats"}, mode...)
				out, errOut, code := runCLI(t, append(args, "needle", dir)...)
				if code != 0 {
					t.Fatalf("%s: exit %d: %s", engine, code, errOut)
				}
				got := statsCounts(out)
				if !strings.Contains(got, "5 files searched") {
					t.Errorf("%s: stats %q lack '5 files searched'", engine, got)
				}
				if first == "" {
					first, firstEngine = got, engine
				} else if got != first {
					t.Errorf("stats differ:\n%s:\n%s\n%s:\n%s", firstEngine, first, engine, got)
				}
			}
		})
	}
}
