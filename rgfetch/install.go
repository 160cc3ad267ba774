package rgfetch

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/rgkit/rgkit/rgfetch/archive"
)

// Temp files in the bin dir start with tempPrefix and end with tempSuffix.
// They are only ever created while holding the install lock, so any found
// by the next lock holder belong to a dead process and are removed.
const (
	tempPrefix = ".rg-"
	tempSuffix = ".tmp"
)

// Checkpoint names passed to the test hook, in install order.
const (
	checkpointLocked     = "locked"
	checkpointDownloaded = "downloaded"
	checkpointMidWrite   = "mid-write"
	checkpointVerified   = "before-rename"
	checkpointRenamed    = "after-rename"
)

// download installs the pinned release for this platform.
func (r *Resolver) download(ctx context.Context, s settings, tr *Trace) (Resolved, error) {
	if why := s.downloadForbidden(); why != "" {
		triple, _ := s.target.Triple(s.version)
		asset, _ := s.target.AssetName(s.version)
		err := &offlineError{Version: s.version, Triple: triple, Reason: why, hint: s.waysOut(asset)}
		tr.add(Step{Source: SourceDownloaded, Verdict: VerdictSkipped, Reason: err.Error()})
		return Resolved{}, err
	}
	if s.binDir == "" {
		return Resolved{}, fmt.Errorf("cannot install rg: no home directory (%v); set %s_BIN_DIR", s.binDirErr, s.envPrefix)
	}
	p, err := s.plan()
	if err != nil {
		tr.add(Step{Source: SourceDownloaded, Verdict: VerdictFailed, Reason: err.Error()})
		return Resolved{}, err
	}
	if err := s.recentFailure(); err != nil {
		tr.add(Step{Source: SourceDownloaded, Verdict: VerdictFailed, Path: p.loc.String(), Reason: err.Error()})
		return Resolved{}, err
	}
	if s.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, s.timeout, fmt.Errorf("%w: not finished within %s (--timeout)", ErrTimeout, s.timeout))
		defer cancel()
	}
	res, err := r.install(ctx, s, p)
	var fe *Error
	if errors.As(err, &fe) && errors.Is(err, ErrUnreachable) && fe.hint == "" {
		fe.hint = s.waysOut(p.asset)
	}
	s.rememberFailure(p, err)
	if err != nil {
		tr.add(Step{Source: SourceDownloaded, Verdict: VerdictFailed, Path: p.loc.String(), Reason: err.Error()})
		return Resolved{}, err
	}
	tr.add(Step{Source: SourceDownloaded, Verdict: VerdictChosen, Path: res.Path, Version: res.Version, Reason: "installed from " + p.loc.String()})
	return res, nil
}

// InstallArchive installs rg from an archive the user already has (any
// format archive.FormatOf knows, e.g. a release .tar.gz or a .deb) into the
// bin dir, with the same verification and atomic install as a download.
// A release-named archive (ripgrep-<ver>-<triple>.<ext>) is checked against
// its pin; any other needs Resolver.SHA256.
func (r *Resolver) InstallArchive(ctx context.Context, path string) (Resolved, error) {
	s := r.settings()
	s.force = true
	if s.binDir == "" {
		return Resolved{}, fmt.Errorf("cannot install rg: no home directory (%v); set %s_BIN_DIR", s.binDirErr, s.envPrefix)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return Resolved{}, err
	}
	p, err := s.archivePlan(abs, filepath.Base(abs))
	if err != nil {
		return Resolved{}, err
	}
	res, err := r.install(ctx, s, p)
	if err == nil {
		r.mu.Lock()
		c := res
		r.cached, r.failErr = &c, nil
		r.mu.Unlock()
	}
	return res, err
}

