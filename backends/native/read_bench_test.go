//go:build linux

package native

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
	"golang.org/x/sys/unix"
)

// BenchmarkRead compares the two ways of getting a file's bytes, over the
// benchmark corpus's walked files (warm cache), by size class: openat2 +
// read(2) into a pooled buffer (what Source does) against open + mmap(2) +
// munmap. Reproduce with:
//
//	go test ./backends/native -run '^$' -bench BenchmarkRead
func BenchmarkRead(b *testing.B) {
	root := os.Getenv("RGKIT_BENCH_CORPUS")
	if root == "" {
		root = filepath.Join(testtool.GOROOT(b), "src")
	}
	var small, large []File
	_, err := Walk(context.Background(), WalkOptions{Root: root, Workers: 1}, func(f File) error {
		if f.Size >= 256<<10 {
			large = append(large, f)
		} else if f.Size > 0 {
			small = append(small, f)
		}
		return nil
	})
	if err != nil || len(small) == 0 {
		b.Skipf("no corpus (%v)", err)
	}
	for _, set := range []struct {
		name  string
		files []File
	}{{"small", small}, {"large-256K+", large}} {
		var total int64
		for _, f := range set.files {
			total += f.Size
		}
		b.Run(set.name+"/read", func(b *testing.B) {
			src, err := (&Reader{}).Open(root)
			if err != nil {
				b.Fatal(err)
			}
			defer src.Close()
			b.SetBytes(total)
			for b.Loop() {
				for _, f := range set.files {
					buf, err := src.Read(f, false)
					if err != nil {
						b.Fatal(err)
					}
					sink += int(buf.Data[len(buf.Data)/2])
					buf.Release()
				}
			}
		})
		b.Run(set.name+"/mmap", func(b *testing.B) {
			b.SetBytes(total)
			for b.Loop() {
				for _, f := range set.files {
					fd, err := unix.Open(f.Abs, unix.O_RDONLY|unix.O_CLOEXEC, 0)
					if err != nil {
						b.Fatal(err)
					}
					data, err := unix.Mmap(fd, 0, int(f.Size), unix.PROT_READ, unix.MAP_SHARED)
					if err != nil {
						b.Fatal(err)
					}
					// Touch every page, as a search does.
					for i := 0; i < len(data); i += 4096 {
						sink += int(data[i])
					}
					unix.Munmap(data)
					unix.Close(fd)
				}
			}
		})
	}
}

var sink int
