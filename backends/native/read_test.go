package native

import (
	"bytes"
	"context"
	"fmt"
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

// Reading a mapped file between two read ones leaves the pool's grown
// buffer to the next read: the pool held an empty buffer per mapped file
// before, the next read grew a fresh one, and with a few large files the
// pool came to hold maxFree buffers of a megabyte each for two workers.
func TestReaderPoolReusesItsBufferAcrossMappedFiles(t *testing.T) {
	read, mapped := bytes.Repeat([]byte("r\n"), mapMin/4), bytes.Repeat([]byte("m\n"), mapMin)
	r, src := mappingSource(t, map[string][]byte{"read": read, "mapped": mapped})
	buffers := map[*byte]bool{}
	for range 10 {
		for _, f := range []File{{Path: "read", Size: int64(len(read))}, {Path: "mapped", Size: int64(len(mapped))}} {
			buf, err := src.Read(f, false)
			if err != nil {
				t.Fatal(err)
			}
			if !buf.mapped {
				buffers[&buf.Data[0]] = true
			}
			buf.Release()
		}
	}
	if len(buffers) != 1 || len(r.pool.free) != 1 {
		t.Errorf("%d buffers read into, %d pooled; want 1 and 1", len(buffers), len(r.pool.free))
	}
}

// The pooled read buffers of a search stay under 320 KiB whatever the sizes
// of the files: larger files are mapped (a megabyte-sized buffer per
// worker, kept in the pool, was most of the heap of a search of the Linux
// tree).
func TestReaderBuffersStayNearTheMapThreshold(t *testing.T) {
	sizes := []int{100 << 10, mapMin - 1, 600 << 10, 900 << 10, 3 << 20}
	files := map[string][]byte{}
	for i, n := range sizes {
		files[fmt.Sprint(i)] = bytes.Repeat([]byte("x\n"), n/2)
	}
	r, src := mappingSource(t, files)
	for _, known := range []bool{true, false} { // the walk's size, or none (NoStat)
		for i, n := range sizes {
			f := File{Path: fmt.Sprint(i), Size: -1}
			if known {
				f.Size = int64(n / 2 * 2)
			}
			buf, err := src.Read(f, false)
			if err != nil || len(buf.Data) != n/2*2 {
				t.Fatalf("%d bytes: read %d, %v", n, len(buf.Data), err)
			}
			buf.Release()
		}
	}
	for _, b := range r.pool.free {
		if limit := 320 << 10; cap(*b) > limit {
			t.Errorf("a pooled buffer of %d bytes (limit %d)", cap(*b), limit)
		}
	}
}

// mappingSource writes files into a new root and opens it as the native
// engine does, mapping large files (Source.mapLarge).
func mappingSource(t *testing.T, files map[string][]byte) (*Reader, *Source) {
	t.Helper()
	root := t.TempDir()
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(root, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := &Reader{}
	src, err := r.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	src.mapLarge = true
	return r, src
}