// install runs the locked install sequence: lock, check again, clean stale
// temps, download into a temp file, verify the digest, extract into a second
// temp file, fsync, chmod 0755, post-install, smoke test, rename, fsync the
// directory, write the stamp. Any failure before the rename leaves the old
// rg untouched; a kill after it leaves the new, complete one.
func (r *Resolver) install(ctx context.Context, s settings, p plan) (Resolved, error) {
	exe := s.target.ExeName()
	if err := os.MkdirAll(s.binDir, 0o755); err != nil {
		return Resolved{}, fmt.Errorf("create bin dir: %w", err)
	}
	unlock, err := lockFile(ctx, filepath.Join(s.binDir, "."+exe+".lock"), s.sleep)
	if err != nil {
		return Resolved{}, err
	}
	defer unlock()
	s.checkpoint(checkpointLocked)

	// Another process may have finished the same install while we waited.
	if !s.force {
		if res, err := verifyManaged(s.binDir, exe, p.version); err == nil {
			return res, nil
		}
	}
	cleanStaleTemps(s.binDir)

	archiveFile, err := s.createTemp(s.binDir, tempPrefix+"archive-*"+tempSuffix)
	if err != nil {
		return Resolved{}, diskErr("create temp archive", err)
	}
	defer os.Remove(archiveFile.Name())
	defer archiveFile.Close()

	f := s.fetcher(p.triple)
	if err := r.settleDigest(ctx, s, f, &p); err != nil {
		return Resolved{}, err
	}
	limit := s.maxSize
	if p.origin == originPinned && p.pin.Size > 0 {
		limit = min(limit, p.pin.Size) // a longer body cannot be the pinned asset
	}
	got, n, err := f.fetch(ctx, p.loc, archiveFile, limit)
	if err != nil {
		return Resolved{}, diskErr("download", err)
	}
	if got != p.want {
		return Resolved{}, &checksumError{URL: p.loc.String(), Triple: p.triple, Expected: p.want, Actual: got, Origin: p.origin.String()}
	}
	s.checkpoint(checkpointDownloaded)

	format, err := archive.FormatOf(p.asset)
	if err != nil {
		return Resolved{}, err
	}
	tmp, err := s.createTemp(s.binDir, tempPrefix+"new-*"+tempSuffix)
	if err != nil {
		return Resolved{}, diskErr("create temp executable", err)
	}
	tmpName := tmp.Name()
	renamed := false
	defer func() {
		if !renamed {
			os.Remove(tmpName)
		}
	}()
	h := sha256.New()
	dst := &checkpointWriter{w: io.MultiWriter(tmp, h), hit: func() { s.checkpoint(checkpointMidWrite) }}
	size, err := archive.Extract(archiveFile, n, format, p.member, dst, archive.Limits{MaxMemberSize: s.maxSize})
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return Resolved{}, diskErr(fmt.Sprintf("extract %s from %s", p.member, p.loc), err)
	}
	// 0755 whatever the archive said: no setuid, no group/world write.
	if err := os.Chmod(tmpName, 0o755); err != nil {
		return Resolved{}, err
	}
	if err := s.postInstall(ctx, tmpName); err != nil {
		return Resolved{}, err
	}
	v, err := rgVersion(ctx, tmpName, s.versionTimeout, s.sleep)
	if err != nil {
		return Resolved{}, &smokeTestError{Path: tmpName, Want: p.version, Err: err}
	}
	if v != p.version {
		return Resolved{}, &smokeTestError{Path: tmpName, Want: p.version, Got: v}
	}
	binSum := hex.EncodeToString(h.Sum(nil))
	s.checkpoint(checkpointVerified)

	target := filepath.Join(s.binDir, exe)
	if err := replaceFile(ctx, tmpName, target, s.sleep); err != nil {
		// Windows: a running rg cannot be replaced; one that verifies as
		// the wanted version is as good as ours (gemini-cli#12886).
		if res, verr := verifyManaged(s.binDir, exe, p.version); verr == nil {
			return res, nil
		}
		return Resolved{}, fmt.Errorf("install %s: %w", target, err)
	}
	renamed = true
	s.checkpoint(checkpointRenamed)
	if err := syncDir(s.binDir); err != nil {
		return Resolved{}, err
	}
	st := stamp{Version: v, Triple: p.triple, SHA256: binSum, Size: size, ArchiveSHA256: got,
		DigestOrigin: p.origin.String(), From: p.loc.String(), InstalledAt: s.now().UTC()}
	if err := writeStamp(s.binDir, exe, st); err != nil {
		return Resolved{}, diskErr("write version stamp", err)
	}
	if err := syncDir(s.binDir); err != nil {
		return Resolved{}, err
	}
	return Resolved{Path: target, Version: v, Source: SourceDownloaded, Triple: p.triple}, nil
}

