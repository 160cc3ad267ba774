package rgfetch

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The environment variables themselves, read through Resolver.Getenv, not
// only the fields they default: <APP>_BIN_DIR, <APP>_MIRROR, <APP>_OFFLINE,
// <APP>_NO_DOWNLOAD, <APP>_RG_PATH, with the embedder's AppName as prefix.
// A field always beats its variable.
//
// Values may name per-test paths: $MIRROR (a directory holding the release
// archive), $EMPTY (an empty directory), $BIN (a fresh directory), $FAKE
// (a fake rg 12.0.0 outside the bin dirs).
func TestEnvironmentVariablesAreHonoured(t *testing.T) {
	skipIfNoShell(t)
	const v = "15.2.0"
	tests := []struct {
		name  string
		app   string
		env   map[string]string
		field func(r *Resolver, paths map[string]string) // fields set on top
		// Expectations. wantPath may use $BIN, $FAKE and $HOME.
		wantSource  Source
		wantPath    string
		wantHits    int    // HTTPS requests to the release server
		wantErrText string // non-empty: Resolve fails with ErrNotInstalled and this text
	}{
		{name: "no variables: ~/.rgkit/bin from the server",
			wantSource: SourceDownloaded, wantPath: "$HOME/.rgkit/bin/rg", wantHits: 1},
		{name: "RGKIT_BIN_DIR moves the managed copy",
			env:        map[string]string{"RGKIT_BIN_DIR": "$BIN"},
			wantSource: SourceDownloaded, wantPath: "$BIN/rg", wantHits: 1},
		{name: "BinDir field beats RGKIT_BIN_DIR",
			env:        map[string]string{"RGKIT_BIN_DIR": "$EMPTY"},
			field:      func(r *Resolver, p map[string]string) { r.BinDir = p["$BIN"] },
			wantSource: SourceDownloaded, wantPath: "$BIN/rg", wantHits: 1},
		{name: "RGKIT_MIRROR as a file:// URL",
			env:        map[string]string{"RGKIT_MIRROR": "file://$MIRROR"},
			field:      noMirrorField,
			wantSource: SourceDownloaded, wantPath: "$HOME/.rgkit/bin/rg", wantHits: 0},
		{name: "RGKIT_MIRROR as a plain directory",
			env:        map[string]string{"RGKIT_MIRROR": "$MIRROR"},
			field:      noMirrorField,
			wantSource: SourceDownloaded, wantPath: "$HOME/.rgkit/bin/rg", wantHits: 0},
		{name: "Mirror field beats RGKIT_MIRROR",
			env:        map[string]string{"RGKIT_MIRROR": "$EMPTY"},
			wantSource: SourceDownloaded, wantPath: "$HOME/.rgkit/bin/rg", wantHits: 1},
		{name: "RGKIT_OFFLINE=1",
			env:         map[string]string{"RGKIT_OFFLINE": "1"},
			wantErrText: "offline mode (RGKIT_OFFLINE"},
		{name: "RGKIT_OFFLINE=true",
			env:         map[string]string{"RGKIT_OFFLINE": "true"},
			wantErrText: "offline mode (RGKIT_OFFLINE"},
		{name: "RGKIT_OFFLINE=0 is not offline",
			env:        map[string]string{"RGKIT_OFFLINE": "0"},
			wantSource: SourceDownloaded, wantPath: "$HOME/.rgkit/bin/rg", wantHits: 1},
		{name: "RGKIT_NO_DOWNLOAD=1",
			env:         map[string]string{"RGKIT_NO_DOWNLOAD": "1"},
			wantErrText: "downloads disabled (RGKIT_NO_DOWNLOAD"},
		{name: "RGKIT_RG_PATH wins over everything",
			env:        map[string]string{"RGKIT_RG_PATH": "$FAKE", "RGKIT_OFFLINE": "1"},
			wantSource: SourceOverride, wantPath: "$FAKE", wantHits: 0},
		{name: "AppName myagent: ~/.myagent/bin",
			app:        "myagent",
			wantSource: SourceDownloaded, wantPath: "$HOME/.myagent/bin/rg", wantHits: 1},
		{name: "AppName myagent: MYAGENT_BIN_DIR, not RGKIT_BIN_DIR",
			app:        "myagent",
			env:        map[string]string{"MYAGENT_BIN_DIR": "$BIN", "RGKIT_BIN_DIR": "$EMPTY"},
			wantSource: SourceDownloaded, wantPath: "$BIN/rg", wantHits: 1},
		{name: "AppName myagent: MYAGENT_MIRROR",
			app:        "myagent",
			env:        map[string]string{"MYAGENT_MIRROR": "$MIRROR", "RGKIT_MIRROR": "$EMPTY"},
			field:      noMirrorField,
			wantSource: SourceDownloaded, wantPath: "$HOME/.myagent/bin/rg", wantHits: 0},
		{name: "AppName myagent: RGKIT_RG_PATH and RGKIT_OFFLINE are someone else's",
			app:        "myagent",
			env:        map[string]string{"RGKIT_RG_PATH": "$FAKE", "RGKIT_OFFLINE": "1", "RGKIT_NO_DOWNLOAD": "1"},
			wantSource: SourceDownloaded, wantPath: "$HOME/.myagent/bin/rg", wantHits: 1},
		{name: "AppName myagent: MYAGENT_OFFLINE names MYAGENT_ variables",
			app:         "myagent",
			env:         map[string]string{"MYAGENT_OFFLINE": "1"},
			wantErrText: "MYAGENT_MIRROR=URL"},
		{name: "AppName myagent: MYAGENT_RG_PATH",
			app:        "myagent",
			env:        map[string]string{"MYAGENT_RG_PATH": "$FAKE"},
			wantSource: SourceOverride, wantPath: "$FAKE", wantHits: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newTestEnv(t)
			name, data := releaseTarGz(t, v, "x86_64-unknown-linux-musl", fakeRg(v))
			e.srv.put(name, data)
			paths := map[string]string{
				"$MIRROR": t.TempDir(), "$EMPTY": t.TempDir(), "$BIN": t.TempDir(),
				"$FAKE": writeFakeRg(t, t.TempDir(), "12.0.0"), "$HOME": e.home,
			}
			if err := os.WriteFile(filepath.Join(paths["$MIRROR"], name), data, 0o644); err != nil {
				t.Fatal(err)
			}
			expand := func(s string) string {
				for k, p := range paths {
					s = strings.ReplaceAll(s, k, filepath.ToSlash(p))
				}
				return filepath.FromSlash(s)
			}
			for k, val := range tt.env {
				e.env[k] = expand(val)
			}
			r := e.resolver()
			r.AppName, r.SHA256 = tt.app, sha256Hex(data)
			if tt.field != nil {
				tt.field(r, paths)
			}

			res, err := r.Resolve(context.Background())
			if tt.wantErrText != "" {
				if !errors.Is(err, ErrNotInstalled) || !strings.Contains(err.Error(), tt.wantErrText) {
					t.Fatalf("err = %v; want ErrNotInstalled saying %q", err, tt.wantErrText)
				}
				if n := e.srv.total(); n != 0 {
					t.Errorf("%d requests; want none", n)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if want := expand(tt.wantPath); res.Source != tt.wantSource || res.Path != want {
				t.Fatalf("Resolved = %+v; want source %s at %s", res, tt.wantSource, want)
			}
			if n := e.srv.total(); n != tt.wantHits {
				t.Errorf("%d requests to the release server; want %d", n, tt.wantHits)
			}
			if tt.wantSource == SourceOverride {
				assertWorks(t, res, "12.0.0")
			} else {
				assertWorks(t, res, v)
			}
			// The directory an overridden variable pointed at stays empty.
			if left, _ := os.ReadDir(paths["$EMPTY"]); len(left) != 0 {
				t.Errorf("%s was written to: %v", paths["$EMPTY"], left)
			}
		})
	}
}

// noMirrorField clears the test world's default Mirror (the TLS server) so
// the variable is what counts.
func noMirrorField(r *Resolver, _ map[string]string) { r.Mirror = "" }
