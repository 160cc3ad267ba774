package backends

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/rgkit/rgkit/internal/proc"
	"github.com/rgkit/rgkit/search"
)

// globMaxStdout caps rg's file list (about 5 million paths of 100 bytes);
// beyond it the native walker answers instead.
const globMaxStdout = 512 << 20

// globRipgrepArgs are the rg flags that give rg's file selection the
// library's meaning: no config file, .git never (after the pattern, so that
// even "*" cannot whitelist it, as the native walker never lists it), NUL-ended
// paths (names may hold newlines), and Root as the explicit, absolute path
// (as the ripgrep engine passes it: rg applies some ignore patterns
// differently to relative paths), so rg never reads stdin.
func globRipgrepArgs(q GlobQuery) []string {
	args := []string{"--files", "--no-config", "--no-messages", "--null", "--no-follow"}
	if q.Hidden {
		args = append(args, "--hidden")
	}
	if q.NoIgnore {
		args = append(args, "--no-ignore")
	}
	args = append(args, "--glob="+q.Pattern, "--glob=!.git", "--", q.Root)
	return args
}

// globRipgrep lists the matches with `rg --files`, run from Root, then stats
// each (rg does not report sizes or times).
func globRipgrep(ctx context.Context, rg string, q GlobQuery) ([]GlobFile, error) {
	env := []string{}
	for _, k := range []string{"HOME", "XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM"} {
		if v := q.Getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	prefix := q.Root
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator)
	}
	if search.Within(q.Root, rg) {
		return nil, fmt.Errorf("%w: refusing to run %s from inside the glob root", search.ErrUnavailable, rg)
	}
	var paths []string
	res, err := proc.Run(ctx, proc.Spec{
		Unavailable: search.ErrUnavailable,
		Path:        rg,
		Args:        globRipgrepArgs(q),
		Dir:         q.Root,
		Env:         env,
		MaxStdout:   globMaxStdout,
	}, func(r io.Reader) error {
		return proc.ReadNulList(r, func(p string) error {
			paths = append(paths, filepath.ToSlash(strings.TrimPrefix(p, prefix)))
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	switch {
	case res.StdoutCapped:
		return nil, fmt.Errorf("rg --files: output over %d bytes", globMaxStdout)
	case res.ExitCode == 0, res.ExitCode == 1:
	case res.ExitCode == 2 && len(bytes.TrimSpace(res.Stderr)) == 0:
		// Some entries could not be read (--no-messages hides which); the
		// rest is complete, as the native walker skips unreadable entries.
	default:
		return nil, fmt.Errorf("rg --files: exit status %d: %s", res.ExitCode, bytes.TrimSpace(res.Stderr))
	}
	files := make([]GlobFile, 0, len(paths))
	if q.pathsOnly() {
		for _, p := range paths {
			files = append(files, GlobFile{Path: p})
		}
		return files, nil
	}
	for _, p := range paths {
		fi, err := os.Lstat(filepath.Join(q.Root, filepath.FromSlash(p)))
		if err != nil || !fi.Mode().IsRegular() {
			continue // gone since rg listed it
		}
		files = append(files, GlobFile{Path: p, ModTime: fi.ModTime(), Size: fi.Size()})
	}
	return files, nil
}
