package native

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rgkit/rgkit/internal/conformance"
	"github.com/rgkit/rgkit/internal/testtool"
)

// The differential tests below build a tree, list it with Walk and with the
// real `rg --files` (same flags, run from the root like the ripgrep engine
// runs it), and require identical sets. Every ignore rule is pinned this way.

// fixture is a tree: path -> content. A key ending in "/" is an empty
// directory; a value starting with "-> " makes a symbolic link to the rest;
// the value "<fifo>" makes a named pipe.
type fixture map[string]string

func (fx fixture) build(t testing.TB, root string) {
	t.Helper()
	keys := make([]string, 0, len(fx))
	for k := range fx {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := fx[k]
		p := filepath.Join(root, filepath.FromSlash(k))
		if strings.HasSuffix(k, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		switch {
		case strings.HasPrefix(v, "-> "):
			err = os.Symlink(strings.TrimPrefix(v, "-> "), p)
		case v == "<fifo>":
			if err = makeFifo(p); errors.Is(err, errors.ErrUnsupported) {
				t.Skip("named pipes are not available here")
			}
		default:
			err = os.WriteFile(p, []byte(v), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// rgPath is the ripgrep the differential tests compare against: the
// reference rg (15.x, see testtool.ReferenceRg), whatever rg is first on
// PATH. The walker follows rg 15.2's file selection, and older rg answers
// differently on several ignore and glob rules.
func rgPath(t testing.TB) string {
	t.Helper()
	return testtool.ReferenceRg(t)
}

// rgFiles runs `rg --files` with the flags equivalent to o, from o.Root, with
// HOME (and XDG_CONFIG_HOME) set to home so no user config leaks in.
func rgFiles(t testing.TB, o WalkOptions, home string) []string {
	t.Helper()
	return rgFilesEnv(t, o, home, nil)
}

// rgFilesEnv is rgFiles with extra environment variables. git's system
// configuration is always a file under home that does not exist, so the
// machine's /etc/gitconfig cannot change the answer.
func rgFilesEnv(t testing.TB, o WalkOptions, home string, env map[string]string) []string {
	t.Helper()
	args := []string{"--files", "--no-config", "--no-messages", "--null", conformance.Threads}
	if o.Hidden {
		args = append(args, "--hidden")
	}
	if o.NoIgnore {
		args = append(args, "--no-ignore")
	}
	if o.FollowSymlinks {
		args = append(args, "--follow")
	}
	if o.MaxFileSize > 0 {
		args = append(args, fmt.Sprintf("--max-filesize=%d", o.MaxFileSize))
	}
	for _, g := range o.Globs {
		args = append(args, "--glob="+g)
	}
	for _, g := range o.IGlobs {
		args = append(args, "--iglob="+g)
	}
	if o.Hidden && !o.GitDir {
		// After the globs: the walker never lists .git, whatever they say.
		args = append(args, "--glob=!.git")
	}
	for _, f := range []struct {
		on   bool
		flag string
	}{
		{o.NoIgnoreDot, "--no-ignore-dot"}, {o.NoIgnoreVCS, "--no-ignore-vcs"}, {o.NoIgnoreExclude, "--no-ignore-exclude"},
		{o.NoIgnoreGlobal, "--no-ignore-global"}, {o.NoIgnoreParent, "--no-ignore-parent"}, {o.NoRequireGit, "--no-require-git"},
		{o.IgnoreCaseInsensitive, "--ignore-file-case-insensitive"}, {o.GlobCaseInsensitive, "--glob-case-insensitive"},
		{o.OneFileSystem, "--one-file-system"},
	} {
		if f.on {
			args = append(args, f.flag)
		}
	}
	for _, f := range o.IgnoreFiles {
		args = append(args, "--ignore-file="+f)
	}
	if o.MaxDepthSet {
		args = append(args, fmt.Sprintf("--max-depth=%d", o.MaxDepth))
	}
	if len(o.TypeGlobs) > 0 {
		for _, g := range o.TypeGlobs {
			args = append(args, "--type-add=walktest:"+g)
		}
		args = append(args, "--type=walktest")
	}
	// Like the ripgrep engine: absolute paths after "--", run from Root.
	args = append(args, "--")
	if len(o.Paths) == 0 {
		args = append(args, o.Root)
	}
	for _, p := range o.Paths {
		args = append(args, filepath.Join(o.Root, filepath.FromSlash(p)))
	}
	cmd := exec.Command(rgPath(t), args...)
	cmd.Dir = o.Root
	cmd.Env = []string{"HOME=" + home, "PATH=/usr/bin:/bin", "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"GIT_CONFIG_SYSTEM=" + filepath.Join(home, "no-system-gitconfig")}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() > 2) {
		t.Fatalf("rg %v: %v: %s", args, err, stderr.Bytes())
	}
	var files []string
	for _, l := range strings.Split(string(out), "\x00") {
		if l != "" {
			files = append(files, filepath.ToSlash(strings.TrimPrefix(l, o.Root+string(filepath.Separator))))
		}
	}
	slices.Sort(files)
	return files
}

// walkFiles lists o with Walk, sorted.
func walkFiles(t testing.TB, o WalkOptions, home string) ([]string, WalkStats) {
	t.Helper()
	return walkFilesEnv(t, o, home, nil)
}

// walkFilesEnv is walkFiles with the environment rgFilesEnv gives rg.
func walkFilesEnv(t testing.TB, o WalkOptions, home string, env map[string]string) ([]string, WalkStats) {
	t.Helper()
	o.Getenv = func(k string) string {
		if v, ok := env[k]; ok {
			return v
		}
		switch k {
		case "HOME":
			return home
		case "XDG_CONFIG_HOME":
			return filepath.Join(home, ".config")
		case "GIT_CONFIG_SYSTEM":
			return filepath.Join(home, "no-system-gitconfig")
		}
		return ""
	}
	var mu sync.Mutex
	var files []string
	st, err := Walk(context.Background(), o, func(f File) error {
		mu.Lock()
		files = append(files, f.Path)
		mu.Unlock()
		return nil
	})
	if err != nil {
		t.Fatalf("Walk: %v", err)
	}
	slices.Sort(files)
	return files, st
}

// gitRepo is a repository fixture with a .gitignore and the named files.
func gitRepo(gitignore string, files ...string) fixture {
	fx := fixture{".git/": "", ".gitignore": gitignore}
	for _, f := range files {
		fx[f] = "x"
	}
	return fx
}

// walkCase is one differential case: a tree, where the walk starts (a
// subdirectory of the tree, "" for its top), and the options.
type walkCase struct {
	name string
	tree fixture
	root string // the walk's Root inside the tree
	opts WalkOptions
	// want, when set, is also checked, so a case documents rg's answer.
	want []string
	// rg15 marks a case whose answer rg 15 changed (rg 13 or 14 answer
	// differently): it runs only against the reference rg.
	rg15 bool
	// env is extra environment for rg and Walk; a value starting with "~/"
	// is under the case's home directory.
	env map[string]string
}

func runWalkCases(t *testing.T, cases []walkCase) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.rg15 {
				rgPath(t) // "rg 15 changed this case's answer"
			}
			base := t.TempDir()
			top := filepath.Join(base, "top")
			home := filepath.Join(base, "home")
			if err := os.MkdirAll(home, 0o755); err != nil {
				t.Fatal(err)
			}
			tree := fixture{}
			for k, v := range tc.tree {
				if rest, ok := strings.CutPrefix(k, "~/"); ok {
					tree["../home/"+rest] = v
					continue
				}
				tree[k] = v
			}
			if err := os.MkdirAll(top, 0o755); err != nil {
				t.Fatal(err)
			}
			tree.build(t, top)
			o := tc.opts
			o.Root = filepath.Join(top, filepath.FromSlash(tc.root))
			env := map[string]string{}
			for k, v := range tc.env {
				if rest, ok := strings.CutPrefix(v, "~/"); ok {
					v = filepath.Join(home, rest)
				}
				env[k] = v
			}
			want := rgFilesEnv(t, o, home, env)
			got, _ := walkFilesEnv(t, o, home, env)
			if !slices.Equal(got, want) {
				t.Errorf("Walk and rg --files differ\n walk: %q\n   rg: %q", got, want)
			}
			if tc.want != nil && !slices.Equal(want, tc.want) {
				t.Errorf("rg itself now answers %q, the case documents %q", want, tc.want)
			}
		})
	}
}
