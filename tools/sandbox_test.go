package tools

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// sandboxFixture is a workspace "ws" beside a sibling "ws_secret" and an
// "outside" directory, with symlinks of every kind that could lead out:
// in, out, through a parent, dangling, looping.
type sandboxFixture struct {
	parent, root, outside string
	sb                    *Sandbox
}

func newSandboxFixture(t *testing.T) sandboxFixture {
	t.Helper()
	parent := t.TempDir()
	root := filepath.Join(parent, "ws")
	outside := filepath.Join(parent, "outside")
	for _, d := range []string{root, outside, filepath.Join(parent, "ws_secret"), filepath.Join(root, "sub", "deep")} {
		mustMkdir(t, d)
	}
	writeFile(t, filepath.Join(root, "a.txt"), "alpha\n")
	writeFile(t, filepath.Join(root, "sub", "b.txt"), "beta\n")
	writeFile(t, filepath.Join(outside, "secret.txt"), "OUTSIDE\n")
	writeFile(t, filepath.Join(parent, "ws_secret", "key"), "OUTSIDE\n")
	links := map[string]string{
		"to_outside":   outside,
		"to_outside_r": "../outside",
		"to_etc":       "/etc",
		"to_sub":       "../ws/sub",
		"to_sub_abs":   filepath.Join(root, "sub"),
		"dangling":     "does-not-exist",
		"loop_a":       "loop_b",
		"loop_b":       "loop_a",
		"to_parent":    "..",
		"to_file_out":  filepath.Join(outside, "secret.txt"),
		"sub/up2":      "../..",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(name))); err != nil {
			t.Skipf("symlinks unavailable: %v", err)
		}
	}
	sb, err := NewSandbox(root)
	if err != nil {
		t.Fatal(err)
	}
	return sandboxFixture{parent: parent, root: sb.Root(), outside: outside, sb: sb}
}

func TestSandboxResolveRefusesEscapes(t *testing.T) {
	f := newSandboxFixture(t)
	cases := []struct {
		name string
		path string
		want error
	}{
		{"dot dot", "..", ErrOutsideRoot},
		{"dot dot into sibling", "../outside/secret.txt", ErrOutsideRoot},
		{"dot dot after a real dir", "sub/../../outside", ErrOutsideRoot},
		{"absolute outside", f.outside, ErrOutsideRoot},
		{"absolute etc", "/etc/passwd", ErrOutsideRoot},
		{"sibling sharing the root as a prefix", filepath.Join(f.parent, "ws_secret", "key"), ErrOutsideRoot},
		{"symlink to outside dir", "to_outside", ErrOutsideRoot},
		{"relative symlink to outside", "to_outside_r/secret.txt", ErrOutsideRoot},
		{"symlink to /etc", "to_etc/passwd", ErrOutsideRoot},
		{"symlink to parent", "to_parent", ErrOutsideRoot},
		{"nested symlink climbing twice", "sub/up2/outside", ErrOutsideRoot},
		{"symlink to an outside file", "to_file_out", ErrOutsideRoot},
		// Case 44: deepest-ancestor resolution.
		{"missing file under a symlink pointing outside", "to_outside/not-there/x.go", ErrOutsideRoot},
		{"missing dir under an absolute outside path", filepath.Join(f.outside, "nope", "x"), ErrOutsideRoot},
		{"NUL byte", "a.txt\x00.png", ErrInvalidPath},
		{"very long path", strings.Repeat("a/", 3000), ErrInvalidPath},
		{"symlink loop", "loop_a", ErrUnresolvable},
		{"dangling symlink", "dangling", ErrNotFound},
		{"missing file", "sub/nope.txt", ErrNotFound},
		{"percent-encoded dots are a literal name", "%2e%2e/outside", ErrNotFound},
		{"windows reserved name is an ordinary missing name here", "NUL", ErrNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := f.sb.Resolve(tc.path)
			if !errors.Is(err, tc.want) {
				t.Fatalf("Resolve(%q) = %+v, %v; want error %v", tc.path, got, err, tc.want)
			}
			var pe *PathError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T is not a *PathError", err)
			}
			if tc.want == ErrOutsideRoot && !strings.Contains(err.Error(), "outside the workspace root") {
				t.Errorf("message %q does not say the path is outside the root", err)
			}
		})
	}
}

