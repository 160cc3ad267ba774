package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/rgkit/rgkit/rgfetch"
)

// nestedEnv marks a process started by rgkit as rg (the passthrough, or
// the resolver's `rg --version`): an rgkit that finds it set never hands
// over to another rg, so a copy of rgkit named rg cannot loop.
const nestedEnv = "RGKIT_AS_RG_NESTED"

// locateRg finds rg the way `rgkit fetch` would, without downloading: the
// RGKIT_RG_PATH override, a system rg (never one inside the working
// directory), then the managed copy in ~/.rgkit/bin. A search never
// reaches the network; without rg the Chain moves on to the next engine.
//
// An rg that is this very executable (rgkit installed as rg) is reported
// as not installed, so the ripgrep engine never runs rgkit again.
func locateRg() func(ctx context.Context) (string, error) {
	r := &rgfetch.Resolver{NoDownload: true}
	return func(ctx context.Context) (string, error) {
		p, err := r.Locate(ctx)
		if err == nil && isSelf(p) {
			return "", fmt.Errorf("%s is rgkit itself: %w", p, rgfetch.ErrNotInstalled)
		}
		return p, err
	}
}

// passthroughRg returns the rg to hand the whole command line to: an rg
// 15.x that is not this rgkit executable, found without downloading.
func passthroughRg(ctx context.Context, env rgEnv) (string, bool) {
	return findRg(ctx, env, "15.")
}

// findRg returns the rg the resolver finds (without downloading) when its
// version starts with prefix ("" for any) and it is not this executable.
func findRg(ctx context.Context, env rgEnv, prefix string) (string, bool) {
	if env.getenv(nestedEnv) != "" {
		return "", false
	}
	os.Setenv(nestedEnv, "1") // the resolver's `rg --version` must not recurse either
	defer os.Unsetenv(nestedEnv)
	res, err := (&rgfetch.Resolver{NoDownload: true}).Resolve(ctx)
	if err != nil || !strings.HasPrefix(res.Version, prefix) {
		return "", false
	}
	if isSelf(res.Path) {
		return "", false
	}
	return res.Path, true
}

// isSelf reports whether path is this very executable (a link or hard
// link to it included).
func isSelf(path string) bool {
	exe, err := os.Executable()
	if err != nil {
		return true // cannot tell: never risk running ourselves
	}
	a, err1 := os.Stat(exe)
	b, err2 := os.Stat(path)
	return err1 != nil || err2 != nil || os.SameFile(a, b)
}

// execRg runs rg with args, its streams connected straight to ours, and
// returns its exit status: rg's bytes at rg's speed. When the streams are
// the process's own, rgkit becomes rg (execve on Unix): no second process
// to wait for, and rg receives the terminal's signals itself.
func execRg(ctx context.Context, s streams, rg string, args []string) int {
	env := append(os.Environ(), nestedEnv+"=1")
	if s.in == os.Stdin && s.out == os.Stdout && s.errOut == os.Stderr {
		// Returns only when the exec failed; the child below then tries
		// (and reports) the same.
		_ = becomeProgram(rg, args, env)
	}
	cmd := exec.CommandContext(ctx, rg, args...)
	if s.in != nil {
		cmd.Stdin = s.in
	}
	cmd.Stdout, cmd.Stderr = s.out, s.errOut
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
		fmt.Fprintf(s.errOut, "rgkit: running %s: %v\n", rg, err)
		return 2
	}
	return 0
}
