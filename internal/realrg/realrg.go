// Package realrg finds a real rg that is not this executable and hands a
// command line to it: how `rgkit grep` becomes rg where rg 15 is installed,
// and how the ripgrep engine never runs rgkit itself (a copy of rgkit
// installed as rg).
package realrg

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/rgkit/rgkit/rgfetch"
)

// NestedEnv marks a process started by rgkit as rg (the passthrough, or
// the resolver's `rg --version`): an rgkit that finds it set never hands
// over to another rg, so a copy of rgkit named rg cannot loop.
const NestedEnv = "RGKIT_AS_RG_NESTED"

// Locate finds rg the way `rgkit fetch` would, without downloading: the
// RGKIT_RG_PATH override, a system rg (never one inside the working
// directory), then the managed copy in ~/.rgkit/bin. A search never
// reaches the network; without rg the Chain moves on to the next engine.
//
// An rg that is this very executable (rgkit installed as rg) is reported
// as not installed, so the ripgrep engine never runs rgkit again.
func Locate() func(ctx context.Context) (string, error) {
	r := &rgfetch.Resolver{NoDownload: true}
	return func(ctx context.Context) (string, error) {
		p, err := r.Locate(ctx)
		if err == nil && IsSelf(p) {
			return "", fmt.Errorf("%s is rgkit itself: %w", p, rgfetch.ErrNotInstalled)
		}
		return p, err
	}
}

// Find returns the rg the resolver finds (without downloading) when its
// version starts with prefix ("" for any) and it is not this executable.
func Find(ctx context.Context, prefix string) (string, bool) {
	if os.Getenv(NestedEnv) != "" {
		return "", false
	}
	os.Setenv(NestedEnv, "1") // the resolver's `rg --version` must not recurse either
	defer os.Unsetenv(NestedEnv)
	res, err := (&rgfetch.Resolver{NoDownload: true}).Resolve(ctx)
	if err != nil || !strings.HasPrefix(res.Version, prefix) {
		return "", false
	}
	if IsSelf(res.Path) {
		return "", false
	}
	return res.Path, true
}

// IsSelf reports whether path is this very executable (a link or hard
// link to it included).
func IsSelf(path string) bool {
	exe, err := os.Executable()
	if err != nil {
		return true // cannot tell: never risk running ourselves
	}
	a, err1 := os.Stat(exe)
	b, err2 := os.Stat(path)
	return err1 != nil || err2 != nil || os.SameFile(a, b)
}

// Exec runs rg with args, its streams connected straight to ours, and
// returns its exit status: rg's bytes at rg's speed. When the streams are
// the process's own, rgkit becomes rg (execve on Unix): no second process
// to wait for, and rg receives the terminal's signals itself.
func Exec(ctx context.Context, rg string, args []string, in io.Reader, out, errOut io.Writer) int {
	env := append(os.Environ(), NestedEnv+"=1")
	if in == os.Stdin && out == os.Stdout && errOut == os.Stderr {
		// Returns only when the exec failed; the child below then tries
		// (and reports) the same.
		_ = becomeProgram(rg, args, env)
	}
	cmd := exec.CommandContext(ctx, rg, args...)
	if in != nil {
		cmd.Stdin = in
	}
	cmd.Stdout, cmd.Stderr = out, errOut
	cmd.Env = env
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ee.ExitCode() >= 0 {
			return ee.ExitCode()
		}
		return 2
	}
	if err != nil {
		fmt.Fprintf(errOut, "rgkit: running %s: %v\n", rg, err)
		return 2
	}
	return 0
}
