package archive

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"fmt"
	"io/fs"
	"testing"

	"github.com/ulikunitz/xz"
)

// The test archives mirror ripgrep's release layout:
// a top-level directory named like the archive holding rg, the docs
// and the shell completions.
const (
	testVersion = "15.1.0"
	testTriple  = "x86_64-unknown-linux-musl"
	topDir      = "ripgrep-" + testVersion + "-" + testTriple
	member      = topDir + "/rg"
	winTopDir   = "ripgrep-" + testVersion + "-x86_64-pc-windows-msvc"
	winMember   = winTopDir + "/rg.exe"
)

// rgBody stands in for the binary: recognisable, and not all one byte.
var rgBody = []byte("\x7fELF fake ripgrep " + string(bytes.Repeat([]byte{0, 1, 2, 3, 0xff}, 200)))

// entry is one archive entry to build.
type entry struct {
	name string
	body []byte
	typ  byte   // tar type flag; 0 means a regular file
	link string // link target
	mode int64  // 0 means 0755 for rg, 0644 otherwise
	// size, when non-zero, is written to the header instead of len(body);
	// the archive is then cut short after the header (no body, no end
	// marker), as a hostile archive would be.
	size int64
}

// releaseLayout returns the entries of a real release archive, with extra
// entries placed before the docs.
func releaseLayout(top, exe string, extra ...entry) []entry {
	es := []entry{{name: top + "/", typ: tar.TypeDir}}
	es = append(es, extra...)
	es = append(es,
		entry{name: top + "/" + exe, body: rgBody, mode: 0o755},
		entry{name: top + "/README.md", body: []byte("# ripgrep\n")},
		entry{name: top + "/COPYING", body: []byte("This project is dual-licensed\n")},
		entry{name: top + "/UNLICENSE", body: []byte("This is free and unencumbered software\n")},
		entry{name: top + "/LICENSE-MIT", body: []byte("The MIT License (MIT)\n")},
		entry{name: top + "/doc/", typ: tar.TypeDir},
		entry{name: top + "/doc/CHANGELOG.md", body: []byte("15.1.0\n")},
		entry{name: top + "/doc/FAQ.md", body: []byte("FAQ\n")},
		entry{name: top + "/doc/GUIDE.md", body: []byte("GUIDE\n")},
		entry{name: top + "/doc/rg.1", body: []byte(".TH RG 1\n")},
		entry{name: top + "/complete/", typ: tar.TypeDir},
		entry{name: top + "/complete/rg.bash", body: []byte("_rg() {}\n")},
		entry{name: top + "/complete/rg.fish", body: []byte("complete -c rg\n")},
		entry{name: top + "/complete/_rg.ps1", body: []byte("Register-ArgumentCompleter\n")},
		entry{name: top + "/complete/_rg", body: []byte("#compdef rg\n")},
	)
	return es
}

// replacing returns es with the regular entry named name replaced by repl
// (dropped when repl is empty).
func replacing(es []entry, name string, repl ...entry) []entry {
	var out []entry
	for _, e := range es {
		if e.name == name && e.typ == 0 {
			out = append(out, repl...)
			continue
		}
		out = append(out, e)
	}
	return out
}

