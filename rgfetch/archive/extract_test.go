package archive

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"testing"
)

// extract runs Extract over b and returns what was written.
func extract(b []byte, f Format, member string, lim Limits) ([]byte, error) {
	var out bytes.Buffer
	n, err := Extract(bytes.NewReader(b), int64(len(b)), f, member, &out, lim)
	if err == nil && n != int64(out.Len()) {
		return nil, fmt.Errorf("Extract returned n=%d but wrote %d bytes", n, out.Len())
	}
	if err != nil && out.Len() != 0 {
		return nil, fmt.Errorf("Extract failed (%v) after writing %d bytes", err, out.Len())
	}
	return out.Bytes(), err
}

// goodArchive is a well-formed archive holding rgBody as member.
type goodArchive struct {
	name    string
	archive []byte
	format  Format
	member  string
}

// goodArchives builds one archive per supported format and shape.
func goodArchives(t testing.TB) []goodArchive {
	tarball := tarBytes(t, releaseLayout(topDir, "rg"))
	return []goodArchive{
		{"tar.gz", gzipBytes(t, tarball), TarGz, member},
		{"tar.xz", xzBytes(t, tarball), TarXz, member},
		{"zip", zipBytes(t, zipLayout()), Zip, winMember},
		{"deb with data.tar.xz", debBytes(t, "data.tar.xz", xzBytes(t, tarBytes(t, debLayout()))), Deb, "usr/bin/rg"},
		{"deb with data.tar.gz", debBytes(t, "data.tar.gz", gzipBytes(t, tarBytes(t, debLayout()))), Deb, "usr/bin/rg"},
		{"deb with an uncompressed data.tar", debBytes(t, "data.tar", tarBytes(t, debLayout())), Deb, "usr/bin/rg"},
		{"tar.gz with ./ prefixed names", gzipBytes(t, tarBytes(t, releaseLayout("./"+topDir, "rg"))), TarGz, member},
	}
}

func TestExtractReleaseLayouts(t *testing.T) {
	tests := goodArchives(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := extract(tc.archive, tc.format, tc.member, Limits{})
			if err != nil {
				t.Fatalf("Extract: %v", err)
			}
			if !bytes.Equal(got, rgBody) {
				t.Fatalf("Extract wrote %d bytes that differ from rg's %d", len(got), len(rgBody))
			}
		})
	}
}

func TestExtractBSDArNames(t *testing.T) {
	data := xzBytes(t, tarBytes(t, debLayout()))
	deb := arBytes([]arMem{{name: "debian-binary", body: []byte("2.0\n"), bsd: true}, {name: "data.tar.xz", body: data, bsd: true}})
	got, err := extract(deb, Deb, "usr/bin/rg", Limits{})
	if err != nil || !bytes.Equal(got, rgBody) {
		t.Fatalf("Extract(BSD ar) = %d bytes, %v; want rg", len(got), err)
	}
}

func TestExtractGNULongNameTable(t *testing.T) {
	data := gzipBytes(t, tarBytes(t, debLayout()))
	var buf bytes.Buffer
	buf.WriteString(arMagic)
	table := "a-very-long-member-name.txt/\ndata.tar.gz/\n"
	fmt.Fprintf(&buf, "%-16s%-12d%-6d%-6d%-8o%-10d`\n", "//", 0, 0, 0, 0, len(table))
	buf.WriteString(table)
	fmt.Fprintf(&buf, "%-16s%-12d%-6d%-6d%-8o%-10d`\n", "/29", 0, 0, 0, 0o644, len(data))
	buf.Write(data)
	got, err := extract(buf.Bytes(), Deb, "usr/bin/rg", Limits{})
	if err != nil || !bytes.Equal(got, rgBody) {
		t.Fatalf("Extract(GNU long names) = %d bytes, %v; want rg", len(got), err)
	}
}

