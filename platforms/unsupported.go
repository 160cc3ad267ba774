package platforms

import "fmt"

// UnsupportedError says that ripgrep publishes no release asset usable on
// Target for Version. Its message names the platform and the ways to get rg
// anyway, because the fix is always outside rgkit: install rg with the
// system package manager, or point RGKIT_RG_PATH at one.
type UnsupportedError struct {
	Target  Target
	Version string
	// Reason says why no asset fits, e.g. "ripgrep publishes no ppc64le build".
	Reason string
}

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("no ripgrep %s release asset for %s: %s; install ripgrep with the system package manager (%s) or set RGKIT_RG_PATH to an rg executable",
		e.Version, e.Target, e.Reason, packageHint(e.Target))
}

// packageHint suggests the package-manager command most likely to work on t.
func packageHint(t Target) string {
	switch t.OS {
	case "linux":
		if t.Libc == LibcMusl {
			return "e.g. `apk add ripgrep`"
		}
		return "e.g. `apt-get install ripgrep`, `dnf install ripgrep`, `apk add ripgrep`"
	case "darwin":
		return "e.g. `brew install ripgrep`"
	case "windows":
		return "e.g. `winget install BurntSushi.ripgrep.MSVC`, `choco install ripgrep`, `scoop install ripgrep`"
	case "freebsd", "dragonfly":
		return "e.g. `pkg install ripgrep`"
	case "openbsd":
		return "e.g. `pkg_add ripgrep`"
	case "netbsd", "illumos", "solaris":
		return "e.g. `pkgin install ripgrep`"
	}
	return "or `cargo install ripgrep`"
}
