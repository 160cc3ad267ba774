// Package platforms describes the machine rgkit runs on and maps it to
// ripgrep's release assets.
//
// A Target is the running platform as far as choosing a ripgrep binary is
// concerned: OS and CPU architecture (the native one, even when this process
// is emulated), the C library on Linux (the aarch64 and i686 gnu builds are
// dynamically linked to glibc and do not start on Alpine), the page size (the
// musl aarch64 build links jemalloc, which aborts on 16K/64K-page kernels),
// and whether Rosetta 2 is available on Apple silicon.
package platforms

// Libc is the C library of a Linux host; it decides between the gnu and musl
// release builds.
type Libc string

const (
	// LibcGNU is glibc (Debian, Ubuntu, Fedora, ...).
	LibcGNU Libc = "gnu"
	// LibcMusl is musl (Alpine, Void musl, distroless-static images ...).
	LibcMusl Libc = "musl"
	// LibcNone is used where the notion does not apply (darwin, windows, BSDs).
	LibcNone Libc = "none"
)

// Target is a platform, as far as picking a ripgrep release asset goes.
type Target struct {
	// OS and Arch use Go's GOOS/GOARCH spelling. Arch is the machine's native
	// architecture: an amd64 process translated by Rosetta 2 on an arm64 Mac
	// reports "arm64", so the native asset is fetched; so does an emulated
	// process on Windows on Arm. A 386 process on an x86_64 Linux kernel
	// reports "amd64" (the static x86_64 build runs there).
	OS, Arch string
	// Libc is the Linux C library; LibcNone elsewhere.
	Libc Libc
	// PageSize is the memory page size in bytes (0 when unknown).
	PageSize int
	// Translated reports whether this process runs under emulation: Rosetta 2
	// (sysctl.proc_translated == 1) or Windows-on-Arm emulation
	// (IsWow64Process2 reports a different native machine).
	Translated bool
	// Rosetta reports, on darwin/arm64, whether x86_64 emulation is
	// installed, so an x86_64-only ripgrep (13.x) can run.
	Rosetta bool
	// GOARM is the ARM architecture version on linux/arm (6, 7, 8); 0 when
	// unknown, which Triple treats as 7.
	GOARM int
}

// String returns "os/arch", plus the libc on Linux ("linux/arm64 (musl)").
func (t Target) String() string {
	s := t.OS + "/" + t.Arch
	if t.OS == "linux" && t.Libc != "" && t.Libc != LibcNone {
		s += " (" + string(t.Libc) + ")"
	}
	return s
}

// ExeName returns the file name of the ripgrep executable on t: "rg.exe" on
// Windows, "rg" elsewhere.
func (t Target) ExeName() string {
	if t.OS == "windows" {
		return "rg.exe"
	}
	return "rg"
}

// ArchiveExt returns the extension of ripgrep's release archives for t:
// ".zip" on Windows (built with 7z), ".tar.gz" elsewhere.
func (t Target) ArchiveExt() string {
	if t.OS == "windows" {
		return ".zip"
	}
	return ".tar.gz"
}

// AssetName returns the release asset's file name for version (no "v"
// prefix), e.g. "ripgrep-15.1.0-x86_64-unknown-linux-musl.tar.gz".
func (t Target) AssetName(version string) (string, error) {
	triple, err := t.Triple(version)
	if err != nil {
		return "", err
	}
	return "ripgrep-" + version + "-" + triple + t.ArchiveExt(), nil
}

// MemberName returns the archive member that holds the executable, e.g.
// "ripgrep-15.1.0-x86_64-unknown-linux-musl/rg": release archives keep a
// top-level directory named like the archive.
func (t Target) MemberName(version string) (string, error) {
	triple, err := t.Triple(version)
	if err != nil {
		return "", err
	}
	return "ripgrep-" + version + "-" + triple + "/" + t.ExeName(), nil
}

// Detect returns the running Target, using the real probes.
func Detect() Target {
	return Probes{}.Detect()
}