// TestExtractRefuses covers every kind of hostile archive: each archive is
// refused with the kind and entry that say why.
func TestExtractRefuses(t *testing.T) {
	tgz := func(es []entry) []byte { return gzipBytes(t, tarBytes(t, es)) }
	layout := func(extra ...entry) []byte { return tgz(releaseLayout(topDir, "rg", extra...)) }
	noRg := func(repl ...entry) []byte { return tgz(replacing(releaseLayout(topDir, "rg"), member, repl...)) }
	deb := func(name string, data []byte) []byte { return debBytes(t, name, data) }
	debTar := func(es []entry) []byte { return deb("data.tar.xz", xzBytes(t, tarBytes(t, es))) }
	zipOf := func(extra ...zipEntry) []byte { return zipBytes(t, zipLayout(extra...)) }
	zipNoRg := func(extra ...zipEntry) []byte {
		var es []zipEntry
		for _, e := range zipLayout(extra...) {
			if e.name != winMember || e.raw != nil || e.mode != 0 {
				es = append(es, e)
			}
		}
		return zipBytes(t, es)
	}
	full := tarBytes(t, releaseLayout(topDir, "rg"))
	fullZip := zipOf()
	fullDeb := debTar(debLayout())

	tests := []struct {
		name    string
		archive []byte
		format  Format
		member  string // default: member for tar, winMember for zip, usr/bin/rg for deb
		lim     Limits
		kind    ErrorKind
		entry   string // the entry the error must name ("" = don't care)
	}{
		// 28: traversal and unsafe names anywhere in the archive.
		{name: "dot-dot entry", archive: layout(entry{name: "../../.bashrc", body: []byte("x")}), kind: Traversal, entry: "../../.bashrc"},
		{name: "dot-dot inside a path", archive: layout(entry{name: topDir + "/../../x", body: []byte("x")}), kind: Traversal},
		{name: "absolute entry", archive: layout(entry{name: "/etc/passwd", body: []byte("x")}), kind: Traversal, entry: "/etc/passwd"},
		{name: "drive letter", archive: layout(entry{name: `C:\x`, body: []byte("x")}), kind: Traversal},
		{name: "drive letter with slash", archive: layout(entry{name: "C:/x", body: []byte("x")}), kind: Traversal},
		{name: "backslash climb", archive: layout(entry{name: `a\..\..\x`, body: []byte("x")}), kind: Traversal},
		// A tar name cannot carry a NUL (USTAR terminates at it; archive/tar
		// rejects it in PAX records), a zip name can.
		{name: "zip NUL in name", archive: zipOf(zipEntry{name: winTopDir + "/rg.exe\x00.txt", body: []byte("x")}), format: Zip, kind: Traversal},
		{name: "ar NUL in BSD name", archive: arBytes([]arMem{{name: "data\x00.tar.xz", body: []byte("x"), bsd: true}}), format: Deb, kind: Traversal},
		{name: "traversal after the member", archive: tgz(append(releaseLayout(topDir, "rg"), entry{name: "../evil", body: []byte("x")})), kind: Traversal},
		{name: "symlink elsewhere escaping", archive: layout(entry{name: topDir + "/doc/x", typ: tar.TypeSymlink, link: "../../../etc/shadow"}), kind: Traversal},
		{name: "symlink elsewhere absolute", archive: layout(entry{name: topDir + "/doc/x", typ: tar.TypeSymlink, link: "/etc/shadow"}), kind: Traversal},
		{name: "hardlink elsewhere absolute", archive: layout(entry{name: topDir + "/doc/x", typ: tar.TypeLink, link: "/etc/shadow"}), kind: Traversal},
		{name: "zip traversal", archive: zipOf(zipEntry{name: "../../evil.exe", body: []byte("x")}), format: Zip, kind: Traversal, entry: "../../evil.exe"},
		{name: "zip absolute", archive: zipOf(zipEntry{name: "/tmp/evil", body: []byte("x")}), format: Zip, kind: Traversal},
		{name: "zip symlink elsewhere escaping", archive: zipOf(zipEntry{name: winTopDir + "/doc/x", body: []byte("../../../etc/passwd"), mode: fs.ModeSymlink | 0o777}), format: Zip, kind: Traversal, entry: winTopDir + "/doc/x"},
		{name: "zip symlink elsewhere absolute", archive: zipOf(zipEntry{name: winTopDir + "/doc/x", body: []byte("/etc/passwd"), mode: fs.ModeSymlink | 0o777}), format: Zip, kind: Traversal},
		{name: "zip local symlink elsewhere is fine", archive: zipOf(zipEntry{name: winTopDir + "/doc/x", body: []byte("../README.md"), mode: fs.ModeSymlink | 0o777}), format: Zip},
		{name: "tar local symlink elsewhere is fine", archive: layout(entry{name: topDir + "/doc/x", typ: tar.TypeSymlink, link: "../README.md"})},
		{name: "zip backslash", archive: zipOf(zipEntry{name: `..\..\evil.exe`, body: []byte("x")}), format: Zip, kind: Traversal},
		{name: "deb data traversal", archive: debTar(debLayout(entry{name: "./../../etc/cron.d/x", body: []byte("x")})), format: Deb, kind: Traversal},
		{name: "ar member name traversal", archive: arBytes([]arMem{{name: "debian-binary", body: []byte("2.0\n")}, {name: "../data.tar.xz", body: []byte("x"), bsd: true}}), format: Deb, kind: Traversal},

		// 29: the member is not a regular file.
		{name: "rg is a symlink to /bin/sh", archive: noRg(entry{name: member, typ: tar.TypeSymlink, link: "/bin/sh"}), kind: Traversal},
		{name: "rg is a local symlink", archive: noRg(entry{name: member, typ: tar.TypeSymlink, link: "README.md"}), kind: Link, entry: member},
		{name: "rg is a hardlink to /etc/shadow", archive: noRg(entry{name: member, typ: tar.TypeLink, link: "/etc/shadow"}), kind: Traversal},
		{name: "rg is a local hardlink", archive: noRg(entry{name: member, typ: tar.TypeLink, link: topDir + "/README.md"}), kind: Link, entry: member},
		{name: "rg is a char device", archive: noRg(entry{name: member, typ: tar.TypeChar}), kind: NotRegular, entry: member},
		{name: "rg is a block device", archive: noRg(entry{name: member, typ: tar.TypeBlock}), kind: NotRegular},
		{name: "rg is a FIFO", archive: noRg(entry{name: member, typ: tar.TypeFifo}), kind: NotRegular},
		{name: "rg is a directory", archive: noRg(entry{name: member + "/", typ: tar.TypeDir}), kind: NotRegular},
		{name: "zip rg is a symlink to cmd.exe", archive: zipNoRg(zipEntry{name: winMember, body: []byte("C:/Windows/System32/cmd.exe"), mode: fs.ModeSymlink | 0o777}), format: Zip, kind: Traversal, entry: winMember},
		{name: "zip rg is a local symlink", archive: zipNoRg(zipEntry{name: winMember, body: []byte("README.md"), mode: fs.ModeSymlink | 0o777}), format: Zip, kind: Link, entry: winMember},
		{name: "zip rg is a directory", archive: zipNoRg(zipEntry{name: winMember + "/", mode: fs.ModeDir | 0o755}), format: Zip, kind: NotRegular},
		{name: "zip rg is a named pipe", archive: zipNoRg(zipEntry{name: winMember, body: []byte("x"), mode: fs.ModeNamedPipe | 0o644}), format: Zip, kind: NotRegular},
		{name: "deb usr/bin/rg is a symlink", archive: debTar(replacing(debLayout(), "./usr/bin/rg", entry{name: "./usr/bin/rg", typ: tar.TypeSymlink, link: "../../bin/sh"})), format: Deb, kind: Link},

		// 30: duplicates.
		{name: "tar duplicate rg", archive: layout(entry{name: member, body: []byte("evil"), mode: 0o755}), kind: Duplicate, entry: member},
		{name: "tar duplicate via ./ prefix", archive: layout(entry{name: "./" + member, body: []byte("evil"), mode: 0o755}), kind: Duplicate},
		{name: "tar duplicate via ./ inside the path", archive: layout(entry{name: topDir + "/./rg", body: []byte("evil"), mode: 0o755}), kind: Duplicate},
		{name: "zip central-directory duplicate", archive: zipOf(zipEntry{name: winMember, body: []byte("evil")}), format: Zip, kind: Duplicate, entry: winMember},
		{name: "deb duplicate usr/bin/rg", archive: debTar(debLayout(entry{name: "./usr/bin/rg", body: []byte("evil")})), format: Deb, kind: Duplicate},
		{name: "deb two data members", archive: arBytes([]arMem{{name: "debian-binary", body: []byte("2.0\n")}, {name: "data.tar.gz", body: []byte("x")}, {name: "data.tar.xz", body: []byte("y")}}), format: Deb, kind: Duplicate},

		// 31: near-miss names are never selected.
		{name: "only AppleDouble ._rg", archive: noRg(entry{name: topDir + "/._rg", body: rgBody}), kind: NotFound},
		{name: "only evil/rg", archive: noRg(entry{name: "evil/rg", body: rgBody}), kind: NotFound},
		{name: "only a nested sub/rg", archive: noRg(entry{name: topDir + "/sub/rg", body: rgBody}), kind: NotFound},
		{name: "only a bare rg at the root", archive: noRg(entry{name: "rg", body: rgBody}), kind: NotFound},
		{name: "other version's directory", archive: tgz(releaseLayout("ripgrep-14.1.1-"+testTriple, "rg")), kind: NotFound},
		{name: "zip: only rg without .exe", archive: zipNoRg(zipEntry{name: winTopDir + "/rg", body: rgBody}), format: Zip, kind: NotFound},
		{name: "deb: only bin/rg", archive: debTar(replacing(debLayout(), "./usr/bin/rg", entry{name: "./bin/rg", body: rgBody})), format: Deb, kind: NotFound},

		// 32: oversize entries and bombs.
		{name: "header claims 4 GiB", archive: tgz(releaseLayout(topDir, "rg", entry{name: member, size: 4 << 30})), kind: TooLarge, entry: member},
		{name: "member over a small cap", archive: gzipBytes(t, full), lim: Limits{MaxMemberSize: int64(len(rgBody)) - 1}, kind: TooLarge, entry: member},
		{name: "member exactly at the cap is fine", archive: gzipBytes(t, full), lim: Limits{MaxMemberSize: int64(len(rgBody))}},
		{name: "gzip bomb before the member", archive: layout(entry{name: topDir + "/zeros", body: make([]byte, 8<<20)}), lim: Limits{MaxTotal: 1 << 20}, kind: TooLarge},
		{name: "xz bomb before the member", archive: xzBytes(t, tarBytes(t, releaseLayout(topDir, "rg", entry{name: topDir + "/zeros", body: make([]byte, 8<<20)}))), format: TarXz, lim: Limits{MaxTotal: 1 << 20}, kind: TooLarge},
		{name: "zip UncompressedSize64 = 2^63", archive: zipNoRg(zipEntry{name: winMember, body: rgBody, raw: &zip.FileHeader{Method: zip.Store, CRC32: 1, CompressedSize64: uint64(len(rgBody)), UncompressedSize64: 1 << 63}}), format: Zip, kind: TooLarge, entry: winMember},
		{name: "deb member over the cap", archive: fullDeb, format: Deb, lim: Limits{MaxMemberSize: 10}, kind: TooLarge},

		// 33: zip integrity.
		{name: "zip wrong CRC", archive: zipNoRg(zipEntry{name: winMember, body: rgBody, raw: &zip.FileHeader{Method: zip.Store, CRC32: 0xdeadbeef, CompressedSize64: uint64(len(rgBody)), UncompressedSize64: uint64(len(rgBody))}}), format: Zip, kind: Corrupt, entry: winMember},
		{name: "zip zeroed CRC (archive/zip skips the check)", archive: zipNoRg(zipEntry{name: winMember, body: rgBody, raw: &zip.FileHeader{Method: zip.Store, CRC32: 0, CompressedSize64: uint64(len(rgBody)), UncompressedSize64: uint64(len(rgBody))}}), format: Zip, kind: Corrupt},
		{name: "zip data longer than declared", archive: zipNoRg(zipEntry{name: winMember, body: rgBody, raw: &zip.FileHeader{Method: zip.Store, CRC32: 1, CompressedSize64: uint64(len(rgBody)), UncompressedSize64: 100}}), format: Zip, kind: Corrupt},
		{name: "zip unknown compression method", archive: zipNoRg(zipEntry{name: winMember, body: rgBody, raw: &zip.FileHeader{Method: 99, CRC32: 1, CompressedSize64: uint64(len(rgBody)), UncompressedSize64: uint64(len(rgBody))}}), format: Zip, kind: Unsupported},
		{name: "zip truncated central directory", archive: fullZip[:len(fullZip)-30], format: Zip, kind: Corrupt},

		// 35: .deb compressions and shapes.
		{name: "deb data.tar.zst", archive: deb("data.tar.zst", []byte("(\xb5/\xfd")), format: Deb, kind: Unsupported, entry: "data.tar.zst"},
		{name: "deb data.tar.bz2", archive: deb("data.tar.bz2", []byte("BZh9")), format: Deb, kind: Unsupported, entry: "data.tar.bz2"},
		{name: "deb data.tar.lzma", archive: deb("data.tar.lzma", []byte("]\x00\x00")), format: Deb, kind: Unsupported},
		{name: "deb with control only", archive: arBytes([]arMem{{name: "debian-binary", body: []byte("2.0\n")}, {name: "control.tar.xz", body: []byte("x")}}), format: Deb, kind: NotFound},
		{name: "not an ar archive", archive: gzipBytes(t, full), format: Deb, kind: Corrupt},
		{name: "ar header with a bad size", archive: append([]byte(arMagic), []byte(fmt.Sprintf("%-16s%-12d%-6d%-6d%-8o%-10s`\n", "data.tar.xz/", 0, 0, 0, 0o644, "-5"))...), format: Deb, kind: Corrupt},
		{name: "ar header with a bad terminator", archive: append([]byte(arMagic), []byte(fmt.Sprintf("%-16s%-12d%-6d%-6d%-8o%-10d!!", "data.tar.xz/", 0, 0, 0, 0o644, 0))...), format: Deb, kind: Corrupt},
		{name: "ar GNU long-name reference out of range", archive: append([]byte(arMagic), []byte(fmt.Sprintf("%-16s%-12d%-6d%-6d%-8o%-10d`\n", "/99", 0, 0, 0, 0o644, 0))...), format: Deb, kind: Corrupt},
		{name: "ar BSD name longer than the member", archive: append([]byte(arMagic), []byte(fmt.Sprintf("%-16s%-12d%-6d%-6d%-8o%-10d`\nab", "#1/50", 0, 0, 0, 0o644, 2))...), format: Deb, kind: Corrupt},

		// 36: entry cap.
		{name: "10,001 tiny entries before rg", archive: layout(manyEntries(10_001)...), kind: TooManyEntries},
		{name: "entry cap counts every entry", archive: gzipBytes(t, full), lim: Limits{MaxEntries: 3}, kind: TooManyEntries},

		// Misc.
		{name: "empty file", archive: nil, kind: Corrupt},
		{name: "not gzip", archive: full, kind: Corrupt},
		{name: "gzip of garbage", archive: gzipBytes(t, []byte("this is not a tar file at all, just text that fills a block......")), kind: Corrupt},
		{name: "xz given as gzip", archive: xzBytes(t, full), kind: Corrupt},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			format, mem := tc.format, tc.member
			if format == 0 {
				format = TarGz
			}
			if mem == "" {
				mem = map[Format]string{TarGz: member, TarXz: member, Zip: winMember, Deb: "usr/bin/rg"}[format]
			}
			got, err := extract(tc.archive, format, mem, tc.lim)
			if tc.kind == 0 {
				if err != nil || !bytes.Equal(got, rgBody) {
					t.Fatalf("Extract = %d bytes, %v; want rg", len(got), err)
				}
				return
			}
			var ae *Error
			if !errors.As(err, &ae) {
				t.Fatalf("Extract = %d bytes, %v; want an *Error of kind %v", len(got), err, tc.kind)
			}
			if ae.Kind != tc.kind {
				t.Fatalf("Extract error %q is of kind %v; want %v", err, ae.Kind, tc.kind)
			}
			if tc.entry != "" && ae.Entry != tc.entry {
				t.Errorf("Extract error %q names entry %q; want %q", err, ae.Entry, tc.entry)
			}
			if !errors.Is(err, &Error{Kind: tc.kind}) {
				t.Errorf("errors.Is(err, &Error{Kind: %v}) = false", tc.kind)
			}
			if len(got) != 0 {
				t.Errorf("refused archive still wrote %d bytes", len(got))
			}
		})
	}
}

