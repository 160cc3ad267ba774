package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/unicode"

	"github.com/rgkit/rgkit/internal/testtool"
)

// readingTree writes the fixture for the flags about how a file's bytes
// are read: files compressed in every format rg -z knows (gzip with Go's
// encoder, the others with the tool rg itself would run to decompress
// them, which rg needs installed to give its answer), a corrupt and a cut
// gzip file, text in UTF-16 (with and without a byte-order mark), Latin-1,
// Shift_JIS and EUC-KR, CRLF lines, a binary file and a preprocessor
// script.
func readingTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write := func(name string, data []byte) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		testtool.WriteExecutable(t, p, data)
	}
	logText := []byte("start\nfoo one\nbar\nfoo two\r\nbaz foo\nend\n")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(logText)
	zw.Close()
	write("z/log.gz", gz.Bytes())
	write("z/bad.gz", []byte("not gzip at all\n"))
	// Cut before its trailer: gzip and Go's decoder both yield all of the
	// text, then fail. (Cut inside a block, the two decoders flush
	// different amounts of the last partial block.)
	write("z/cut.gz", gz.Bytes()[:gz.Len()-8])
	write("z/plain.txt", []byte("plain foo\n"))
	for _, f := range []struct {
		name string
		args []string
	}{
		{"z/log.bz2", []string{"bzip2", "-c"}}, {"z/log.xz", []string{"xz", "-c"}},
		{"z/log.lzma", []string{"xz", "--format=lzma", "-c"}}, {"z/log.lz4", []string{"lz4", "-c"}},
		{"z/log.br", []string{"brotli", "-c"}}, {"z/log.zst", []string{"zstd", "-q", "-c"}},
		{"z/log.Z", []string{"compress", "-f", "-c"}},
	} {
		tool := testtool.Need(t, f.args[0])
		cmd := exec.Command(tool, f.args[1:]...)
		cmd.Stdin = bytes.NewReader(logText)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%v: %v", f.args, err)
		}
		write(f.name, out)
	}
	// Empty, one byte, and cut files in each format (the tools' messages
	// for them). A cut file is searched with -c only: how much text a
	// decoder flushes before failing differs from the tool's.
	var long bytes.Buffer
	for i := range 3000 {
		fmt.Fprintf(&long, "%d foo line\n", i)
	}
	for _, f := range []struct{ ext, tool string }{
		{"gz", "gzip"}, {"bz2", "bzip2"}, {"xz", "xz"}, {"zst", "zstd"}, {"lz4", "lz4"}, {"Z", "compress"},
	} {
		write("empty/e."+f.ext, nil)
		write("empty/x."+f.ext, []byte("x"))
		cmd := exec.Command(testtool.Need(t, f.tool), "-c")
		if f.tool == "compress" {
			cmd.Args = append(cmd.Args, "-f")
		}
		cmd.Stdin = bytes.NewReader(long.Bytes())
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", f.tool, err)
		}
		write("cut/tail."+f.ext, out[:len(out)-5])
		write("cut/half."+f.ext, out[:len(out)/2])
	}
	utf16le, _ := unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM).NewEncoder().Bytes([]byte("héllo wörld\nfoo 日本\nlast foo"))
	utf16be, _ := unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM).NewEncoder().Bytes([]byte("big foo\nother\n"))
	sjis, _ := japanese.ShiftJIS.NewEncoder().Bytes([]byte("日本語 foo\nテキスト\n"))
	euckr, _ := korean.EUCKR.NewEncoder().Bytes([]byte("한국어 foo\n"))
	write("e/le.txt", utf16le)
	write("e/be.txt", utf16be)
	write("e/bom-le.txt", append([]byte{0xFF, 0xFE}, utf16le...))
	write("e/bom-utf8.txt", []byte("\xEF\xBB\xBFfoo with bom\nand foo\n"))
	write("e/bom-utf8-latin1.txt", []byte("\xEF\xBB\xBFcaf\xe9 foo\n\xc3\xa9t\xc3\xa9 foo\n"))
	write("e/bom-utf8-le.txt", append([]byte{0xEF, 0xBB, 0xBF}, utf16le...))
	write("e/latin1.bin", []byte("0\x82\n$\x02\x01\x00\x82 foo\n"))
	write("e/latin1.txt", []byte("caf\xe9 foo\nna\xefve\n"))
	write("e/c1.txt", []byte("x\x81y x\x8dy x\x9dy x\x85y\nplain\n"))
	write("e/sjis.txt", sjis)
	write("e/euckr.txt", euckr)
	write("c/cr.txt", []byte("a\r\n\r\n\nb\r\nfoo\r\nx foo \r\nlast\r"))
	write("c/blank.txt", []byte("a\r\n\r\n\nb\r\n\r\n"))
	write("c/crlf.txt", []byte("foo\r\nbar foo\r\nfoo bar\r\nlast foo"))
	write("b/bin.dat", []byte("foo1\nbar\x00baz foo\nfoo3\n"))
	write("b/text.txt", []byte("foo text\n"))
	// Large enough to be mapped (past 256 KiB), a NUL before every match:
	// -a and --binary find them, the default stops at the NUL.
	write("big/nul.bin", []byte("x\x00\n"+strings.Repeat("filler line\n", 30000)+"foo after\n"+strings.Repeat("more\n", 1000)+"last foo"))
	write("u/uni.txt", []byte("Straße foo\nÄrger FOO\nk\u212a foo\n"))
	write("pre/a.txt", []byte("alpha foo\n"))
	write("pre/b.md", []byte("beta foo\n"))
	write("n/records", []byte("foo one\x00bar\nfoo two\x00baz\x00cr foo\r\x00nl foo\n\x00"))
	write("n/ctx", []byte("a foo\x00b\x00c\x00d foo\x00e\x00f\x00g\x00h foo\x00"))
	write("n/lines.txt", []byte("no nul foo\nsecond line\n"))
	write("upper.sh", []byte("#!/bin/sh\ntr a-z A-Z\n"))
	write("fail.sh", []byte("#!/bin/sh\necho \"cannot read $1\" >&2\nexit 3\n"))
	return dir
}

