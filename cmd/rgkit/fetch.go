package main

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/rgkit/rgkit/rgfetch"
)

// fetchOptions are the flags of `rgkit fetch`.
type fetchOptions struct {
	version, binDir, mirror, sha256, archive, asRg string
	offline, force, allowUnpinned, json            bool
	timeout                                        time.Duration
}

func newFetchCmd(s streams) *cobra.Command {
	var o fetchOptions
	cmd := &cobra.Command{
		Use:   "fetch",
		Short: "Print the path of a working rg, installing the pinned release if needed",
		Long: `Print the absolute path of a working rg on stdout, and nothing else there,
so that $(rgkit fetch) works in scripts.

Resolution order: RGKIT_RG_PATH, the system rg on PATH (never one inside
the working directory; at least 13.0.0), the managed copy in
~/.rgkit/bin (RGKIT_BIN_DIR), then a download of ripgrep ` + rgfetch.DefaultVersion + ` for this
platform, verified against a SHA-256 pinned in rgkit and installed
atomically. Flags that describe an install (--version, --bin-dir, --mirror,
--sha256, --allow-unpinned, --force, --archive) ask for the managed copy, so
the system rg is not considered.

A download that averages under 1 kB/s over 30 s is abandoned as stalled,
and the whole download (retries included) is bounded by --timeout.

--as-rg DIR does not fetch anything: it places a link named rg in DIR
that points at this rgkit executable (a copy on Windows), so that tools
which run "rg" find rgkit. It never replaces a file that is not already
such a link, and prints the link's path.

Environment: RGKIT_RG_PATH, RGKIT_BIN_DIR, RGKIT_MIRROR, RGKIT_OFFLINE,
RGKIT_NO_DOWNLOAD, GITHUB_TOKEN (sent to github.com only), HTTPS_PROXY,
NO_PROXY.

Exit status: 0 success, 2 failure.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runFetch(cmd, s, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.version, "version", "", "ripgrep release to install (default "+rgfetch.DefaultVersion+")")
	f.StringVar(&o.binDir, "bin-dir", "", "install directory (default $RGKIT_BIN_DIR or ~/.rgkit/bin)")
	f.StringVar(&o.mirror, "mirror", "", "download from this https:// URL, file:// URL or directory instead of GitHub")
	f.BoolVar(&o.offline, "offline", false, "never use the network (also RGKIT_OFFLINE=1)")
	f.BoolVar(&o.force, "force", false, "reinstall the managed copy even if it verifies")
	f.StringVar(&o.sha256, "sha256", "", "trust this archive SHA-256 for this run instead of the pinned one")
	f.BoolVar(&o.allowUnpinned, "allow-unpinned", false, "for a version with no pinned digest, trust the release's .sha256 sidecar")
	f.StringVar(&o.archive, "archive", "", "install from this archive file (.tar.gz, .tar.xz, .zip or .deb); needs a pin or --sha256")
	f.BoolVar(&o.json, "json", false, "print {path, version, source, triple} as JSON")
	f.DurationVar(&o.timeout, "timeout", 5*time.Minute, "give up a download (retries included) after this long; 0 for no limit")
	f.StringVar(&o.asRg, "as-rg", "", "place a link named rg in this directory pointing at the rgkit executable, then exit")
	return cmd
}

func runFetch(cmd *cobra.Command, s streams, o fetchOptions) error {
	if o.asRg != "" {
		path, err := linkAsRg(o.asRg)
		if err != nil {
			return &exitError{code: 2, err: err}
		}
		_, err = fmt.Fprintln(s.out, path)
		return err
	}
	if o.timeout < 0 {
		return &exitError{code: 2, err: fmt.Errorf("--timeout %s: must not be negative", o.timeout)}
	}
	timeout := o.timeout
	if timeout == 0 {
		timeout = -1 // the Resolver's "no bound"
	}
	r := &rgfetch.Resolver{
		Version: o.version, BinDir: o.binDir, Mirror: o.mirror, Offline: o.offline, Force: o.force,
		SHA256: o.sha256, AllowUnpinned: o.allowUnpinned, Progress: s.errOut, Log: s.errOut, Timeout: timeout,
	}
	fl := cmd.Flags()
	for _, name := range []string{"version", "bin-dir", "mirror", "sha256", "allow-unpinned", "force"} {
		if fl.Changed(name) {
			r.NoSystem = true
		}
	}
	var res rgfetch.Resolved
	var err error
	if o.archive != "" {
		res, err = r.InstallArchive(cmd.Context(), o.archive)
	} else {
		res, err = r.Resolve(cmd.Context())
	}
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	if o.json {
		enc := json.NewEncoder(s.out)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	_, err = fmt.Fprintln(s.out, res.Path)
	return err
}