// manyEntries returns n empty regular files.
func manyEntries(n int) []entry {
	es := make([]entry, n)
	for i := range es {
		es[i] = entry{name: fmt.Sprintf("%s/pad/%05d", topDir, i)}
	}
	return es
}

// TestExtractTruncated cuts each format at many points: every cut is an
// error, never a short binary.
func TestExtractTruncated(t *testing.T) {
	for _, f := range goodArchives(t) {
		t.Run(f.name, func(t *testing.T) {
			cuts := 0
			for cut := 0; cut < len(f.archive); cut += 1 + cut/16 {
				got, err := extract(f.archive[:cut], f.format, f.member, Limits{})
				if err == nil {
					t.Fatalf("archive cut to %d of %d bytes: Extract succeeded with %d bytes", cut, len(f.archive), len(got))
				}
				var ae *Error
				if !errors.As(err, &ae) {
					t.Fatalf("cut %d: error %v is not an *Error", cut, err)
				}
				cuts++
			}
			// The last byte alone, too (gzip/xz trailers).
			if _, err := extract(f.archive[:len(f.archive)-1], f.format, f.member, Limits{}); err == nil && f.format != Deb {
				t.Fatalf("archive missing its last byte: Extract succeeded")
			}
			t.Logf("%d cuts refused", cuts)
		})
	}
}

