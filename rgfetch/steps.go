package rgfetch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/rgkit/rgkit/internal/proc"
	"github.com/rgkit/rgkit/internal/version"
)

// overrideMemo remembers a verified override by identity, so repeated
// Resolve calls with RGKIT_RG_PATH set do not run rg --version each time.
type overrideMemo struct {
	path    string
	size    int64
	modTime time.Time
	res     Resolved
}

// resolveOverride handles an explicit rg. It never falls through to other
// steps: a broken override is an error the user must see.
func (r *Resolver) resolveOverride(ctx context.Context, s settings) (Resolved, error) {
	path, err := filepath.Abs(s.override)
	if err != nil {
		return Resolved{}, err
	}
	fi, err := os.Stat(path)
	if err == nil {
		r.mu.Lock()
		m := r.override
		r.mu.Unlock()
		if m != nil && m.path == path && m.size == fi.Size() && m.modTime.Equal(fi.ModTime()) {
			return m.res, nil
		}
	}
	res, err := r.checkOverride(ctx, s)
	if err != nil {
		return Resolved{}, err
	}
	if fi != nil {
		r.mu.Lock()
		r.override = &overrideMemo{path: path, size: fi.Size(), modTime: fi.ModTime(), res: res}
		r.mu.Unlock()
	}
	return res, nil
}

// checkOverride verifies the override runs and is ripgrep. The version floor
// does not apply: the user chose this binary on purpose.
func (r *Resolver) checkOverride(ctx context.Context, s settings) (Resolved, error) {
	path, err := filepath.Abs(s.override)
	if err != nil {
		return Resolved{}, err
	}
	if err := checkExecutable(path); err != nil {
		return Resolved{}, fmt.Errorf("%s_RG_PATH=%s: %w", s.envPrefix, s.override, err)
	}
	v, err := s.knownVersion(ctx, path)
	if err != nil {
		return Resolved{}, fmt.Errorf("%s_RG_PATH=%s: %w", s.envPrefix, s.override, err)
	}
	return Resolved{Path: path, Version: v, Source: SourceOverride}, nil
}

