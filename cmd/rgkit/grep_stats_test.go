package main

import (
	"bytes"
	"os"
	"os/exec"
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

// A binary file without a match still counts as rg counts it in --stats'
// and --json's "bytes searched" (the bytes before the buffer that held the
// NUL: none here), although without those flags the native engine does not
// look for its NUL at all (native.Engine.NoStats).
func TestGrepStatsCountBinaryFilesWithoutAMatchAsRgDoes(t *testing.T) {
	rg := testtool.ReferenceRg(t) // rg 13 and 14 count a binary file whole
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "b.bin"), append([]byte("x\n\x00"), bytes.Repeat([]byte("abc\n"), 100000)...), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "t.txt"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bytesSearched := regexp.MustCompile(`(\d+) bytes searched|"bytes_searched":(\d+)`)
	for _, backend := range []string{"native", "grep", "auto"} {
		for _, flag := range []string{"--stats", "--json"} {
			t.Run(backend+" "+flag, func(t *testing.T) {
				want, err := exec.Command(rg, flag, "zzz", dir).Output()
				if len(want) == 0 {
					t.Fatalf("rg %s: %v", flag, err)
				}
				got, errOut, code := runCLI(t, "grep", "--backend", backend, flag, "zzz", dir)
				if code != 1 {
					t.Fatalf("exit %d: %s", code, errOut)
				}
				w, g := bytesSearched.FindAllString(string(want), -1), bytesSearched.FindAllString(got, -1)
				if len(w) == 0 || strings.Join(g, " ") != strings.Join(w, " ") {
					t.Errorf("bytes searched: %q, rg says %q", g, w)
				}
			})
		}
	}
}