// TestExtractIgnoresModeBits: a setuid/setgid mode on rg does not matter
// here; the installer sets 0755 itself.
func TestExtractIgnoresModeBits(t *testing.T) {
	for _, mode := range []int64{0o4777, 0o6755, 0o644, 0o000} {
		es := replacing(releaseLayout(topDir, "rg"), member, entry{name: member, body: rgBody, mode: mode})
		got, err := extract(gzipBytes(t, tarBytes(t, es)), TarGz, member, Limits{})
		if err != nil || !bytes.Equal(got, rgBody) {
			t.Errorf("Extract(rg with mode %#o) = %d bytes, %v; want the bytes", mode, len(got), err)
		}
	}
}

func TestExtractTotalCapCountsEverything(t *testing.T) {
	// 8 MiB of zeros *after* rg: the member was found, but the archive is
	// still a bomb and is refused.
	es := append(releaseLayout(topDir, "rg"), entry{name: topDir + "/zeros", body: make([]byte, 8<<20)})
	_, err := extract(gzipBytes(t, tarBytes(t, es)), TarGz, member, Limits{MaxTotal: 1 << 20})
	if !errors.Is(err, &Error{Kind: TooLarge}) {
		t.Fatalf("Extract = %v; want TooLarge", err)
	}
	// The same archive is fine under the default cap.
	if _, err := extract(gzipBytes(t, tarBytes(t, es)), TarGz, member, Limits{}); err != nil {
		t.Fatalf("Extract under default caps = %v", err)
	}
}

