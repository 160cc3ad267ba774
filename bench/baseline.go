package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/rgkit/rgkit/search"
)

// BaselineName is the engine name of the rg baseline in reports.
const BaselineName = "rg"

// Baseline is rg itself run as a subprocess printing to a pipe, the
// reference every engine's time is divided by: what a user would get by
// calling rg directly.
type Baseline struct {
	Path    string // absolute path of the rg binary
	Version string // e.g. "15.2.0"
}

var rgVersion = regexp.MustCompile(`^ripgrep (\d+\.\d+\.\d+)`)

// NewBaseline finds rg (a path, or a name looked up on PATH) and reads its
// version; the engine it returns measures rg itself.
func NewBaseline(ctx context.Context, rg string) (Engine, error) {
	path, err := exec.LookPath(rg)
	if err != nil {
		return Engine{}, fmt.Errorf("rg baseline %q not found: %w", rg, errors.Unwrap(err))
	}
	if path, err = filepath.Abs(path); err != nil {
		return Engine{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	if err != nil {
		return Engine{}, fmt.Errorf("rg baseline %s --version: %w", path, err)
	}
	m := rgVersion.FindSubmatch(out)
	if m == nil {
		return Engine{}, fmt.Errorf("rg baseline %s is not ripgrep (--version says %q)", path, firstLine(string(out)))
	}
	b := &Baseline{Path: path, Version: string(m[1])}
	return Engine{Info: search.Info{Name: BaselineName, Path: path, Version: b.Version}, Baseline: b}, nil
}

// Args are the rg arguments for task t, run from the tree's root: matching
// lines as path:line:text with paths relative to the root (rg searches the
// working directory when given no path and no readable stdin), or the file
// list.
func (b *Baseline) Args(t Task) []string {
	if t.Listing {
		// What `rgkit glob '**'` lists: every file, hidden ones too, but
		// never .git (rg's --glob whitelist lifts the hidden-file rule).
		return []string{"--no-config", "--files", "--glob=**", "--glob=!.git"}
	}
	args := []string{"--no-config", "--no-heading", "--line-number", "--color=never"}
	q := t.Query
	switch q.Case {
	case search.CaseInsensitive:
		args = append(args, "--ignore-case")
	case search.CaseSmart:
		args = append(args, "--smart-case")
	}
	if q.Word {
		args = append(args, "--word-regexp")
	}
	if q.Fixed {
		args = append(args, "--fixed-strings")
	}
	return append(args, "--regexp="+q.Pattern)
}

// Run runs rg on task t in root with its standard output going to out, and
// returns its CPU time and peak resident set.
func (b *Baseline) Run(ctx context.Context, root string, t Task, out *os.File) (search.Stats, error) {
	st, _, err := runTool(ctx, b.Path, b.Args(t), root, out)
	return st, err
}

// runTool runs path with args in dir, its standard output to out and its
// standard input empty, and returns the child's CPU time and peak resident
// set and its exit status. Exit
// status 1 ("nothing found" for rg, git grep and grep) is not an error.
func runTool(ctx context.Context, path string, args []string, dir string, out io.Writer) (search.Stats, int, error) {
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Dir = dir
	cmd.Stdout = out
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}
	if err := cmd.Start(); err != nil {
		return search.Stats{}, 0, err
	}
	stop := watchRSS(cmd.Process.Pid)
	err := cmd.Wait()
	var st search.Stats
	st.ProcessPeakRSS = stop()
	if ps := cmd.ProcessState; ps != nil {
		st.ProcessCPU = ps.UserTime() + ps.SystemTime()
		if st.ProcessPeakRSS == 0 && runtime.GOOS != "linux" {
			// No /proc to sample. On Linux rusage would report this
			// process's resident set (see childPeakRSS): 0, unknown, is
			// the honest figure for a child gone before its first sample.
			st.ProcessPeakRSS = childPeakRSS(ps)
		}
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() >= 0 {
		if exit.ExitCode() > 1 {
			return st, exit.ExitCode(), fmt.Errorf("%s exited with status %d: %s", filepath.Base(path), exit.ExitCode(), firstLine(strings.TrimSpace(stderr.String())))
		}
		return st, exit.ExitCode(), nil
	}
	return st, 0, err
}

// ripgrepLister lists files with `rg --files` under the flags rgkit's glob
// gives it for the pattern "**" (no config, NUL-ended names, .git never
// listed), sorted by path as rgkit's glob returns them, and reports rg's CPU
// and peak memory.
func ripgrepLister(rgPath string) Lister {
	return func(ctx context.Context, root string) ([]string, search.Stats, error) {
		var buf bytes.Buffer
		args := []string{"--files", "--no-config", "--no-messages", "--null", "--no-follow", "--glob=**", "--glob=!.git", "--", root}
		st, _, err := runTool(ctx, rgPath, args, root, &buf)
		if err != nil {
			return nil, st, err
		}
		prefix := root
		if !strings.HasSuffix(prefix, string(filepath.Separator)) {
			prefix += string(filepath.Separator)
		}
		var paths []string
		for _, p := range bytes.Split(buf.Bytes(), []byte{0}) {
			if len(p) > 0 {
				paths = append(paths, filepath.ToSlash(strings.TrimPrefix(string(p), prefix)))
			}
		}
		slices.Sort(paths)
		return paths, st, nil
	}
}