// trySystem looks for rg on PATH. A binary found through a relative PATH
// entry (exec.ErrDot) or living inside the working directory is refused:
// a repository can plant ./rg or ./node_modules/.bin/rg to get executed.
func (r *Resolver) trySystem(ctx context.Context, s settings, tr *Trace) (Resolved, bool) {
	reject := func(v Verdict, path, version, reason string) (Resolved, bool) {
		tr.add(Step{Source: SourceSystem, Verdict: v, Path: path, Version: version, Reason: reason})
		return Resolved{}, false
	}
	if s.noSystem {
		return reject(VerdictSkipped, "", "", "the system rg is not considered (the caller asked for the managed copy)")
	}
	found, err := s.lookPath(s.target.ExeName())
	switch {
	case errors.Is(err, exec.ErrDot):
		return reject(VerdictRejected, found, "", "found only through a relative PATH entry (current directory); refused")
	case err != nil:
		return reject(VerdictMissing, "", "", "rg is not on PATH")
	}
	path, err := filepath.Abs(found)
	if err != nil {
		return reject(VerdictRejected, found, "", err.Error())
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	if guardsWorkDir(s.workDir, s.home) && inside(path, s.workDir) {
		return reject(VerdictRejected, path, "", fmt.Sprintf("lives inside the working directory %s; refused (PATH hijack guard)", s.workDir))
	}
	v, err := s.knownVersion(ctx, path)
	if err != nil {
		return reject(VerdictRejected, path, "", err.Error())
	}
	have, err1 := version.Parse(v)
	floor, err2 := version.Parse(strings.TrimSpace(s.minVersion))
	if err := errors.Join(err1, err2); err != nil {
		return reject(VerdictRejected, path, v, err.Error())
	}
	if have.Less(floor) {
		return reject(VerdictRejected, path, v, fmt.Sprintf("version %s is older than the minimum %s", v, s.minVersion))
	}
	tr.add(Step{Source: SourceSystem, Verdict: VerdictChosen, Path: path, Version: v,
		Reason: fmt.Sprintf("on PATH, version %s >= minimum %s", v, s.minVersion)})
	return Resolved{Path: path, Version: v, Source: SourceSystem}, true
}

// guardsWorkDir reports whether the working directory is a place where a
// planted rg is a threat. Working from / or from the home directory itself
// is not: whoever can write there already owns the account, and refusing
// everything below them would refuse /usr/bin/rg or ~/.cargo/bin/rg.
func guardsWorkDir(workDir, home string) bool {
	if workDir == "" {
		return false
	}
	clean := filepath.Clean(workDir)
	if clean == filepath.VolumeName(clean)+string(filepath.Separator) {
		return false
	}
	return home == "" || !sameDir(clean, home)
}

// sameDir compares two directories by their real paths.
func sameDir(a, b string) bool {
	if ra, err := filepath.EvalSymlinks(a); err == nil {
		a = ra
	}
	if rb, err := filepath.EvalSymlinks(b); err == nil {
		b = rb
	}
	return filepath.Clean(a) == filepath.Clean(b)
}

// inside reports whether path is dir or below it, comparing real paths.
func inside(path, dir string) bool {
	if dir == "" {
		return false
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	rel, err := filepath.Rel(dir, path)
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}

// tryManaged reuses the copy in the bin dir when it still verifies.
func (r *Resolver) tryManaged(ctx context.Context, s settings, tr *Trace) (Resolved, bool) {
	if s.binDir == "" {
		tr.add(Step{Source: SourceManaged, Verdict: VerdictSkipped, Reason: fmt.Sprintf("no bin dir: home directory unknown (%v); set %s_BIN_DIR", s.binDirErr, s.envPrefix)})
		return Resolved{}, false
	}
	path := filepath.Join(s.binDir, s.target.ExeName())
	if s.force {
		tr.add(Step{Source: SourceManaged, Verdict: VerdictSkipped, Path: path, Reason: "reinstall forced"})
		return Resolved{}, false
	}
	res, err := verifyManaged(s.binDir, s.target.ExeName(), s.version)
	if err != nil {
		v, reason := VerdictRejected, err.Error()+"; it will be reinstalled"
		if _, serr := os.Lstat(path); errors.Is(serr, fs.ErrNotExist) {
			v, reason = VerdictMissing, "not installed"
		}
		tr.add(Step{Source: SourceManaged, Verdict: v, Path: path, Reason: reason})
		return Resolved{}, false
	}
	tr.add(Step{Source: SourceManaged, Verdict: VerdictChosen, Path: path, Version: res.Version,
		Reason: "installed earlier; regular file, executable, stamp and SHA-256 match"})
	return res, true
}

// checkExecutable requires a regular file with an exec bit (on Unix).
func checkExecutable(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file (%s)", path, fi.Mode().Type())
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm()&0o111 == 0 {
		return fmt.Errorf("%s is not executable (mode %s)", path, fi.Mode().Perm())
	}
	return nil
}

// knownVersion is the version of an rg found on the machine (the system
// rg, the override): remembered across processes while the file stays
// the same (see versionMemo).
func (s settings) knownVersion(ctx context.Context, path string) (string, error) {
	return s.versionMemo.version(ctx, path, func(ctx context.Context, path string) (string, error) {
		return rgVersion(ctx, path, s.versionTimeout, s.sleep)
	})
}

// rgVersion runs `path --version` under a timeout and parses the version.
// A binary that was just written can fail with ETXTBSY when another
// goroutine forked while the file was open for writing (golang/go#22315);
// that error alone is retried for up to two seconds.
func rgVersion(ctx context.Context, path string, timeout time.Duration, sleep func(context.Context, time.Duration) error) (string, error) {
	var out []byte
	var err error
	for wait, waited := 10*time.Millisecond, time.Duration(0); ; wait *= 2 {
		out, err = runVersion(ctx, path, timeout)
		if !errors.Is(err, syscall.ETXTBSY) || waited >= 2*time.Second {
			break
		}
		if serr := sleep(ctx, wait); serr != nil {
			break
		}
		waited += wait
	}
	if err != nil {
		return "", fmt.Errorf("%s --version: %w", path, err)
	}
	return version.Ripgrep(out)
}

func runVersion(ctx context.Context, path string, timeout time.Duration) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	out, res, err := proc.Output(ctx, proc.Spec{
		Path: path, Args: []string{"--version"},
		Env:       append(os.Environ(), "RIPGREP_CONFIG_PATH="),
		MaxStdout: 1 << 20, Grace: time.Second,
	})
	if err == nil && res.ExitCode != 0 {
		err = fmt.Errorf("exit status %d", res.ExitCode)
	}
	if ctx.Err() != nil && err != nil {
		return out, fmt.Errorf("timed out after %s", timeout)
	}
	if err != nil && len(bytes.TrimSpace(res.Stderr)) > 0 {
		return out, fmt.Errorf("%w: %s", err, strings.TrimSpace(string(res.Stderr)))
	}
	return out, err
}
