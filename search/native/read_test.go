package native

import (
	"bytes"
	"context"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"sync"
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

// A file the walk listed is read from its listed directory (WalkOptions
// openAt): what is read is that directory's entry, never what a link put in
// its place since leads to, inside the root or outside it.
func TestSourceReadsListedFilesFromTheirDirectory(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("files are opened from their listed directory on Linux only (elsewhere through os.Root, which follows links inside the root)")
	}
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	for _, name := range []string{"a/kept", "a/swapped", "a/inner", "b/target"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(name+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	src, err := (&Reader{}).Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	got := map[string]string{}
	var mu sync.Mutex
	_, err = Walk(context.Background(), WalkOptions{Root: root, NoStat: true, openAt: true, Workers: 1}, func(f File) error {
		// Swap two files for links once they are listed, before they are read.
		switch f.Path {
		case "a/swapped":
			os.Remove(f.Abs)
			if err := os.Symlink(filepath.Join(outside, "secret"), f.Abs); err != nil {
				t.Error(err)
			}
		case "a/inner":
			os.Remove(f.Abs)
			if err := os.Symlink("../b/target", f.Abs); err != nil {
				t.Error(err)
			}
		}
		buf, err := src.Read(f, false)
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			got[f.Path] = "error"
			return nil
		}
		got[f.Path] = string(buf.Data)
		buf.Release()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a/kept": "a/kept\n", "a/swapped": "error", "a/inner": "error", "b/target": "b/target\n"}
	if !maps.Equal(got, want) {
		t.Errorf("read %v, want %v", got, want)
	}
}
