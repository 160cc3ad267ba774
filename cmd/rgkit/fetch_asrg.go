package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// linkAsRg places an entry named rg (rg.exe on Windows) in dir that runs
// this rgkit executable: a symlink, or a copy on Windows where symlinks
// need privileges. An existing entry is replaced only when it already is
// such a link (or, on Windows, an identical copy); anything else is the
// user's and is left alone with an error.
func linkAsRg(dir string) (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("--as-rg: cannot find the rgkit executable: %w", err)
	}
	if exe, err = filepath.EvalSymlinks(exe); err != nil {
		return "", fmt.Errorf("--as-rg: cannot resolve the rgkit executable: %w", err)
	}
	dir, err = filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("--as-rg %s: not a directory", dir)
	}
	name := "rg"
	if runtime.GOOS == "windows" {
		name = "rg.exe"
	}
	path := filepath.Join(dir, name)
	if runtime.GOOS == "windows" {
		return path, copyAsRg(exe, path)
	}
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode()&os.ModeSymlink == 0 {
			return "", fmt.Errorf("--as-rg: %s exists and is not a link to rgkit; remove it first if it should go", path)
		}
		old, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if old == exe {
			return path, nil // already in place
		}
		if !isRgkitName(filepath.Base(old)) {
			return "", fmt.Errorf("--as-rg: %s is a link to %s, not to rgkit; remove it first if it should go", path, old)
		}
	} else if !os.IsNotExist(err) {
		return "", err
	}
	// A new link under a temporary name, renamed over the old one: the
	// entry is never missing for a concurrent rg user.
	tmp := filepath.Join(dir, ".rg-link-"+fmt.Sprint(os.Getpid()))
	os.Remove(tmp)
	if err := os.Symlink(exe, tmp); err != nil {
		return "", fmt.Errorf("--as-rg: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("--as-rg: %w", err)
	}
	return path, nil
}

// isRgkitName reports whether a link target's file name is an rgkit
// executable's, so an earlier --as-rg link to another rgkit install may be
// replaced.
func isRgkitName(base string) bool {
	base = strings.TrimSuffix(strings.ToLower(base), ".exe")
	return base == "rgkit"
}

// copyAsRg is the Windows form: a copy, refreshed only over an identical
// earlier copy or a missing file.
func copyAsRg(exe, path string) error {
	data, err := os.ReadFile(exe)
	if err != nil {
		return err
	}
	if old, err := os.ReadFile(path); err == nil && !bytes.Equal(old, data) {
		return fmt.Errorf("--as-rg: %s exists and is not a copy of this rgkit; remove it first if it should go", path)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o755); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