func TestSandboxResolveAcceptsInside(t *testing.T) {
	f := newSandboxFixture(t)
	cases := []struct {
		name, path, wantRel string
		dir                 bool
	}{
		{"empty means root", "", ".", true},
		{"dot", ".", ".", true},
		{"relative file", "a.txt", "a.txt", false},
		{"absolute file", filepath.Join(f.root, "sub", "b.txt"), "sub/b.txt", false},
		{"dot dot that stays inside", "sub/deep/../b.txt", "sub/b.txt", false},
		// Case 39: a symlink that stays inside resolves to its target.
		{"relative symlink inside", "to_sub/b.txt", "sub/b.txt", false},
		{"absolute symlink inside", "to_sub_abs", "sub", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := f.sb.Resolve(tc.path)
			if err != nil {
				t.Fatalf("Resolve(%q): %v", tc.path, err)
			}
			if got.Rel != tc.wantRel || got.Info.IsDir() != tc.dir {
				t.Errorf("Resolve(%q) = rel %q dir %v; want %q dir %v", tc.path, got.Rel, got.Info.IsDir(), tc.wantRel, tc.dir)
			}
			if !hasPathPrefix(got.Abs, f.root) {
				t.Errorf("Abs %q not under root %q", got.Abs, f.root)
			}
		})
	}
}

// Case 43: a root reached through a symlink (macOS /tmp -> /private/tmp) is
// canonicalised once; paths spelled either way are accepted.
func TestSandboxSymlinkedRoot(t *testing.T) {
	f := newSandboxFixture(t)
	alias := filepath.Join(f.parent, "alias")
	if err := os.Symlink(f.root, alias); err != nil {
		t.Fatal(err)
	}
	sb, err := NewSandbox(alias)
	if err != nil {
		t.Fatal(err)
	}
	if sb.Root() != f.root {
		t.Fatalf("Root() = %q; want the canonical %q", sb.Root(), f.root)
	}
	for _, p := range []string{filepath.Join(alias, "a.txt"), filepath.Join(f.root, "a.txt"), "a.txt"} {
		got, err := sb.Resolve(p)
		if err != nil || got.Rel != "a.txt" {
			t.Errorf("Resolve(%q) = %q, %v; want a.txt", p, got.Rel, err)
		}
	}
}

func TestSandboxRootSlash(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("unix root")
	}
	sb, err := NewSandbox("/")
	if err != nil {
		t.Fatal(err)
	}
	got, err := sb.Resolve("/etc")
	if err != nil {
		t.Skipf("no /etc here: %v", err)
	}
	if got.Rel != "etc" {
		t.Errorf("Rel = %q; want etc", got.Rel)
	}
}

func TestNewSandboxRefusesAFile(t *testing.T) {
	f := newSandboxFixture(t)
	if _, err := NewSandbox(filepath.Join(f.root, "a.txt")); err == nil {
		t.Fatal("NewSandbox(file) succeeded")
	}
	if _, err := NewSandbox(filepath.Join(f.root, "nope")); err == nil {
		t.Fatal("NewSandbox(missing) succeeded")
	}
}

func TestLocalResult(t *testing.T) {
	for p, want := range map[string]bool{
		"a.go": true, "sub/a.go": true, "a..b": true,
		"": false, "../a": false, "/etc/passwd": false, "sub/../../a": false, "a\x00b": false,
	} {
		if got := LocalResult(p); got != want {
			t.Errorf("LocalResult(%q) = %v; want %v", p, got, want)
		}
	}
}

func mustMkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	mustMkdir(t, filepath.Dir(path))
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
