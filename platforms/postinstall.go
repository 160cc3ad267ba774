package platforms

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime"

	"github.com/rgkit/rgkit/internal/proc"
)

// quarantineAttr is the extended attribute Gatekeeper checks; a binary that
// carries it (e.g. extracted by a quarantine-aware tool) is blocked with
// "Apple could not verify 'rg'..." (BurntSushi/ripgrep#3469, openai/codex#28190).
const quarantineAttr = "com.apple.quarantine"

// PostInstallOptions are PostInstall's dependencies; zero values select the
// real ones.
type PostInstallOptions struct {
	// GOOS selects the steps (runtime.GOOS). Only "darwin" has any.
	GOOS string
	// Codesign is the codesign executable ("/usr/bin/codesign": an absolute
	// path, never a PATH lookup).
	Codesign string
	// Run runs a command and returns its combined output; the error is
	// non-nil for a non-zero exit (internal/proc, stdout then stderr).
	Run func(ctx context.Context, name string, args ...string) ([]byte, error)
	// RemoveXattr removes an extended attribute, returning nil when the file
	// does not carry it (x/sys/unix.Removexattr on darwin ignoring ENOATTR;
	// a no-op elsewhere).
	RemoveXattr func(path, attr string) error
}

func (o PostInstallOptions) withDefaults() PostInstallOptions {
	if o.GOOS == "" {
		o.GOOS = runtime.GOOS
	}
	if o.Codesign == "" {
		o.Codesign = "/usr/bin/codesign"
	}
	if o.Run == nil {
		o.Run = runCombined
	}
	if o.RemoveXattr == nil {
		o.RemoveXattr = removeXattr
	}
	return o
}

// PostInstall makes a freshly extracted executable at path runnable on this
// OS; call it before the smoke test and the final rename. On darwin it
// re-signs ad hoc when the binary is unsigned or only linker-signed (Apple
// silicon kills such a binary with "Killed: 9" once it is modified or
// quarantined, RightNow-AI/openfang#109) and removes com.apple.quarantine.
// Elsewhere it does nothing.
func PostInstall(ctx context.Context, path string, o PostInstallOptions) error {
	o = o.withDefaults()
	if o.GOOS != "darwin" {
		return nil
	}
	return darwinPostInstall(ctx, path, o)
}

// darwinPostInstall holds the darwin steps. It compiles everywhere so tests
// on any OS check the exact commands.
func darwinPostInstall(ctx context.Context, path string, o PostInstallOptions) error {
	// codesign -dv prints to stderr and exits 1 for an unsigned binary, so
	// the output decides, not the exit status alone.
	out, err := o.Run(ctx, o.Codesign, "-dv", path)
	switch {
	case needsAdhocSign(out):
		args := []string{"--sign", "-", "--force", "--preserve-metadata=entitlements,requirements,flags,runtime", path}
		if out, err := o.Run(ctx, o.Codesign, args...); err != nil {
			return fmt.Errorf("platforms: ad-hoc signing %s: %w: %s", path, err, bytes.TrimSpace(out))
		}
	case err != nil:
		return fmt.Errorf("platforms: inspecting the signature of %s: %w: %s", path, err, bytes.TrimSpace(out))
	}
	if err := o.RemoveXattr(path, quarantineAttr); err != nil {
		return fmt.Errorf("platforms: removing %s from %s: %w", quarantineAttr, path, err)
	}
	return nil
}

// needsAdhocSign reports whether `codesign -dv` output describes a binary
// that is unsigned or carries only the linker's ad-hoc signature
// ("flags=0x20002(adhoc,linker-signed)").
func needsAdhocSign(out []byte) bool {
	return bytes.Contains(out, []byte("code object is not signed at all")) ||
		bytes.Contains(out, []byte("linker-signed"))
}

// runCombined is the default PostInstallOptions.Run: stdout then stderr,
// and an error for a non-zero exit.
func runCombined(ctx context.Context, name string, args ...string) ([]byte, error) {
	out, res, err := proc.Output(ctx, proc.Spec{Path: name, Args: args, Env: os.Environ()})
	out = append(out, res.Stderr...)
	if err == nil && res.ExitCode != 0 {
		err = fmt.Errorf("%s: exit status %d", name, res.ExitCode)
	}
	return out, err
}
