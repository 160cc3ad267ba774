package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
)

// signalContext is ctx alone: a WASI module receives no signals (the host
// stops it) and starts no programs.
func signalContext(parent context.Context) (ctx context.Context, arm func(), stop func()) {
	ctx, cancel := context.WithCancel(parent)
	return ctx, func() {}, cancel
}

// checkPlatform refuses a working directory that is not absolute. Go's
// WASI port resolves a path against the longest pre-opened directory name
// that prefixes it, so a directory pre-opened as "." (and PWD unset) makes
// every path but those starting with "." unreachable: ignore files and
// named paths would be silently missed. Mounting the tree at "/" (or any
// absolute guest path, with PWD naming it) works.
func checkPlatform() (int, bool) {
	wd, err := os.Getwd()
	if err != nil || wd == "" || filepath.IsAbs(wd) {
		return 0, true // no pre-opened directory: stdin still works
	}
	fmt.Fprintf(os.Stderr, "rg: the working directory %q is not absolute: pre-open the directory to search at an absolute guest path such as \"/\" (and set PWD to it), not at %q\n", wd, wd)
	return 2, false
}