// tarBytes writes es as a tar stream.
func tarBytes(t testing.TB, es []entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, e := range es {
		h := &tar.Header{Name: e.name, Typeflag: e.typ, Linkname: e.link, Mode: e.mode, Size: int64(len(e.body)), Format: tar.FormatPAX}
		if h.Typeflag == 0 {
			h.Typeflag = tar.TypeReg
		}
		if h.Mode == 0 {
			h.Mode = 0o644
			if h.Typeflag == tar.TypeDir {
				h.Mode = 0o755
			}
		}
		if h.Typeflag != tar.TypeReg {
			h.Size = 0
		}
		if e.size != 0 {
			h.Size = e.size
			if err := tw.WriteHeader(h); err != nil {
				t.Fatal(err)
			}
			return buf.Bytes() // cut short: no body, no end marker
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatalf("tar header %q: %v", e.name, err)
		}
		if h.Typeflag == tar.TypeReg {
			if _, err := tw.Write(e.body); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func gzipBytes(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func xzBytes(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	// A 64 KiB dictionary: the default 8 MiB one cost most of these
	// tests' time in allocating its tables, for payloads of a few KiB.
	zw, err := xz.WriterConfig{DictCap: 64 << 10}.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// zipEntry is one zip entry to build.
type zipEntry struct {
	name string
	body []byte
	mode fs.FileMode // 0 means a regular 0644 file
	// raw, when set, writes the entry with CreateRaw and these header
	// values, so CRC and sizes can lie.
	raw *zip.FileHeader
}

// zipLayout returns a Windows release archive's entries.
func zipLayout(extra ...zipEntry) []zipEntry {
	var out []zipEntry
	for _, e := range releaseLayout(winTopDir, "rg.exe") {
		ze := zipEntry{name: e.name, body: e.body}
		if e.typ == tar.TypeDir {
			ze.mode = fs.ModeDir | 0o755
		}
		if e.name == winMember {
			out = append(out, extra...)
		}
		out = append(out, ze)
	}
	return out
}

func zipBytes(t testing.TB, es []zipEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range es {
		if e.raw != nil {
			h := *e.raw
			h.Name = e.name
			w, err := zw.CreateRaw(&h)
			if err != nil {
				t.Fatal(err)
			}
			w.Write(e.body)
			continue
		}
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		mode := e.mode
		if mode == 0 {
			mode = 0o644
		}
		h.SetMode(mode)
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatalf("zip %q: %v", e.name, err)
		}
		if !mode.IsDir() {
			w.Write(e.body)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// arMem is one ar member to build.
type arMem struct {
	name string
	body []byte
	bsd  bool // BSD "#1/len" long-name form instead of GNU "name/"
}

// arBytes builds an ar archive as dpkg-deb writes it.
func arBytes(ms []arMem) []byte {
	var buf bytes.Buffer
	buf.WriteString(arMagic)
	for _, m := range ms {
		name, body := m.name+"/", m.body
		if m.bsd {
			name = fmt.Sprintf("#1/%d", len(m.name))
			body = append([]byte(m.name), body...)
		}
		fmt.Fprintf(&buf, "%-16s%-12d%-6d%-6d%-8o%-10d`\n", name, 1700000000, 0, 0, 0o100644, len(body))
		buf.Write(body)
		if len(body)%2 == 1 {
			buf.WriteByte('\n')
		}
	}
	return buf.Bytes()
}

// debLayout returns the data.tar entries of Debian's ripgrep package.
func debLayout(extra ...entry) []entry {
	es := []entry{
		{name: "./", typ: tar.TypeDir},
		{name: "./usr/", typ: tar.TypeDir},
		{name: "./usr/bin/", typ: tar.TypeDir},
	}
	es = append(es, extra...)
	return append(es,
		entry{name: "./usr/bin/rg", body: rgBody, mode: 0o755},
		entry{name: "./usr/share/", typ: tar.TypeDir},
		entry{name: "./usr/share/doc/", typ: tar.TypeDir},
		entry{name: "./usr/share/doc/ripgrep/", typ: tar.TypeDir},
		entry{name: "./usr/share/doc/ripgrep/copyright", body: []byte("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n")},
		entry{name: "./usr/share/man/man1/rg.1.gz", body: []byte("\x1f\x8b\x08 fake man page")},
	)
}

// debBytes builds a .deb whose data member is named dataName and holds data.
func debBytes(t testing.TB, dataName string, data []byte) []byte {
	control := xzBytes(t, tarBytes(t, []entry{{name: "./", typ: tar.TypeDir}, {name: "./control", body: []byte("Package: ripgrep\nVersion: 13.0.0-4+b2\n")}}))
	return arBytes([]arMem{{name: "debian-binary", body: []byte("2.0\n")}, {name: "control.tar.xz", body: control}, {name: dataName, body: data}})
}