// TestReadingFlagsAgainstRg15 runs rg -z, -E, --pre, --crlf,
// --no-unicode, -a and --binary through rg 15.2.0 and through `rgkit grep
// --backend native` (the pure-Go engine) and compares stdout, stderr and
// the exit status byte for byte.
func TestReadingFlagsAgainstRg15(t *testing.T) {
	rg := rg15(t)
	bin := rgkitBin(t)
	dir := readingTree(t)
	env := os.Environ()
	sorted := func(args ...string) []string { return append([]string{"--sort", "path"}, args...) }
	cases := [][]string{
		// -z: every format, counts, offsets, a file named, errors.
		sorted("-z", "foo", "z"), sorted("-z", "-c", "foo", "z"), sorted("-z", "-n", "-b", "foo", "z"),
		sorted("-z", "-o", "-n", "foo$", "z"), sorted("-z", "-l", "foo", "z"), sorted("-z", "-C1", "bar", "z"),
		{"-z", "foo", "z/log.gz"}, {"-z", "-c", "foo", "z/log.xz"}, {"-z", "-n", "--column", "foo", "z/log.Z"},
		{"-z", "foo", "z/bad.gz"}, {"-z", "foo", "z/cut.gz"}, {"-z", "-m1", "-A1", "foo", "z/log.zst"},
		{"foo", "z/log.gz"}, sorted("-z", "--no-search-zip", "-c", "foo", "z"),
		sorted("-z", "foo", "empty"), sorted("-z", "-c", "foo", "cut"),
		{"-z", "--json", "foo", "z/log.xz"}, sorted("-z", "--json", "foo", "z"),
		// -v and --passthru print and count the decompressed lines (they
		// printed nothing, or the compressed bytes as lines: -c said -1),
		// and JSON counts the decompressed bytes.
		sorted("-z", "-v", "foo", "z"), sorted("-z", "-v", "-c", "foo", "z"), sorted("-z", "--passthru", "-n", "-b", "foo", "z"),
		{"-z", "-v", "--json", "foo", "z/log.gz"}, sorted("-z", "-v", "-l", "foo", "z"), sorted("-z", "-v", "--files-without-match", "foo", "z"),
		// -v --files-without-match lists the files with no line that does
		// not match (it listed the files -v's matches left out).
		sorted("-v", "--files-without-match", "foo", "z"), sorted("-v", "--files-without-match", ".", "e"),
		// a compressed file without a match is listed: its NULs are in
		// the compressed bytes, not in what is searched.
		sorted("-z", "--files-without-match", "zzz", "z"), sorted("-z", "--files-without-match", "bar", "z"),
		// -E: transcoding, offsets and columns in the UTF-8 text, BOMs.
		{"-E", "utf-16le", "-n", "--column", "foo", "e/le.txt"}, {"-E", "utf-16le", "-b", "-o", "w.r", "e/le.txt"},
		{"-E", "utf-16be", "foo", "e/be.txt"}, {"-E", "UTF-16", "-c", "foo", "e/le.txt"},
		{"-E", "latin1", "-n", "café", "e/latin1.txt"}, {"-E", "iso-8859-1", "ïve", "e/latin1.txt"},
		// windows-1252's five undefined bytes are their C1 controls, as in
		// encoding_rs (x/text made them U+FFFD); -v prints the text decoded.
		{"-E", "latin1", "-n", "-o", `x.y`, "e/c1.txt"}, {"-E", "latin1", "-v", "-n", "zzz", "e/c1.txt"},
		{"-E", "shift_jis", "日本", "e/sjis.txt"}, {"-E", "sjis", "-o", "テ.", "e/sjis.txt"},
		{"-E", "euc-kr", "한국", "e/euckr.txt"}, {"-E", "latin1", "foo", "e/bom-le.txt"},
		{"-E", "none", "-c", "foo", "e/bom-utf8.txt"}, {"-E", "utf-8", "^foo", "e/bom-utf8.txt"},
		{"-E", "none", "-c", "h", "e/bom-le.txt"}, {"-E", "bogus", "foo", "e/le.txt"},
		// After a UTF-8 mark the rest is read in the encoding asked for
		// (rgkit read it as UTF-8, the mark overriding the label).
		{"-E", "latin1", "-n", "é", "e/bom-utf8-latin1.txt"}, {"-E", "utf-16le", "-n", "wör", "e/bom-utf8-le.txt"},
		{"-E", "sjis", "-c", "foo", "e/bom-utf8-latin1.txt"}, {"-n", "é", "e/bom-utf8-latin1.txt"},
		// A named file read through a decoder: its first line came in
		// rg's first read (the three bytes its decoder peeked at) and is
		// printed before the note.
		{"-E", "latin1", "-n", "[^[:ascii:]]", "e/latin1.bin"}, {"-E", "latin1", "-o", "[^[:ascii:]]", "e/latin1.bin"},
		{"-E", "iso-2022-kr", "foo", "e/le.txt"}, sorted("-E", "utf-16le", "-c", "o", "e"),
		{"-E", "utf-16le", "--json", "wor", "e/le.txt"},
		// A byte-order mark: the file is decoded, named or walked, and -b
		// counts in the decoded text (rg's offsets).
		{"foo", "e/bom-le.txt"}, {"-b", "-n", "foo", "e/bom-le.txt"}, {"--column", "-b", "o", "e/bom-le.txt"},
		{"-b", "foo", "e/bom-utf8.txt"}, {"-b", "-o", "bom", "e/bom-utf8.txt"}, sorted("-b", "foo", "e/bom-le.txt", "e/bom-utf8.txt"),
		sorted("-b", "-g", "bom-*", "foo", "e"),
		// --crlf.
		{"--crlf", "-n", "foo$", "c/crlf.txt"}, {"--crlf", "-x", "foo", "c/crlf.txt"}, {"--crlf", "-c", "^foo", "c/crlf.txt"},
		{"--crlf", "-o", ".*$", "c/crlf.txt"}, {"--crlf", "-n", "-x", "$", "c/blank.txt"}, {"--crlf", "-c", "^$", "c/blank.txt"},
		{"-n", "-x", "$", "c/blank.txt"}, {"--crlf", "-c", `\s`, "c/cr.txt"}, {"--crlf", "-n", "^$", "c/cr.txt"},
		{"--crlf", "-o", `\s+`, "c/cr.txt"}, {"--crlf", "-c", "[^a]", "c/cr.txt"}, {"--crlf", "-n", "-x", "last", "c/cr.txt"},
		{"--crlf", "-n", "-o", "^.", "c/cr.txt"}, {"-c", `\s`, "c/cr.txt"}, {"--crlf", "-x", "foo$", "c/crlf.txt"}, {"--crlf", "-n", "-x", "", "c/blank.txt"}, {"--crlf", "-l", "foo", "c/crlf.txt"}, {"foo$", "c/crlf.txt"},
		// a coloured line ends with rg's "\r\n", even one that had "\n" alone.
		{"--crlf", "--color", "always", "x?", "c/blank.txt"}, {"--crlf", "--color", "always", "-n", "a|^", "c/cr.txt"}, {"--crlf", "--color", "always", "-v", "zzz", "c/cr.txt"},
		// --no-unicode.
		{"--no-unicode", "-o", `\w+`, "u/uni.txt"}, {"--no-unicode", "-i", "-c", "k", "u/uni.txt"}, {"-i", "-c", "k", "u/uni.txt"},
		{"--no-unicode", "-w", "-o", "foo", "u/uni.txt"}, {"--no-unicode", "-w", "-o", "Stra", "u/uni.txt"}, {"-w", "-c", "Stra", "u/uni.txt"}, {"--no-pcre2-unicode", "-o", `\w+`, "u/uni.txt"},
		{"--no-unicode", "--pcre2-unicode", "-o", `\w+`, "u/uni.txt"},
		// -a, --binary, -uuu.
		sorted("-a", "foo", "b"), sorted("-a", "-n", "baz", "b"), {"-a", "-c", `\x00`, "b/bin.dat"},
		sorted("--binary", "-c", "foo", "b"), sorted("-uuu", "-n", "foo", "b"), sorted("--binary", "--no-binary", "-c", "foo", "b"),
		sorted("-c", "foo", "b"), sorted("-a", "--no-text", "-c", "foo", "b"),
		sorted("-a", "-n", "foo", "big"), sorted("--binary", "foo", "big"), sorted("-uuu", "-l", "foo", "big"),
		sorted("--binary", "--count-matches", "--include-zero", "foo", "big", "b"), sorted("-c", "--include-zero", "foo", "big"),
		// A count goes to the end of a binary file (only printed lines stop
		// at its first match): walked with --binary, named, with -j1.
		sorted("--binary", "--count-matches", "foo", "big", "b"), sorted("--binary", "-c", "--include-zero", "foo", "big", "b"),
		sorted("-j1", "--binary", "--count-matches", "--include-zero", "foo", "big", "b"),
		sorted("-c", "--include-zero", "foo", "b/bin.dat", "big/nul.bin"), sorted("--count-matches", "foo", "b/bin.dat", "big/nul.bin"),
		sorted("--count-matches", "--include-zero", "foo", "b/bin.dat", "b/text.txt"), {"-c", "-a", "foo", "big/nul.bin"},
		// Offsets in a file whose NULs rg turned into line breaks: each NUL
		// ends a line, as the engine counted them.
		sorted("--binary", "--json", "foo", "b"), sorted("-uuu", "--json", "foo", "b"), sorted("--binary", "-n", "-b", "foo", "b"),
		sorted("--binary", "--json", "foo", "big"), sorted("--json", "foo", "b/bin.dat", "b"), sorted("-b", "-C1", "foo", "b/bin.dat", "c"),
		sorted("--binary", "--vimgrep", "foo", "b", "c"),
		// ... and in a file named beside eleven others: rg reads it too.
		append([]string{"--json", "foo", "b/bin.dat"}, slices.Repeat([]string{"b/text.txt"}, 10)...),
		// --null-data: NUL ends records; '\n' inside one is a byte that '.'
		// skips and '^'/'$' match around.
		sorted("--null-data", "foo", "n"), sorted("--null-data", "-n", "-b", "foo", "n"), sorted("--null-data", "-c", "bar$", "n"),
		sorted("--null-data", "-c", "^foo", "n"), {"--null-data", "bar.foo", "n/records"}, {"--null-data", `bar\nfoo`, "n/records"},
		{"--null-data", "-C1", "foo", "n/ctx"}, sorted("--null-data", "-o", "o+", "n"), sorted("--null-data", "-l", "foo", "n"),
		{"--null-data", "-x", "baz", "n/records"}, {"--null-data", "--json", "foo", "n/records"}, {"--null-data", "-c", `\s`, "n/records"},
		{"--null-data", "--heading", "-n", "foo", "n/ctx"}, {"--null-data", "-i", "FOO$", "n/records"},
		// --pre.
		sorted("--pre", "./upper.sh", "FOO", "pre"), sorted("--pre", "./upper.sh", "--pre-glob", "*.md", "-i", "beta|alpha", "pre"),
		sorted("--pre", "./fail.sh", "foo", "pre"), sorted("--pre", "./nope.sh", "foo", "pre"), {"--pre", "cat", "-n", "foo", "pre/a.txt"},
		sorted("--pre", "./upper.sh", "--no-pre", "-c", "foo", "pre"),
	}
	all := make([]diffCase, 0, len(cases)+8)
	for _, args := range cases {
		all = append(all, diffCase{args: args})
	}
	// stdin: -E and -a apply to it, -z and --pre do not (rg reads stdin as
	// it is).
	le, _ := os.ReadFile(filepath.Join(dir, "e", "le.txt"))
	gzLog, _ := os.ReadFile(filepath.Join(dir, "z", "log.gz"))
	all = append(all, []diffCase{
		{args: []string{"-E", "utf-16le", "-n", "foo"}, stdin: string(le)},
		{args: []string{"-E", "utf-16le", "-b", "-o", "o"}, stdin: string(le)},
		{args: []string{"-E", "none", "-c", "h"}, stdin: "\xff\xfeh\x00i\x00\n\x00"},
		{args: []string{"-c", "h"}, stdin: "\xff\xfeh\x00i\x00\n\x00"},
		// A UTF-16 mark on stdin: its NULs are the text's, not binary data
		// (rgkit printed "binary file matches").
		{args: []string{"-n", "h"}, stdin: "\xff\xfeh\x00i\x00\n\x00"},
		{args: []string{"-b", "--json", "i"}, stdin: "\xfe\xff\x00h\x00i\x00\n\x00x\x00\n"},
		{args: []string{"-v", "-n", "x"}, stdin: "\xff\xfeh\x00i\x00\n\x00"},
		{args: []string{"--passthru", "-n", "i"}, stdin: "\xff\xfeh\x00i\x00\n\x00"},
		// -E applies to -v's and --passthru's stdin too (rgkit printed the
		// bytes undecoded).
		{args: []string{"-E", "latin1", "-v", "x"}, stdin: "caf\xe9\nx\n"},
		{args: []string{"-E", "latin1", "--passthru", "caf"}, stdin: "caf\xe9\nx\n"},
		{args: []string{"-E", "latin1", "caf."}, stdin: "caf\xe9\n"},
		{args: []string{"-a", "-n", "baz"}, stdin: "foo\nbar\x00baz\n"},
		{args: []string{"-z", "-c", "foo"}, stdin: string(gzLog)},
		{args: []string{"--null-data", "-n", "-b", "foo"}, stdin: "foo one\x00bar\nfoo two\x00baz\x00"},
		{args: []string{"--null-data", "--json", "foo"}, stdin: "foo one\x00bar\nfoo two\x00"},
	}...)
	for _, c := range all {
		t.Run(c.name(), func(t *testing.T) {
			t.Parallel()
			nativeLikeRg15(t, rg, bin, dir, env, c)
		})
	}
}

// nativeLikeRg15 runs c through rg 15 and through `rgkit grep --backend
// native` and fails t unless stdout (normalized), stderr and the exit
// status agree.
func nativeLikeRg15(t *testing.T, rg, bin, dir string, env []string, c diffCase) {
	t.Helper()
	rgOut, rgErr, rgCode := runCase(t, dir, env, []string{rg}, c)
	out, errOut, code := runCase(t, dir, env, []string{bin, "grep", "--backend", "native"}, c)
	if normalize(out, c) != normalize(rgOut, c) || errOut != rgErr || code != rgCode {
		t.Errorf("differs from rg 15\n%s\nrgkit stderr %q\nrg    stderr %q\nexit %d, rg %d",
			firstDiff(normalize(out, c), normalize(rgOut, c)), errOut, rgErr, code, rgCode)
	}
}
