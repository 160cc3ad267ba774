package native

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestSourceReadsWholeFiles: the size from the walk is only a hint; a file
// that grew, shrank, or whose size is unknown is still read to its end.
func TestSourceReadsWholeFiles(t *testing.T) {
	root := t.TempDir()
	big := bytes.Repeat([]byte("0123456789abcdef"), 20000) // 320,000 bytes
	if err := os.WriteFile(filepath.Join(root, "big"), big, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "empty"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := (&Reader{MaxPooled: 1 << 10}).Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	for _, c := range []struct {
		name string
		hint int64
		want []byte
	}{
		{"big", int64(len(big)), big},
		{"big", 10, big},      // grew since the walk
		{"big", 1 << 20, big}, // shrank
		{"big", -1, big},      // unknown
		{"empty", 0, nil},
		{"empty", -1, nil},
	} {
		for _, follow := range []bool{false, true} {
			buf, err := src.Read(File{Path: c.name, Abs: filepath.Join(root, c.name), Size: c.hint}, follow)
			if err != nil {
				t.Fatalf("%s (hint %d, follow %v): %v", c.name, c.hint, follow, err)
			}
			if !bytes.Equal(buf.Data, c.want) {
				t.Errorf("%s (hint %d, follow %v): read %d bytes, want %d", c.name, c.hint, follow, len(buf.Data), len(c.want))
			}
			buf.Release()
		}
	}
}

// TestSourceStaysBeneathRoot: without follow, a symbolic link on the path
// that leads out of the root (a directory swapped for a link during the
// walk) is refused; a link that stays inside the root is followed.
func TestSourceStaysBeneathRoot(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, "dir")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret"), filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "real"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "real", "f"), []byte("inside\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real", filepath.Join(root, "inner")); err != nil {
		t.Fatal(err)
	}
	src, err := (&Reader{}).Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if buf, err := src.Read(File{Path: "inner/f", Size: 7}, false); err != nil || string(buf.Data) != "inside\n" {
		t.Errorf("a link inside the root: %q, %v", buf.Data, err)
	}
	for _, rel := range []string{"dir/secret", "link", "../" + filepath.Base(outside) + "/secret"} {
		if buf, err := src.Read(File{Path: rel, Size: 7}, false); err == nil {
			t.Errorf("Read(%q) escaped the root and read %q", rel, buf.Data)
		}
	}
	buf, err := src.Read(File{Path: "link", Abs: filepath.Join(root, "link"), Size: 7}, true)
	if err != nil || string(buf.Data) != "secret\n" {
		t.Errorf("with follow: %q, %v", buf.Data, err)
	}
}
