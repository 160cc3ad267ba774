//go:build !wasip1

package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"regexp"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
)

// TestBinaryNotesAsRg15: where rg finds a NUL byte, it says so in the
// place and with the offset rg 15.2.0 does, whichever way the file is
// read:
//   - a walked file with a match before a late NUL prints the match, then
//     "WARNING: stopped searching binary file after match" (each case is
//     a directory of one file, so the order is checked without --sort:
//     a file printed on its worker once wrote the note before its lines);
//   - a decompressed (-z) file: the NUL is the decompressed stream's, a
//     tar archive named on the command line is "binary file matches",
//     not its lines, and --json's binary_offset is that stream's offset;
//   - a transcoded file (-E utf-16le, or a byte-order mark, UTF-16's or
//     UTF-8's) named on the command line: the NUL is the decoded text's,
//     and a line break (rg reads such a file, it does not map it);
//   - a walked decompressed file whose first line ends in the first three
//     bytes and whose NUL follows: rg's decoder hands those bytes over as
//     a read of their own, so that line is searched (and listed by -l).
func TestBinaryNotesAsRg15(t *testing.T) {
	t.Parallel()
	rg, bin := testtool.ReferenceRg(t), buildRg(t, "")
	testtool.Need(t, "gzip") // (rg -z runs it)
	dir := t.TempDir()
	late := "hello first\n" + strings.Repeat("padding line here\n", 12000) + "x\x00y\nhello after\n"
	utf16 := func(bom []byte, s string) string {
		b := append([]byte{}, bom...)
		for _, c := range []byte(s) {
			b = append(b, c, 0)
		}
		return string(b)
	}
	testtool.WriteTree(t, dir, map[string]string{
		"walk/late.txt":   late,
		"gz/late.txt.gz":  gzipped(t, late),
		"tgz/a.tar.gz":    gzipped(t, tarred(t, "a.txt", "hello world\nfoo\n")),
		"enc/le.txt":      utf16(nil, "hello one\nx\x00y\nhello two\n"),
		"bom/le.txt":      utf16([]byte{0xFF, 0xFE}, "hello one\nx\x00y\nhello two\n"),
		"bom/utf8.txt":    "\xEF\xBB\xBFhello one\nx\x00y\nhello two\n",
		"text/plain.txt":  "hello plain\n",
		"text/plain.gz":   gzipped(t, "hello zipped\n"),
		"early/early.txt": "x\x00\nhello\n",
		// A first line within the three bytes rg's decoder peeks at, then a
		// NUL: rg searches that line before it stops.
		"peek/p.gz": gzipped(t, "\nab\x00cd\n"),
	})
	for _, args := range [][]string{
		{"hello", "walk"},
		{"-n", "-A1", "hello", "walk"},
		{"--json", "hello", "walk"},
		{"-z", "hello", "gz"},
		{"-z", "-n", "hello", "gz"},
		{"-z", "hello", "gz/late.txt.gz"},
		{"-z", "--json", "hello", "gz/late.txt.gz"},
		{"-z", "hello", "tgz/a.tar.gz"},
		{"-z", "-c", "hello", "tgz/a.tar.gz"},
		{"-z", "--json", "hello", "tgz/a.tar.gz"},
		{"-z", "--binary", "hello", "tgz"},
		{"-z", "hello", "tgz"},
		{"-z", "--sort=path", "hello", "text"},
		{"-z", "--sort=path", "hello", "text/plain.gz", "early/early.txt"},
		{"-E", "utf-16le", "hello", "enc/le.txt"},
		{"-E", "utf-16le", "--json", "hello", "enc/le.txt"},
		{"hello", "bom/le.txt"},
		{"--json", "hello", "bom/le.txt"},
		{"--stats", "hello", "bom/le.txt"},
		{"-n", "hello", "bom/utf8.txt"},
		{"--json", "hello", "bom/utf8.txt"},
		{"--sort=path", "-n", "hello", "bom/utf8.txt", "bom/le.txt", "walk/late.txt"},
		{"-E", "none", "h", "bom/le.txt"},
		{"-z", "-l", "x*", "peek"},
		{"-z", "--json", "^$", "peek"},
		{"-z", "-c", "^$", "peek"},
	} {
		sameAsRg15(t, dir, rg, bin, args)
	}
	// A walked decompressed file that rg stops in at a late NUL: it counts
	// as searched the buffer fills up to the NUL's, which depend on how
	// much the decompressor's pipe hands over at a time (196,608 bytes on
	// a quiet machine, 163,830 once on a busy one), so that count is left
	// out; the offset of the NUL and the rest must be rg's.
	args := []string{"-z", "--json", "hello", "gz"}
	searched := regexp.MustCompile(`"bytes_searched":\d+`)
	want := searched.ReplaceAllString(testtool.NormalizeTimings(runIn(t, dir, rg, args)), `"bytes_searched":N`)
	got := searched.ReplaceAllString(testtool.NormalizeTimings(runIn(t, dir, bin, args)), `"bytes_searched":N`)
	if got != want {
		t.Errorf("rg %q: cmd/rg differs from rg 15.2.0:\n%s", args, firstDiff(got, want))
	}
}

// TestMatchesOnlyPastTheNULAsRg15: a walked binary file whose only
// matches lie past its first NUL prints nothing, as in rg. cmd/rg
// panicked there for every pattern whose prefilter looks for a literal
// before the search (fo+, [fb]a?o, \xE9 under --no-unicode): the first
// occurrence was past the end of the text it keeps.
func TestMatchesOnlyPastTheNULAsRg15(t *testing.T) {
	t.Parallel()
	rg, bin := testtool.ReferenceRg(t), buildRg(t, "")
	dir := t.TempDir()
	testtool.WriteTree(t, dir, map[string]string{
		"bin/b.p12":  "0\x82\n$\x02\x00abc\n" + strings.Repeat("x", 900) + "\nfoo bar \xe9 baz\n",
		"bin/ok.txt": "nothing here\n",
	})
	for _, p := range []string{"fo+", `f\w\wb`, `[fb]a?o`, "foo", "(?i)foo", "foo|baz", `(?-u:\xE9)`, `(?-u:.)(?-u:\xE9)`} {
		for _, flags := range [][]string{{}, {"-c"}, {"-l"}, {"--json"}, {"--no-unicode"}} {
			args := append(append([]string{}, flags...), "--", p, "bin")
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				t.Parallel()
				sameAsRg15(t, dir, rg, bin, args)
			})
		}
	}
}

// gzipped is s compressed with gzip.
func gzipped(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	if _, err := w.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// tarred is a tar archive of one file, name, holding s.
func tarred(t *testing.T, name, s string) string {
	t.Helper()
	var b bytes.Buffer
	w := tar.NewWriter(&b)
	if err := w.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(s)), Typeflag: tar.TypeReg}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
