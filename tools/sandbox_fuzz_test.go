package tools

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// fuzzNames and fuzzTargets are the alphabet a fuzz input draws a small tree
// from: names nest up to two levels, and symlinks point inside, outside,
// up, at themselves, or nowhere.
var (
	fuzzNames   = []string{"a", "b", "a/c", "b/d", "a/c/e", "..x", "ws"}
	fuzzTargets = []string{"..", "../..", "/", "a", "b/d", "../outside", "../ws", "../ws/a", "missing", "a/c", "ws", "."}
)

// FuzzSandboxResolve checks the sandbox's promise: for any tree of dirs,
// files and symlinks, and any path string, Resolve either errors or returns
// a path that is the root or below it, is not a symlink, and resolves to
// itself.
func FuzzSandboxResolve(f *testing.F) {
	seeds := []struct {
		layout []byte
		path   string
	}{
		{[]byte{0, 1, 2, 3}, ".."},
		{[]byte{2, 0}, "a/../../outside"},
		{[]byte{2, 5, 1, 7}, "b/d/x"},
		{[]byte{2, 2, 3, 1}, "/etc/passwd"},
		{[]byte{2, 9, 0, 0}, "ws/ws/a"},
		{[]byte{0, 0, 2, 10}, "a/c/../.."},
		{[]byte{2, 8}, "a/nothing/here"},
		{nil, "%2e%2e"},
	}
	for _, s := range seeds {
		f.Add(s.layout, s.path)
	}
	f.Fuzz(func(t *testing.T, layout []byte, p string) {
		parent := t.TempDir()
		root := filepath.Join(parent, "ws")
		outside := filepath.Join(parent, "outside")
		if err := os.MkdirAll(root, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(outside, 0o755); err != nil {
			t.Fatal(err)
		}
		buildFuzzTree(root, layout)
		sb, err := NewSandbox(root)
		if err != nil {
			t.Fatal(err)
		}
		if filepath.IsAbs(p) {
			// Also try the path as if the model named it under the real root.
			p = filepath.Join(parent, p)
		}
		got, err := sb.Resolve(p)
		if err != nil {
			var pe *PathError
			if !errors.As(err, &pe) {
				t.Fatalf("Resolve(%q) error %T is not a *PathError: %v", p, err, err)
			}
			return
		}
		if !hasPathPrefix(got.Abs, sb.Root()) {
			t.Fatalf("Resolve(%q) = %q, outside root %q", p, got.Abs, sb.Root())
		}
		fi, err := os.Lstat(got.Abs)
		if err != nil {
			t.Fatalf("Resolve(%q) = %q which cannot be Lstat'ed: %v", p, got.Abs, err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			t.Fatalf("Resolve(%q) = %q, a symlink", p, got.Abs)
		}
		if again, err := filepath.EvalSymlinks(got.Abs); err != nil || again != got.Abs {
			t.Fatalf("Resolve(%q) = %q, which resolves further to %q (%v)", p, got.Abs, again, err)
		}
		if !LocalResult(got.Rel) && got.Rel != "." {
			t.Fatalf("Resolve(%q).Rel = %q is not local", p, got.Rel)
		}
	})
}

// buildFuzzTree reads layout two bytes at a time: an entry name and what to
// make there (dir, file, or a symlink to one of fuzzTargets). Failures are
// ignored; whatever tree results is the input.
func buildFuzzTree(root string, layout []byte) {
	for i := 0; i+1 < len(layout); i += 2 {
		name := filepath.Join(root, filepath.FromSlash(fuzzNames[int(layout[i])%len(fuzzNames)]))
		_ = os.MkdirAll(filepath.Dir(name), 0o755)
		switch k := int(layout[i+1]) % (len(fuzzTargets) + 2); k {
		case 0:
			_ = os.MkdirAll(name, 0o755)
		case 1:
			_ = os.WriteFile(name, []byte("x\n"), 0o644)
		default:
			_ = os.Symlink(fuzzTargets[k-2], name)
		}
	}
}
