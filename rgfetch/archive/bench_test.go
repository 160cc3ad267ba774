package archive

import (
	"bytes"
	"io"
	"os"
	"testing"
)

// BenchmarkExtract measures extracting the system rg (4.5 MB for Debian's
// 13.0.0) from each format, the cost an install adds after the download.
func BenchmarkExtract(b *testing.B) {
	rg, err := os.ReadFile(systemRg)
	if err != nil {
		b.Skipf("no system rg: %v", err)
	}
	tarball := tarBytes(b, replacing(releaseLayout(topDir, "rg"), member, entry{name: member, body: rg, mode: 0o755}))
	zipped := zipBytes(b, []zipEntry{{name: winMember, body: rg}})
	debTar := tarBytes(b, replacing(debLayout(), "./usr/bin/rg", entry{name: "./usr/bin/rg", body: rg, mode: 0o755}))
	for _, bc := range []struct {
		name    string
		archive []byte
		format  Format
		member  string
	}{
		{"tar.gz", gzipBytes(b, tarball), TarGz, member},
		{"tar.xz", xzBytes(b, tarball), TarXz, member},
		{"zip", zipped, Zip, winMember},
		{"deb(xz)", debBytes(b, "data.tar.xz", xzBytes(b, debTar)), Deb, "usr/bin/rg"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(rg)))
			for b.Loop() {
				if _, err := Extract(bytes.NewReader(bc.archive), int64(len(bc.archive)), bc.format, bc.member, io.Discard, Limits{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
