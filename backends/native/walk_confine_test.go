package native

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

// confineFixture is root/{in.txt, sub/deep.txt, abs -> outside, rel ->
// ../outside} next to outside/secret.txt, with root held open.
type confineFixture struct {
	root, outside string
	held          *os.Root
}

func newConfineFixture(t *testing.T) confineFixture {
	t.Helper()
	parent := t.TempDir()
	f := confineFixture{root: filepath.Join(parent, "root"), outside: filepath.Join(parent, "outside")}
	fixture{"root/in.txt": "in\n", "root/sub/deep.txt": "deep\n", "outside/secret.txt": "SECRET\n"}.build(t, parent)
	for name, target := range map[string]string{"abs": f.outside, "rel": "../outside"} {
		if err := os.Symlink(target, filepath.Join(f.root, name)); err != nil {
			t.Skipf("symlinks unavailable: %v", err)
		}
	}
	held, err := os.OpenRoot(f.root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { held.Close() })
	f.held = held
	return f
}

func walkPaths(t *testing.T, o WalkOptions) ([]string, WalkStats, error) {
	t.Helper()
	var mu sync.Mutex
	var got []string
	st, err := Walk(context.Background(), o, func(f File) error {
		mu.Lock()
		got = append(got, f.Path)
		mu.Unlock()
		return nil
	})
	slices.Sort(got)
	return got, st, err
}

// rg follows a start path that is a link, wherever it leads; confined, a
// start path leading outside the held root is not walked.
func TestWalkConfinedStartPathLeadingOutsideIsNotWalked(t *testing.T) {
	t.Parallel()
	f := newConfineFixture(t)
	for _, start := range []string{"abs", "rel", "abs/secret.txt", "rel/secret.txt"} {
		t.Run(start, func(t *testing.T) {
			got, _, _ := walkPaths(t, WalkOptions{Root: f.root, Paths: []string{start}})
			if len(got) != 1 {
				t.Fatalf("unconfined walk of %s = %v; want the outside file (the control)", start, got)
			}
			got, st, err := walkPaths(t, WalkOptions{Root: f.root, Paths: []string{start}, Confine: f.held})
			if len(got) != 0 || err == nil || st.Unreadable != 1 {
				t.Errorf("confined walk of %s = %v, %+v, %v; want nothing, one unreadable start and an error", start, got, st, err)
			}
		})
	}
	t.Run("inside", func(t *testing.T) {
		got, _, err := walkPaths(t, WalkOptions{Root: f.root, Paths: []string{"sub", "in.txt"}, Confine: f.held})
		if want := []string{"in.txt", "sub/deep.txt"}; err != nil || !slices.Equal(got, want) {
			t.Errorf("confined walk = %v, %v; want %v", got, err, want)
		}
	})
}

// The root's path replaced by a link to another directory after it was
// opened: a confined walk lists the held directory, never the new target.
func TestWalkConfinedRootPathReplacedListsTheHeldDirectory(t *testing.T) {
	t.Parallel()
	f := newConfineFixture(t)
	moved := f.root + ".moved"
	if err := os.Rename(f.root, moved); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(f.outside, f.root); err != nil {
		t.Fatal(err)
	}
	got, _, err := walkPaths(t, WalkOptions{Root: f.root})
	if err != nil || !slices.Equal(got, []string{"secret.txt"}) {
		t.Fatalf("unconfined walk = %v, %v; want the outside file (the control)", got, err)
	}
	for _, paths := range [][]string{nil, {"sub"}} {
		got, _, err = walkPaths(t, WalkOptions{Root: f.root, Paths: paths, Confine: f.held})
		if err != nil || slices.Contains(got, "secret.txt") || len(got) == 0 {
			t.Errorf("confined walk of %v = %v, %v; want only the held directory's files", paths, got, err)
		}
	}
}

func TestWalkConfinedRefusesFollowingLinks(t *testing.T) {
	t.Parallel()
	f := newConfineFixture(t)
	if _, _, err := walkPaths(t, WalkOptions{Root: f.root, FollowSymlinks: true, Confine: f.held}); err == nil {
		t.Fatal("Confine with FollowSymlinks accepted")
	}
}

// A file named explicitly is opened by its path, following links as rg
// does, except beneath a held root, where a link out is refused.
func TestSourceOpenBeneathNeverFollowsOutside(t *testing.T) {
	t.Parallel()
	f := newConfineFixture(t)
	file := File{Path: "abs/secret.txt", Abs: filepath.Join(f.root, "abs", "secret.txt"), Size: -1}
	var r Reader
	open, err := r.Open(f.root)
	if err != nil {
		t.Fatal(err)
	}
	defer open.Close()
	if b, err := open.Read(file, true); err != nil || string(b.Data) != "SECRET\n" {
		t.Fatalf("unconfined Read(follow) = %q, %v; want the outside file (the control)", b.Data, err)
	}
	beneath, err := r.OpenBeneath(f.held)
	if err != nil {
		t.Fatal(err)
	}
	defer beneath.Close()
	for _, follow := range []bool{false, true} {
		if b, err := beneath.Read(file, follow); err == nil {
			t.Errorf("confined Read(follow=%v) = %q; want an error", follow, b.Data)
		}
	}
	in := File{Path: "sub/deep.txt", Abs: filepath.Join(f.root, "sub", "deep.txt"), Size: -1}
	if b, err := beneath.Read(in, true); err != nil || string(b.Data) != "deep\n" {
		t.Errorf("confined Read of an inside file = %q, %v", b.Data, err)
	}
}
