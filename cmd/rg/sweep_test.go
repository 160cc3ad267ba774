//go:build !wasip1

package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
)

// sweepFlags are the flags the sweep draws from (about 140): output modes and
// formats, context, counting, case and word rules, reading (encodings,
// binary, CRLF, NUL data), the walk's filters, and rg's own switches
// that change nothing printed.
var sweepFlags = [][]string{
	{"-i"}, {"-s"}, {"-S"}, {"-w"}, {"-x"}, {"-v"}, {"-F"},
	{"-c"}, {"--count-matches"}, {"-l"}, {"--files-without-match"}, {"-o"},
	{"-n"}, {"-N"}, {"-H"}, {"-I"}, {"--column"}, {"-b"}, {"--heading"}, {"--no-heading"},
	{"-A1"}, {"-B2"}, {"-C1"}, {"--context-separator=@@"}, {"--no-context-separator"},
	{"-m1"}, {"-m3"}, {"--max-columns=30"}, {"--max-columns=30", "--max-columns-preview"},
	{"--json"}, {"--vimgrep"}, {"-r", "<$0>"}, {"--passthru"}, {"-U"}, {"-U", "--multiline-dotall"},
	{"--null"}, {"--null-data"}, {"--crlf"}, {"-a"}, {"--binary"}, {"--no-unicode"},
	{"-E", "latin1"}, {"-E", "utf-16le"}, {"-z"}, {"-tgo"}, {"-Tgo"}, {"-g", "*.go"},
	{"-g", "!*_test.go"}, {"--iglob", "*.GO"}, {"--hidden"}, {"--no-ignore"}, {"-u"}, {"-uu"},
	{"--max-depth=1"}, {"--max-filesize=4K"}, {"--sortr=path"}, {"--field-match-separator=@"},
	{"--field-context-separator=#"}, {"--trim"}, {"--line-buffered"}, {"--stats"},
	{"--no-messages"}, {"--include-zero"}, {"-q"}, {"-j1"}, {"--mmap"}, {"--no-mmap"},
	{"--color=always"}, {"--color=always", "--colors", "match:fg:red"}, {"-P"},
	{"-e", "Decode"}, {"--smart-case"}, {"--no-ignore-vcs"}, {"-L"}, {"--one-file-system"},
	{"--path-separator=#"}, {"--no-line-number"}, {"--with-filename"}, {"--byte-offset"},
	{"--invert-match", "-c"}, {"--max-count=2", "-A2"}, {"--only-matching", "--column"},
	{"-g", "**/testdata/**"}, {"-g", "!**/testdata/**"}, {"--type-add", "foo:*.{go,tar}", "-tfoo"},
	{"--glob-case-insensitive", "-g", "*.GO"}, {"--stop-on-nonmatch"}, {"-p"}, {"--no-filename"},
	{"-A1", "-B1"}, {"-m1", "-v"}, {"-U", "--crlf"}, {"--crlf", "-o"}, {"--no-require-git"},
	{"-j3"}, {"-c", "--include-zero"}, {"-v", "--passthru"}, {"--passthru", "-o"},
	{"-M", "10", "-o"}, {"--color=always", "--hyperlink-format=default"}, {"-P", "-w"}, {"-P", "-U"},
	{"--engine=auto"}, {"-x", "-v"}, {"--no-ignore-dot"}, {"--null", "-l"}, {"-L", "--max-depth=2"},
	{"-r", "[$1]"}, {"-r", "${0}x"}, {"-e", "Reader", "-e", "Writer"}, {"-F", "-e", "a.b", "-e", "(x"},
	{"--type-not=go"}, {"-ttxt"}, {"--max-columns=80", "--max-columns-preview"}, {"--sort=path", "-r", "$0$0"},
	{"--engine=pcre2"}, {"--no-pcre2-unicode", "-P"}, {"--auto-hybrid-regex"}, {"-w", "-i"}, {"-x", "-i"},
	{"--column", "-b", "-n"}, {"--vimgrep", "-o"}, {"--json", "-U"}, {"--json", "-v"}, {"--json", "-A1", "-m1"},
	{"-c", "-U"}, {"--count-matches", "-v"}, {"-l", "-v"}, {"--files-without-match", "-v"}, {"--no-unicode", "-i"},
	{"-E", "utf-8"}, {"-E", "none"}, {"--binary", "-c"}, {"-a", "-c"}, {"--multiline-dotall"}, {"--ignore-file-case-insensitive"},
}

// sweepPatterns are literals, classes, anchors, alternations and one
// that matches nothing.
var sweepPatterns = []string{
	"func", "Error", `\bint\d+`, `^import`, `[A-Z]{3,}`, `err(or)?`, "encoding/",
	"(?i)json", `\w+Err`, "ztqx_never", `\)$`, `^\s*//`, `"[a-z]+"`, "0x[0-9a-f]+",
	`\p{Greek}+`, `[[:upper:]]{2}\w*`, `(\w+)\.(\w+)\(`, `é|ü|ß`, `(?i)straße|STRASSE`, `\d{4}`, `\bx\b`,
	`^$`, `.{100,}`, `\t+`, `[^\x00-\x7F]`, `(?s)func.+?\{`, `\S+@\S+`,
}

// sweepTargets are the paths a case searches, below GOROOT/src: Go
// source, and test data with binary files (tar archives, bzip2 streams)
// and other encodings.
var sweepTargets = [][]string{{"encoding"}, {"encoding/json", "encoding/csv"}, {"encoding/base64/base64.go"}, {"bufio", "encoding/hex"},
	{"archive/tar", "compress/bzip2"}, {"mime"}}