// settleDigest reads the sidecar when p trusts it (the opt-in for an
// unpinned asset), or when p asks for it to be checked against the pin.
func (r *Resolver) settleDigest(ctx context.Context, s settings, f *fetcher, p *plan) error {
	if p.origin != originSidecar && !p.checkSidecar {
		return nil
	}
	loc := location{url: p.loc.url, path: p.loc.path}
	if loc.path != "" {
		loc.path += ".sha256"
	} else {
		loc.url += ".sha256"
	}
	buf := &memFile{}
	_, _, err := f.fetch(ctx, loc, buf, maxSidecarSize)
	var he *httpError
	if p.checkSidecar && (errors.As(err, &he) && he.StatusCode == 404 || errors.Is(err, os.ErrNotExist)) {
		return nil // 13.0.0 and local archives have none; the pin suffices
	}
	if err != nil {
		return fmt.Errorf("read the release sidecar %s: %w", loc, err)
	}
	d, err := ParseSidecar(buf.data)
	if err != nil {
		return fmt.Errorf("release sidecar %s: %w", loc, err)
	}
	if p.origin == originSidecar {
		p.want = d
		if s.logOut != nil {
			fmt.Fprintf(s.logOut, "rgfetch: no pinned digest for %s; trusting the release sidecar's SHA-256 %s (--allow-unpinned)\n", p.asset, d)
		}
		return nil
	}
	if d != p.want {
		return &checksumError{URL: loc.String(), Triple: p.triple, Expected: p.want, Actual: d, Origin: p.origin.String(), Sidecar: true}
	}
	return nil
}

// cleanStaleTemps removes temp files a killed install left behind. Only
// called under the lock.
func cleanStaleTemps(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if n := e.Name(); strings.HasPrefix(n, tempPrefix) && strings.HasSuffix(n, tempSuffix) {
			os.Remove(filepath.Join(dir, n))
		}
	}
}

// tempFile is what the install writes its temp files through: the
// downloaded archive (written, rewound for a retry, read back for
// extraction) and the new executable. *os.File is one.
type tempFile interface {
	io.Writer
	io.ReaderAt
	Truncate(size int64) error
	Seek(offset int64, whence int) (int64, error)
	Sync() error
	Close() error
	Name() string
}

// createTempFile is the default Resolver.createTemp.
func createTempFile(dir, pattern string) (tempFile, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err // not a typed nil inside the interface
	}
	return f, nil
}

// diskErr says "disk full" in words when that is what happened.
func diskErr(what string, err error) error {
	if errors.Is(err, syscall.ENOSPC) {
		return fmt.Errorf("%s: disk full: %w", what, err)
	}
	return err
}

// checkpointWriter calls hit halfway through the first write, so a test can
// kill the process with a partly written executable on disk.
type checkpointWriter struct {
	w    io.Writer
	hit  func()
	done bool
}

func (c *checkpointWriter) Write(p []byte) (int, error) {
	if c.done || len(p) < 2 {
		return c.w.Write(p)
	}
	c.done = true
	n, err := c.w.Write(p[:len(p)/2])
	if err != nil {
		return n, err
	}
	c.hit()
	m, err := c.w.Write(p[len(p)/2:])
	return n + m, err
}

// memFile is an in-memory download target for small files (sidecars).
type memFile struct {
	data []byte
	off  int64
}

func (m *memFile) Write(p []byte) (int, error) {
	m.data = append(m.data[:m.off], p...)
	m.off += int64(len(p))
	return len(p), nil
}

func (m *memFile) Truncate(size int64) error {
	m.data = m.data[:min(int64(len(m.data)), size)]
	return nil
}

func (m *memFile) Seek(offset int64, whence int) (int64, error) {
	if whence != io.SeekStart || offset < 0 {
		return 0, errors.New("memFile: only absolute seeks")
	}
	m.off = min(offset, int64(len(m.data)))
	return m.off, nil
}