func TestExtractDefaultTotalCapStopsABomb(t *testing.T) {
	if testing.Short() {
		t.Skip("decompresses 256 MiB")
	}
	// 300 MiB of zeros compresses to ~300 KB: the default 256 MiB cap stops it.
	t.Parallel()
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	tw := tar.NewWriter(zw)
	tw.WriteHeader(&tar.Header{Name: topDir + "/zeros", Typeflag: tar.TypeReg, Mode: 0o644, Size: 300 << 20})
	io.CopyN(tw, zeroReader{}, 300<<20)
	tw.Close()
	zw.Close()
	bomb := buf.Bytes()
	t.Logf("bomb: %d bytes compressed", len(bomb))
	if _, err := extract(bomb, TarGz, member, Limits{}); !errors.Is(err, &Error{Kind: TooLarge}) {
		t.Fatalf("Extract(bomb) = %v; want TooLarge", err)
	}
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) { clear(p); return len(p), nil }

func TestExtractInvalidMemberName(t *testing.T) {
	a := gzipBytes(t, tarBytes(t, releaseLayout(topDir, "rg")))
	for _, m := range []string{"", "./" + member, "/" + member, "../rg", topDir + "/", `a\rg`} {
		if _, err := extract(a, TarGz, m, Limits{}); err == nil {
			t.Errorf("Extract(member %q) succeeded; want an error", m)
		}
	}
}

