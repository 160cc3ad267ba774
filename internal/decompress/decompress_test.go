package decompress

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
)

// sample is text with repeats (LZ matches), long runs and every byte
// value, big enough to make compress widen its codes to 16 bits and clear
// its table.
func sample() []byte {
	var b bytes.Buffer
	for i := range 30000 {
		fmt.Fprintf(&b, "line %d of the log: foo bar %x\n", i, i*7919)
	}
	for i := range 256 {
		b.WriteByte(byte(i))
	}
	b.WriteString(strings.Repeat("a", 100000))
	return b.Bytes()
}

// The in-process decoders read what the real tools write: each tool (the
// one rg runs, as rg's decompression table names it) compresses the
// sample, and NewReader gives back the sample's bytes.
func TestNewReaderDecodesWhatTheToolsWrite(t *testing.T) {
	t.Parallel()
	data := sample()
	dir := t.TempDir()
	src := filepath.Join(dir, "sample")
	if err := os.WriteFile(src, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		args []string
	}{
		{"x.gz", []string{"gzip", "-c"}},
		{"x.tgz", []string{"gzip", "-9", "-c"}},
		{"x.bz2", []string{"bzip2", "-c"}},
		{"x.xz", []string{"xz", "-1", "-c"}},
		{"x.lzma", []string{"xz", "--format=lzma", "-1", "-c"}},
		{"x.lz4", []string{"lz4", "-c"}},
		{"x.zst", []string{"zstd", "-q", "-c"}},
		{"x.Z", []string{"compress", "-c"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tool := testtool.Need(t, tt.args[0])
			packed, err := exec.Command(tool, append(tt.args[1:], src)...).Output()
			if err != nil {
				t.Fatalf("%v: %v", tt.args, err)
			}
			f, ok := ForPath(tt.name)
			if !ok {
				t.Fatalf("ForPath(%q) found no format", tt.name)
			}
			r, err := NewReader(f, bytes.NewReader(packed), tt.name)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			got, err := io.ReadAll(r)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, data) {
				t.Fatalf("decoded %d bytes, want the sample's %d", len(got), len(data))
			}
			// Cut short: an error worded as the tool's, never a panic.
			r2, err := NewReader(f, bytes.NewReader(packed[:len(packed)/2]), tt.name)
			if err == nil {
				_, err = io.ReadAll(r2)
			}
			var de *Error
			if tt.name != "x.Z" && !errors.As(err, &de) {
				t.Fatalf("a truncated %s: error %v, want a *decompress.Error", tt.name, err)
			}
		})
	}
}

func TestForPathUsesRgsGlobs(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{
		"a.gz": true, "dir/a.tar.gz": true, "a.tgz": true, "a.bz2": true, "a.tbz2": true, "a.xz": true, "a.txz": true,
		"a.lz4": true, "a.lzma": true, "a.br": false /* no brotli decoder linked here */, "a.zst": true, "a.zstd": true, "a.Z": true,
		"a.GZ": false, "a.z": false, "a.zip": false, "a.gz.txt": false, "gz": false, "a.tar": false, "a.bz": false,
	} {
		if _, ok := ForPath(name); ok != want {
			t.Errorf("ForPath(%q) = %v, want %v", name, ok, want)
		}
	}
}

func TestErrorIsFramedAsRgFramesAToolsStderr(t *testing.T) {
	t.Parallel()
	_, err := NewReader(Gzip, strings.NewReader("garbage\n"), "dir/bad.gz")
	div := strings.Repeat("-", 79)
	if want := "\n" + div + "\ngzip: dir/bad.gz: not in gzip format\n" + div; err == nil || err.Error() != want {
		t.Fatalf("error = %q, want %q", err, want)
	}
}
