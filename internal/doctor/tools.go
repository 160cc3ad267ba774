package doctor

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/rgkit/rgkit/internal/proc"
	"github.com/rgkit/rgkit/search"
)

// probeTimeout bounds each -P probe command.
const probeTimeout = 5 * time.Second

// runProbe runs a tool with no shell, LC_ALL=C, stdin from in, under the
// probe timeout, and returns its exit code (-1 when it did not run).
func runProbe(ctx context.Context, dir string, in string, name string, args ...string) int {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	_, res, err := proc.Output(ctx, proc.Spec{
		Path:  name,
		Args:  args,
		Dir:   dir,
		Env:   append(os.Environ(), "LC_ALL=C", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull),
		Stdin: strings.NewReader(in),
		Grace: time.Second,
	})
	if err != nil {
		return -1
	}
	return res.ExitCode
}

// toolFromEngine turns what an engine's Available found into a report
// line: the same path, version and flavour the search would use, so doctor
// and the engines never disagree about a tool.
func toolFromEngine(name string, info search.Info, err error) Tool {
	rep := Tool{Name: name, Path: info.Path, Version: info.Version}
	switch info.Flavor {
	case "gnu":
		rep.Flavour = "GNU"
	case "bsd":
		rep.Flavour = "BSD"
	}
	switch {
	case errors.Is(err, exec.ErrNotFound):
		rep.Error = "not on PATH"
	case err != nil:
		rep.Error = strings.TrimPrefix(err.Error(), search.ErrUnavailable.Error()+": ")
	}
	return rep
}

// probeGit reports git as the gitgrep engine sees it, and whether
// git grep -P works (git built with libpcre2).
func probeGit(ctx context.Context, engine search.Engine) Tool {
	info, err := engine.Available(ctx)
	rep := toolFromEngine("git", info, err)
	if rep.Error != "" {
		return rep
	}
	dir, err := os.MkdirTemp("", "rgkit-doctor-")
	if err != nil {
		return rep
	}
	defer os.RemoveAll(dir)
	if os.WriteFile(filepath.Join(dir, "probe.txt"), []byte("ab\n"), 0o644) == nil {
		// A look-ahead exists only in PCRE; exit 0 means it matched.
		ok := runProbe(ctx, dir, "", rep.Path, "grep", "--no-index", "-P", "-e", "a(?=b)", "--", "probe.txt") == 0
		rep.PCRE = &ok
	}
	return rep
}

// probeGrep reports grep as the system-grep engine sees it (GNU or BSD;
// any other grep is unavailable to rgkit, and the error says what it is),
// and whether grep -P works.
func probeGrep(ctx context.Context, engine search.Engine) Tool {
	info, err := engine.Available(ctx)
	rep := toolFromEngine("grep", info, err)
	if rep.Error != "" {
		return rep
	}
	ok := runProbe(ctx, "", "ab\n", rep.Path, "-P", "-e", "a(?=b)") == 0
	rep.PCRE = &ok
	return rep
}