func TestFormatOf(t *testing.T) {
	tests := []struct {
		name string
		want Format
	}{
		{"ripgrep-15.1.0-x86_64-unknown-linux-musl.tar.gz", TarGz},
		{"x.tgz", TarGz},
		{"X.TAR.GZ", TarGz},
		{"x.tar.xz", TarXz},
		{"x.txz", TarXz},
		{"ripgrep-15.1.0-x86_64-pc-windows-msvc.zip", Zip},
		{"ripgrep_15.1.0-1_amd64.deb", Deb},
		{"/var/cache/apt/archives/ripgrep_13.0.0-4+b2_amd64.deb", Deb},
	}
	for _, tc := range tests {
		if got, err := FormatOf(tc.name); err != nil || got != tc.want {
			t.Errorf("FormatOf(%q) = %v, %v; want %v", tc.name, got, err, tc.want)
		}
	}
	for _, bad := range []string{"x.tar", "x.tar.zst", "x.tar.bz2", "x.7z", "x.gz", "rg", "x.tar.gz.sha256", ""} {
		if got, err := FormatOf(bad); err == nil {
			t.Errorf("FormatOf(%q) = %v, nil; want an error", bad, got)
		} else if !strings.Contains(err.Error(), "unsupported") {
			t.Errorf("FormatOf(%q) error %q does not say unsupported", bad, err)
		}
	}
}

