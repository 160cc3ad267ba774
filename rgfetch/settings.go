package rgfetch

import (
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/rgkit/rgkit/platforms"
)

// settings are a Resolver's fields with defaults and the environment applied,
// computed once per call so a call sees one consistent configuration.
type settings struct {
	app, envPrefix   string
	binDir           string
	binDirErr        error
	version          string
	mirror           string
	override         string
	offline          bool
	noDownload       bool
	noSystem         bool
	force            bool
	sha256           string
	allowUnpinned    bool
	minVersion       string
	target           platforms.Target
	workDir          string
	home             string
	lookPath         func(string) (string, error)
	getenv           func(string) string
	sleep            func(context.Context, time.Duration) error
	now              func() time.Time
	retries          int
	maxSize          int64
	window           time.Duration
	minRate          int64
	timeout          time.Duration
	versionTimeout   time.Duration
	versionMemo      versionMemo
	failureTTL       time.Duration
	failureMemory    time.Duration
	postInstall      func(context.Context, string) error
	checkpoint       func(string)
	jitter           func() float64
	createTemp       func(dir, pattern string) (tempFile, error)
	httpClient       *http.Client
	progress, logOut io.Writer
}

// EnvPrefix returns the prefix of the environment variables a Resolver for
// app reads: "rgkit" -> "RGKIT" (RGKIT_RG_PATH, RGKIT_BIN_DIR, ...).
func EnvPrefix(app string) string {
	if app == "" {
		app = "rgkit"
	}
	b := []byte(strings.ToUpper(app))
	for i, c := range b {
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b[i] = '_'
		}
	}
	return string(b)
}

func (r *Resolver) settings() settings {
	s := settings{
		app: r.AppName, binDir: r.BinDir, version: r.Version, mirror: r.Mirror, override: r.Override,
		offline: r.Offline, noDownload: r.NoDownload, noSystem: r.NoSystem, force: r.Force,
		sha256: r.SHA256, allowUnpinned: r.AllowUnpinned, minVersion: r.MinVersion, target: r.target,
		workDir: r.WorkDir, lookPath: r.lookPath, getenv: r.getenv, sleep: r.sleep, now: r.now,
		retries: r.retries, maxSize: r.maxSize, window: r.stallWindow, minRate: r.minRate, timeout: r.Timeout,
		versionTimeout: r.versionTimeout, failureTTL: r.failureTTL, failureMemory: r.FailureMemory,
		postInstall: r.postInstall, checkpoint: r.checkpoint, jitter: r.jitter,
		createTemp: r.createTemp,
		httpClient: r.HTTPClient, progress: r.Progress, logOut: r.Log,
	}
	if s.app == "" {
		s.app = "rgkit"
	}
	s.envPrefix = EnvPrefix(s.app)
	if s.getenv == nil {
		s.getenv = os.Getenv
	}
	env := func(name string) string { return s.getenv(s.envPrefix + "_" + name) }
	s.override = r.overridePath()
	if s.binDir == "" {
		s.binDir = env("BIN_DIR")
	}
	home := r.home
	if home == nil {
		home = os.UserHomeDir
	}
	h, homeErr := home()
	if homeErr == nil {
		s.home = h
	}
	if s.binDir == "" {
		if homeErr != nil || h == "" {
			s.binDirErr = homeErr
		} else {
			s.binDir = filepath.Join(h, "."+s.app, "bin")
		}
	}
	if s.binDir != "" {
		if abs, err := filepath.Abs(s.binDir); err == nil {
			s.binDir = abs
		}
	}
	if s.mirror == "" {
		s.mirror = env("MIRROR")
	}
	s.offline = s.offline || truthy(env("OFFLINE"))
	s.noDownload = s.noDownload || truthy(env("NO_DOWNLOAD"))
	if s.version == "" {
		s.version = DefaultVersion
	}
	if s.minVersion == "" {
		s.minVersion = DefaultMinVersion
	}
	if s.target == (platforms.Target{}) {
		r.detectOnce.Do(func() { r.detected = platforms.Detect() })
		s.target = r.detected
	}
	if s.workDir == "" {
		s.workDir, _ = os.Getwd()
	}
	if s.lookPath == nil {
		s.lookPath = exec.LookPath
	}
	if s.sleep == nil {
		s.sleep = sleepCtx
	}
	if s.now == nil {
		s.now = time.Now
	}
	switch {
	case s.retries == 0:
		s.retries = defaultRetries
	case s.retries < 0:
		s.retries = 0
	}
	if s.maxSize <= 0 {
		s.maxSize = defaultMaxSize
	}
	if s.window <= 0 {
		s.window = defaultWindow
	}
	if s.minRate <= 0 {
		s.minRate = defaultMinRate
	}
	switch {
	case s.timeout == 0:
		s.timeout = defaultTimeout
	case s.timeout < 0:
		s.timeout = 0
	}
	if s.versionTimeout <= 0 {
		s.versionTimeout = 5 * time.Second
	}
	if r.versionMemo != nil {
		s.versionMemo = *r.versionMemo
	} else {
		s.versionMemo = defaultVersionMemo(s.app)
	}
	if s.failureTTL == 0 {
		s.failureTTL = 30 * time.Second
	}
	if s.postInstall == nil {
		s.postInstall = func(ctx context.Context, path string) error {
			return platforms.PostInstall(ctx, path, platforms.PostInstallOptions{})
		}
	}
	if s.checkpoint == nil {
		s.checkpoint = func(string) {}
	}
	if s.jitter == nil {
		s.jitter = defaultJitter
	}
	if s.createTemp == nil {
		s.createTemp = createTempFile
	}
	return s
}

// overridePath is Resolver.Override or <APP>_RG_PATH. It is read before
// anything else, so the warm path costs one environment lookup.
func (r *Resolver) overridePath() string {
	if r.Override != "" {
		return r.Override
	}
	getenv := r.getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	key := "RGKIT_RG_PATH" // the common case, without allocating
	if r.AppName != "" && r.AppName != "rgkit" {
		key = EnvPrefix(r.AppName) + "_RG_PATH"
	}
	return getenv(key)
}

// truthy reads a boolean environment variable: 1, true, yes, on.
func truthy(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// fetcher builds the downloader for one call.
func (s settings) fetcher(triple string) *fetcher {
	c := s.httpClient
	if c == nil {
		c = newHTTPClient()
	}
	return &fetcher{
		client: withRedirectPolicy(c), getenv: s.getenv, sleep: s.sleep, now: s.now, jitter: s.jitter,
		retries: s.retries, window: s.window, minRate: s.minRate, progress: s.progress, log: s.logOut, triple: triple,
	}
}
