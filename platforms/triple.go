package platforms

import (
	"strconv"

	"github.com/rgkit/rgkit/internal/version"
)

// Triple returns the Rust target triple of ripgrep's release asset for
// version on t, from the asset names of ripgrep's releases:
//
//   - linux/amd64: x86_64-unknown-linux-musl (static; no gnu build exists).
//   - linux/arm64: aarch64-unknown-linux-gnu from 14.0.0 on glibc. On musl,
//     aarch64-unknown-linux-musl only from 15.2.0 and only on 4 KiB pages:
//     it links jemalloc, which aborts on 16K/64K-page kernels.
//   - linux/386: i686-unknown-linux-gnu from 14.0.0 (glibc).
//   - linux/arm (ARMv7+): armv7-unknown-linux-musleabihf from 14.1.0
//     (static, any libc); before 14.0.0 arm-unknown-linux-gnueabihf (glibc).
//   - linux/s390x: s390x-unknown-linux-gnu from 14.0.0; linux/ppc64:
//     powerpc64-unknown-linux-gnu in 14.x only.
//   - darwin/amd64: x86_64-apple-darwin. darwin/arm64: aarch64-apple-darwin
//     from 14.0.0, before that x86_64-apple-darwin if Rosetta 2 is installed.
//   - windows/amd64: x86_64-pc-windows-msvc; windows/386: i686-pc-windows-msvc;
//     windows/arm64: aarch64-pc-windows-msvc from 15.0.0, before that the
//     x86_64 build under emulation.
//
// Anything else (ppc64le, riscv64, loong64, the BSDs, illumos, ...) has no
// upstream asset and gets an *UnsupportedError, as does a version that
// predates a platform's first build.
func (t Target) Triple(ver string) (string, error) {
	v, err := parseVersion(ver)
	if err != nil {
		return "", err
	}
	no := func(reason string) (string, error) {
		return "", &UnsupportedError{Target: t, Version: ver, Reason: reason}
	}
	switch t.OS {
	case "linux":
		return t.linuxTriple(v, no)
	case "darwin":
		switch t.Arch {
		case "amd64":
			return "x86_64-apple-darwin", nil
		case "arm64":
			if v.AtLeast(14, 0, 0) {
				return "aarch64-apple-darwin", nil
			}
			if t.Rosetta {
				return "x86_64-apple-darwin", nil
			}
			return no("ripgrep before 14.0.0 has no aarch64-apple-darwin build and Rosetta 2 is not installed (`softwareupdate --install-rosetta`)")
		}
	case "windows":
		switch t.Arch {
		case "amd64":
			return "x86_64-pc-windows-msvc", nil
		case "386":
			return "i686-pc-windows-msvc", nil
		case "arm64":
			if v.AtLeast(15, 0, 0) {
				return "aarch64-pc-windows-msvc", nil
			}
			// Windows on Arm runs x86_64 programs under emulation.
			return "x86_64-pc-windows-msvc", nil
		}
	}
	return no("ripgrep publishes no build for this platform")
}

// linuxTriple is Triple for t.OS == "linux".
func (t Target) linuxTriple(v version.V, no func(string) (string, error)) (string, error) {
	glibc := t.Libc != LibcMusl // unknown counts as glibc, the common case
	switch t.Arch {
	case "amd64":
		return "x86_64-unknown-linux-musl", nil
	case "arm64":
		if glibc {
			if v.AtLeast(14, 0, 0) {
				return "aarch64-unknown-linux-gnu", nil
			}
			return no("ripgrep before 14.0.0 has no aarch64 Linux build")
		}
		if !v.AtLeast(15, 2, 0) {
			return no("the aarch64-unknown-linux-gnu build needs glibc and aarch64-unknown-linux-musl exists only from 15.2.0")
		}
		if t.PageSize != 4096 {
			return no(pageSizeReason(t.PageSize))
		}
		return "aarch64-unknown-linux-musl", nil
	case "386":
		if !v.AtLeast(14, 0, 0) {
			return no("ripgrep before 14.0.0 has no i686 Linux build")
		}
		if !glibc {
			return no("the i686-unknown-linux-gnu build needs glibc")
		}
		return "i686-unknown-linux-gnu", nil
	case "arm":
		armv := t.GOARM
		if armv == 0 {
			armv = 7
		}
		if !v.AtLeast(14, 0, 0) {
			if armv < 6 {
				return no("arm-unknown-linux-gnueabihf needs ARMv6 with VFP")
			}
			if !glibc {
				return no("the arm-unknown-linux-gnueabihf build needs glibc")
			}
			return "arm-unknown-linux-gnueabihf", nil
		}
		if armv < 7 {
			return no("ripgrep 14+ builds for 32-bit ARM need ARMv7")
		}
		if !v.AtLeast(14, 1, 0) {
			return no("ripgrep 14.0.x has no 32-bit ARM build (armv7 from 14.1.0)")
		}
		return "armv7-unknown-linux-musleabihf", nil
	case "s390x":
		if !v.AtLeast(14, 0, 0) {
			return no("ripgrep before 14.0.0 has no s390x build")
		}
		if !glibc {
			return no("the s390x-unknown-linux-gnu build needs glibc")
		}
		return "s390x-unknown-linux-gnu", nil
	case "ppc64":
		if !v.AtLeast(14, 0, 0) || v.AtLeast(15, 0, 0) {
			return no("ripgrep built powerpc64 (big-endian) only in 14.x")
		}
		if !glibc {
			return no("the powerpc64-unknown-linux-gnu build needs glibc")
		}
		return "powerpc64-unknown-linux-gnu", nil
	}
	return no("ripgrep publishes no build for this architecture")
}

// pageSizeReason explains why the musl aarch64 build is refused.
func pageSizeReason(pageSize int) string {
	if pageSize == 0 {
		return "the aarch64-unknown-linux-musl build links jemalloc built for 4 KiB pages and this kernel's page size is unknown"
	}
	return "the aarch64-unknown-linux-musl build links jemalloc built for 4 KiB pages and aborts on this kernel's " + strconv.Itoa(pageSize/1024) + " KiB pages"
}
