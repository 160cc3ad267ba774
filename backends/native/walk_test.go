package native

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func manyFiles(t *testing.T, dirs, per int) string {
	t.Helper()
	root := t.TempDir()
	fx := fixture{}
	for d := range dirs {
		for f := range per {
			fx[filepath.ToSlash(filepath.Join(string(rune('a'+d%26))+string(rune('a'+d/26)), string(rune('a'+f%26))+string(rune('a'+f/26))+".txt"))] = "x"
		}
	}
	fx.build(t, root)
	return root
}

func TestWalkStopWalkEndsWithoutError(t *testing.T) {
	root := manyFiles(t, 20, 20)
	var n atomic.Int64
	st, err := Walk(context.Background(), WalkOptions{Root: root, Workers: 1}, func(File) error {
		if n.Add(1) == 5 {
			return ErrStopWalk
		}
		return nil
	})
	if err != nil {
		t.Fatalf("err = %v, want nil after ErrStopWalk", err)
	}
	if n.Load() != 5 || st.Files != 5 {
		t.Errorf("fn called %d times, Files = %d; want 5 with one worker", n.Load(), st.Files)
	}
}

func TestWalkCallbackErrorIsReturned(t *testing.T) {
	root := manyFiles(t, 5, 5)
	boom := errors.New("boom")
	_, err := Walk(context.Background(), WalkOptions{Root: root}, func(File) error { return boom })
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
}

func TestWalkCancelledContext(t *testing.T) {
	root := manyFiles(t, 10, 10)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Walk(ctx, WalkOptions{Root: root}, func(File) error { return nil })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestWalkCallsFnFromAtMostWorkersGoroutines(t *testing.T) {
	root := manyFiles(t, 30, 10)
	for _, workers := range []int{1, 2, 4} {
		var cur, peak atomic.Int64
		_, err := Walk(context.Background(), WalkOptions{Root: root, Workers: workers}, func(File) error {
			c := cur.Add(1)
			for {
				p := peak.Load()
				if c <= p || peak.CompareAndSwap(p, c) {
					break
				}
			}
			time.Sleep(50 * time.Microsecond) // widen the window; not a timing assertion
			cur.Add(-1)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if p := peak.Load(); p > int64(workers) {
			t.Errorf("Workers=%d: %d concurrent calls", workers, p)
		}
	}
}

func TestWalkFileFields(t *testing.T) {
	root := t.TempDir()
	fixture{"d/f.txt": "hello"}.build(t, root)
	mtime := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := os.Chtimes(filepath.Join(root, "d", "f.txt"), mtime, mtime); err != nil {
		t.Fatal(err)
	}
	var got []File
	var mu sync.Mutex
	st, err := Walk(context.Background(), WalkOptions{Root: root}, func(f File) error {
		mu.Lock()
		got = append(got, f)
		mu.Unlock()
		return nil
	})
	if err != nil || len(got) != 1 {
		t.Fatalf("Walk = %v, %d files", err, len(got))
	}
	f := got[0]
	if f.Path != "d/f.txt" || f.Abs != filepath.Join(root, "d", "f.txt") || f.Size != 5 || !f.ModTime.Equal(mtime) {
		t.Errorf("File = %+v", f)
	}
	if st.Files != 1 {
		t.Errorf("Stats = %+v", st)
	}
}

func TestWalkMissingExplicitPathIsAnError(t *testing.T) {
	root := t.TempDir()
	fixture{"a": "x"}.build(t, root)
	var n atomic.Int64
	st, err := Walk(context.Background(), WalkOptions{Root: root, Paths: []string{"nope", "a"}}, func(File) error { n.Add(1); return nil })
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("err = %v, want ErrNotExist", err)
	}
	if n.Load() != 1 || st.Unreadable != 1 {
		t.Errorf("listed %d, stats %+v; want the existing path listed and one unreadable", n.Load(), st)
	}
}

func TestWalkInvalidGlobIsAnError(t *testing.T) {
	_, err := Walk(context.Background(), WalkOptions{Root: t.TempDir(), Globs: []string{"a{b"}}, func(File) error { return nil })
	var ge *GlobError
	if !errors.As(err, &ge) {
		t.Fatalf("err = %v, want *GlobError", err)
	}
}

// Regression: a FIFO inside the tree must never be opened (open would block).
func TestWalkNeverOpensFIFOs(t *testing.T) {
	root := t.TempDir()
	fixture{"p": "<fifo>", "a": "x"}.build(t, root)
	st, err := Walk(context.Background(), WalkOptions{Root: root, Paths: []string{"p", "."}}, func(f File) error {
		if f.Path == "p" {
			t.Errorf("FIFO passed to fn")
		}
		return nil
	})
	if err != nil || st.Files != 1 {
		t.Errorf("Walk = %v, %+v", err, st)
	}
}

// Regression: a directory replaced by a symlink
// to the outside between being listed and being opened must not lead the
// walk out of the tree, whether the replaced component is the directory
// itself or one of its ancestors.
func TestWalkDirectorySwappedForLinkMidWalk(t *testing.T) {
	for _, tc := range []struct {
		name    string
		trigger string // the file whose callback performs the swap
		swap    string // the directory replaced by a link to outside
	}{
		{"the directory itself", "f", "a"},
		{"an ancestor of the directory", "a/f", "a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			ws, outside := filepath.Join(base, "ws"), filepath.Join(base, "outside")
			fixture{"f": "", "a/f": "", "a/b/c/inside": ""}.build(t, ws)
			fixture{"b/c/secret": "", "secret": ""}.build(t, outside)
			var mu sync.Mutex
			var got []string
			_, err := Walk(context.Background(), WalkOptions{Root: ws, Workers: 1}, func(f File) error {
				mu.Lock()
				defer mu.Unlock()
				got = append(got, f.Path)
				if f.Path == tc.trigger {
					dir := filepath.Join(ws, filepath.FromSlash(tc.swap))
					if err := os.Rename(dir, dir+".moved"); err != nil {
						return err
					}
					return os.Symlink(outside, dir)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range got {
				if strings.Contains(p, "secret") {
					t.Errorf("listed %q from outside the tree (all: %q)", p, got)
				}
			}
		})
	}
}

func TestWalkNoStatLeavesSizeUnknown(t *testing.T) {
	root := t.TempDir()
	fixture{"f": "hello"}.build(t, root)
	for _, tc := range []struct {
		o    WalkOptions
		size int64
	}{
		{WalkOptions{Root: root, NoStat: true}, -1},
		{WalkOptions{Root: root, NoStat: true, MaxFileSize: 100}, 5}, // the size is needed: stat'ed
		{WalkOptions{Root: root}, 5},
	} {
		var got []File
		if _, err := Walk(context.Background(), tc.o, func(f File) error { got = append(got, f); return nil }); err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].Size != tc.size {
			t.Errorf("%+v: files %+v, want one of size %d", tc.o, got, tc.size)
		}
	}
}