// TestRandomFlagCombinationsMatchRg15 runs command lines of one to three
// flags drawn from sweepFlags, a pattern and a target over part of
// GOROOT/src through rg 15.2.0 and cmd/rg: with --sort=path the two must
// print the same bytes to stdout and stderr and exit alike; without it
// (rg's parallel walk) cmd/rg must print the same lines in some order and
// exit alike. Hand-written cases cover what each flag does; this finds
// what two or three together do that nobody wrote down (a crash of --mmap
// over a tree, --files' terminator under --null-data were found this
// way). RGKIT_SWEEP_SEED and RGKIT_SWEEP_N run other and more cases,
// RGKIT_SWEEP_ROOT over another tree.
func TestRandomFlagCombinationsMatchRg15(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the sweep runs a few hundred processes")
	}
	t.Parallel()
	rg, bin := testtool.ReferenceRg(t), buildRg(t, "")
	src, targets := filepath.Join(testtool.GOROOT(t), "src"), sweepTargets
	if root := os.Getenv("RGKIT_SWEEP_ROOT"); root != "" {
		// Another tree (its ignore files too): the targets are its
		// top-level entries, one or two at a time.
		src, targets = root, nil
		entries, err := os.ReadDir(root)
		if err != nil {
			t.Fatal(err)
		}
		for i, e := range entries {
			targets = append(targets, []string{e.Name()})
			if j := (i * 7) % len(entries); j != i {
				targets = append(targets, []string{e.Name(), entries[j].Name()})
			}
		}
	}
	seed, n := uint64(20261207), 150
	if s, err := strconv.ParseUint(os.Getenv("RGKIT_SWEEP_SEED"), 10, 64); err == nil {
		seed = s
	}
	if v, err := strconv.Atoi(os.Getenv("RGKIT_SWEEP_N")); err == nil {
		n = v
	}
	r := rand.New(rand.NewPCG(seed, seed>>1|1))
	run := func(exe string, args []string) (string, string, int) {
		cmd := exec.Command(exe, args...)
		cmd.Dir, cmd.Env = src, append(os.Environ(), "RIPGREP_CONFIG_PATH=")
		out, errOut, code := testtool.Run(t, cmd)
		return testtool.NormalizeTimings(out), errOut, code
	}
	var statMu sync.Mutex
	stats := map[string]bool{}
	isFile := func(rel string) bool {
		statMu.Lock()
		defer statMu.Unlock()
		ok, seen := stats[rel]
		if !seen {
			fi, err := os.Stat(filepath.Join(src, rel))
			ok = err == nil && fi.Mode().IsRegular()
			stats[rel] = ok
		}
		return ok
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for i := range n {
		var args []string
		for range 1 + r.IntN(3) {
			args = append(args, sweepFlags[r.IntN(len(sweepFlags))]...)
		}
		args = append(args, "--", sweepPatterns[r.IntN(len(sweepPatterns))])
		args = append(args, targets[r.IntN(len(targets))]...)
		sorted := append([]string{"--sort=path"}, args...)
		name := fmt.Sprintf("%03d", i)
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			want, wantErr, wantCode := run(rg, sorted)
			got, gotErr, gotCode := run(bin, sorted)
			if gotCode == 2 && got == "" && strings.Contains(gotErr, "cannot honour this query exactly") {
				// A refusal docs/cli.md lists (-P with --null-data and a
				// pattern that looks at line ends): said, not a silent miss.
				t.Logf("%s: rg %s: refused: %s", name, strings.Join(sorted, " "), strings.TrimSpace(gotErr))
				return
			}
			if got != want || gotErr != wantErr || gotCode != wantCode {
				t.Errorf("%s: rg %s\nexit %d (rg 15.2.0: %d)\nstderr %q\n(rg 15.2.0: %q)\nfirst difference in stdout: %s",
					name, strings.Join(sorted, " "), gotCode, wantCode, gotErr, wantErr, firstDiff(got, want))
				return
			}
			got, gotErr, gotCode = run(bin, args)
			same, inOrder := sameLines(got, want), sameOrderPerFile(got, want, isFile)
			if gotCode != wantCode || !same || !inOrder || strings.Contains(gotErr, "panic") || strings.Contains(gotErr, "fatal error") {
				t.Errorf("%s: rg %s (parallel)\nexit %d (rg 15.2.0 sorted: %d)\nstderr %q\nlines differ: %v; a file's lines out of order: %v",
					name, strings.Join(args, " "), gotCode, wantCode, gotErr, !same, !inOrder)
			}
		}()
	}
	wg.Wait()
}

// sameLines reports whether a and b hold the same lines in any order
// (ended by "\n", or by NUL as --null-data ends them).
func sameLines(a, b string) bool {
	split := func(s string) []string {
		return strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == 0 })
	}
	x, y := split(a), split(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

// sameOrderPerFile reports whether the lines of a and b that begin with
// the same file's path (up to a ':' or '-' after it, as rg prints a path
// before a line, a line number or a note) come in the same order: rg's
// parallel walk orders the files as it pleases, never one file's lines.
// (Lines end at '\n' or NUL, as in sameLines.)
// isFile says which prefixes are files.
func sameOrderPerFile(a, b string, isFile func(string) bool) bool {
	perFile := func(s string) map[string][]string {
		m := map[string][]string{}
		for _, line := range strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == 0 }) {
			// (a path is at most PATH_MAX bytes: looking further made a
			// line of megabytes cost a map lookup of each of its prefixes)
			for i := range min(len(line), 4096) {
				if line[i] != ':' && line[i] != '-' {
					continue
				}
				if p := strings.TrimPrefix(line[:i], "./"); isFile(p) {
					m[p] = append(m[p], line)
					break
				}
			}
		}
		return m
	}
	x, y := perFile(a), perFile(b)
	for p, lines := range x {
		if !slices.Equal(lines, y[p]) {
			return false
		}
	}
	return len(x) == len(y)
}