func TestErrorMessages(t *testing.T) {
	tests := []struct {
		err  *Error
		want string
	}{
		{&Error{Kind: Link, Entry: member, Detail: "symlink to /bin/sh"}, `archive: entry "` + member + `": is a link: symlink to /bin/sh`},
		{&Error{Kind: Corrupt, Detail: "gzip: unexpected EOF (truncated)"}, "archive: corrupt archive: gzip: unexpected EOF (truncated)"},
		{&Error{Kind: TooManyEntries}, "archive: too many entries"},
	}
	for _, tc := range tests {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("Error() = %q; want %q", got, tc.want)
		}
	}
}

// asError is errors.As for *Error.
func asError(err error, target **Error) bool { return errors.As(err, target) }

// TestErrorUnwrap: the cause stays reachable, so callers can tell a
// truncated download (io.ErrUnexpectedEOF) from a bad checksum.
func TestErrorUnwrap(t *testing.T) {
	full := gzipBytes(t, tarBytes(t, releaseLayout(topDir, "rg")))
	if _, err := extract(full[:len(full)/2], TarGz, member, Limits{}); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("truncated tar.gz: %v does not wrap io.ErrUnexpectedEOF", err)
	}
	badCRC := zipBytes(t, []zipEntry{{name: winMember, body: rgBody, raw: &zip.FileHeader{Method: zip.Store, CRC32: 1, CompressedSize64: uint64(len(rgBody)), UncompressedSize64: uint64(len(rgBody))}}})
	if _, err := extract(badCRC, Zip, winMember, Limits{}); !errors.Is(err, zip.ErrChecksum) {
		t.Errorf("zip with a wrong CRC: %v does not wrap zip.ErrChecksum", err)
	}
}
