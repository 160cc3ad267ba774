package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// mmapTree writes files whose NUL byte sits where rg's two ways of reading
// a file see it differently: late.txt has its NUL past the first 64 KiB
// (a mapped file is checked there only, then line by line as lines are
// reported; a read one in every buffer fill), with matches before it,
// after it and on its line; early.txt has one in its first bytes.
func mmapTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	var late strings.Builder
	late.WriteString("first needle line\n")
	for i := 0; late.Len() < 80<<10; i++ {
		fmt.Fprintf(&late, "filler line %d of text\n", i)
	}
	late.WriteString("a nul\x00 here, needle too\nafter nul\nlast needle line\n")
	for name, data := range map[string]string{
		"d/late.txt":  late.String(),
		"d/early.txt": "needle one\nbin\x00ary\nneedle two\n",
		"d/plain.txt": "needle plain\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestMmapBinaryRulesAgainstRg15 runs rg 15.2.0 and `rgkit grep --backend
// native` with --mmap, --no-mmap and neither, on files named and walked,
// with rg's default binary handling, --binary and -a, in content and
// --files-without-match mode, and compares
// stdout, stderr and the exit status byte for byte.
func TestMmapBinaryRulesAgainstRg15(t *testing.T) {
	rg := rg15(t)
	bin := rgkitBin(t)
	dir := mmapTree(t)
	env := os.Environ()
	var cases []diffCase
	for _, mm := range [][]string{nil, {"--mmap"}, {"--no-mmap"}} {
		for _, bm := range [][]string{nil, {"--binary"}, {"-a"}} {
			for _, shape := range [][]string{
				{"-n", "needle"}, {"-n", "first"}, {"-n", "last"}, {"-c", "needle"},
				{"-n", "-A2", "first"}, {"-n", "-B1", "after nul"}, {"-n", "-B1", "needle two"},
				{"--files-without-match", "zzz"}, {"--files-without-match", "needle"}, {"--files-without-match", "-q", "zzz"},
			} {
				for _, where := range [][]string{{"d/late.txt"}, {"d/early.txt"}, {"d/late.txt", "d/early.txt"}, {"--sort", "path", "d"}} {
					args := append(append(append(append([]string{}, mm...), bm...), shape...), where...)
					cases = append(cases, diffCase{args: args})
				}
			}
		}
	}
	// What rg counts as searched in a named file: up to the line where its
	// printer stopped at the NUL (or, on a context line there, up to where
	// that search step began), and a mapped file no further than its NUL.
	// (JSON's bytes_printed counts the elapsed times' digits, which differ
	// between two runs: it is masked, see sameBytesPrinted.)
	for _, mm := range [][]string{nil, {"--mmap"}, {"--no-mmap"}} {
		for _, bm := range [][]string{nil, {"--binary"}, {"-a"}} {
			for _, shape := range [][]string{
				{"--stats", "-n", "needle"}, {"--stats", "-n", "-B1", "after nul"}, {"--stats", "-n", "zzz"},
				{"--stats", "-n", "-A1", "needle"}, {"--stats", "-c", "zzz"},
				{"--json", "-n", "needle"}, {"--json", "-n", "zzz"},
			} {
				for _, where := range [][]string{{"d/late.txt"}, {"d/early.txt"}, {"d/late.txt", "d/early.txt"}} {
					if len(where) > 1 && (shape[2] == "-A1" || shape[2] == "-B1" && len(bm) > 0 && bm[0] == "-a") {
						// Known difference: rg prints context separators
						// around the binary notes of two files searched in
						// parallel (and with -a after the last file's lines)
						// that rgkit does not (docs/cli.md).
						continue
					}
					if shape[0] == "--json" && len(mm) > 0 && mm[0] == "--no-mmap" {
						// Known difference: a read file's lines past its NUL
						// are numbered with the NULs as line ends but located
						// without them, so JSON's absolute_offset and line
						// text differ there (docs/cli.md).
						continue
					}
					args := append(append(append(append([]string{}, mm...), bm...), shape...), where...)
					cases = append(cases, diffCase{args: args})
				}
			}
		}
	}
	// -c and -l with --stats read past the first match, so a walked file
	// whose NUL comes after it is stopped there and rg prints neither its
	// count nor its path. (Not --mmap: a walked mapped file's bytes
	// searched is a known difference, docs/cli.md.)
	for _, mm := range [][]string{nil, {"--no-mmap"}} {
		// (Not -m1 either: with -m reached before a walked file's late NUL
		// its bytes searched comes out wrong, a known difference,
		// docs/cli.md.)
		for _, shape := range [][]string{{"--stats", "-c", "needle"}, {"--stats", "-l", "needle"}} {
			cases = append(cases, diffCase{args: append(append(append([]string{}, mm...), shape...), "--sort", "path", "d")})
		}
	}
	late, err := os.ReadFile(filepath.Join(dir, "d", "late.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, mm := range [][]string{nil, {"--mmap"}, {"--no-mmap"}} {
		for _, shape := range [][]string{{"-n", "first"}, {"-n", "needle"}, {"-c", "needle"}} {
			cases = append(cases, diffCase{args: append(append([]string{}, mm...), shape...), stdin: string(late)})
		}
	}
	for _, c := range cases {
		t.Run(c.name(), func(t *testing.T) {
			t.Parallel()
			rgOut, rgErr, rgCode := runCase(t, dir, env, []string{rg}, c)
			out, errOut, code := runCase(t, dir, env, []string{bin, "grep", "--backend", "native"}, c)
			got, want := sameBytesPrinted(normalize(out, c)), sameBytesPrinted(normalize(rgOut, c))
			if got != want || errOut != rgErr || code != rgCode {
				t.Errorf("differs from rg 15\n%s\nrgkit stderr %q\nrg    stderr %q\nexit %d, rg %d",
					firstDiff(got, want), errOut, rgErr, code, rgCode)
			}
		})
	}
}

// jsonBytesPrinted is JSON's count of the bytes printed, which includes
// the elapsed times' digits.
var jsonBytesPrinted = regexp.MustCompile(`"bytes_printed":[0-9]+`)

// sameBytesPrinted masks JSON's bytes_printed, which differs between two
// runs of the same search.
func sameBytesPrinted(s string) string {
	return jsonBytesPrinted.ReplaceAllString(s, `"bytes_printed":N`)
}
