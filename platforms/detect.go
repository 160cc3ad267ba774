package platforms

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
)

// rosettaRuntime is the file whose presence means Rosetta 2 is installed;
// GitHub's gh CLI checks the same path.
const rosettaRuntime = "/Library/Apple/usr/libexec/oah/libRosettaRuntime"

// Probes are the questions Detect asks the system. Each nil field falls back
// to the real probe, so tests replace exactly the ones they need.
type Probes struct {
	// GOOS and GOARCH are the build's OS and architecture (runtime.GOOS,
	// runtime.GOARCH).
	GOOS, GOARCH string
	// ReadFile reads a whole file (os.ReadFile); used for /proc/cpuinfo.
	ReadFile func(name string) ([]byte, error)
	// ELFInterp returns the PT_INTERP string of the ELF file at path, ""
	// for a static executable (ELFInterpreter on the opened file).
	ELFInterp func(path string) (string, error)
	// Glob lists files matching pattern (filepath.Glob); used for
	// /lib/ld-musl-*.
	Glob func(pattern string) ([]string, error)
	// Stat stats a file (os.Stat); used for the Rosetta runtime.
	Stat func(name string) (fs.FileInfo, error)
	// PageSize returns the memory page size (os.Getpagesize).
	PageSize func() int
	// SysctlUint32 reads a darwin sysctl (x/sys/unix.SysctlUint32 on darwin,
	// an error elsewhere); used for sysctl.proc_translated.
	SysctlUint32 func(name string) (uint32, error)
	// NativeMachine returns the machine's native GOARCH as reported by
	// Windows' IsWow64Process2 ("arm64" under x64 emulation on Windows on
	// Arm); an error off Windows or when the call is unavailable.
	NativeMachine func() (string, error)
	// KernelMachine returns the Linux kernel's machine name, as `uname -m`
	// prints it ("x86_64"); used to run the static x86_64 build from a 386
	// binary on a 64-bit kernel.
	KernelMachine func() (string, error)
	// BuildSetting returns a setting of the running binary's build info
	// (debug.ReadBuildInfo), e.g. "GOARM"; "" when absent.
	BuildSetting func(key string) string
}

// withDefaults fills the nil fields with the real probes.
func (p Probes) withDefaults() Probes {
	if p.GOOS == "" {
		p.GOOS = runtime.GOOS
	}
	if p.GOARCH == "" {
		p.GOARCH = runtime.GOARCH
	}
	if p.ReadFile == nil {
		p.ReadFile = os.ReadFile
	}
	if p.ELFInterp == nil {
		p.ELFInterp = elfInterpOfFile
	}
	if p.Glob == nil {
		p.Glob = filepath.Glob
	}
	if p.Stat == nil {
		p.Stat = os.Stat
	}
	if p.PageSize == nil {
		p.PageSize = os.Getpagesize
	}
	if p.SysctlUint32 == nil {
		p.SysctlUint32 = sysctlUint32
	}
	if p.NativeMachine == nil {
		p.NativeMachine = nativeMachine
	}
	if p.KernelMachine == nil {
		p.KernelMachine = kernelMachine
	}
	if p.BuildSetting == nil {
		p.BuildSetting = buildSetting
	}
	return p
}

// Detect returns the Target the probes describe.
func (p Probes) Detect() Target {
	p = p.withDefaults()
	t := Target{OS: p.GOOS, Arch: p.GOARCH, Libc: LibcNone, PageSize: p.PageSize()}
	switch t.OS {
	case "linux":
		t.Libc = p.linuxLibc()
		// A 386 binary on an x86_64 kernel (an i386 userland, or a 386
		// rgkit on amd64): the static x86_64 musl build runs there, while
		// the i686 gnu build needs a 32-bit glibc that may be missing.
		if m, err := p.KernelMachine(); err == nil && t.Arch == "386" && m == "x86_64" {
			t.Arch = "amd64"
		}
		if t.Arch == "arm" {
			t.GOARM = p.armVersion()
		}
	case "darwin":
		// Rosetta 2 only translates x86_64 to arm64, so a translated
		// process runs on an arm64 machine.
		if v, err := p.SysctlUint32("sysctl.proc_translated"); err == nil && v == 1 {
			t.Translated = true
			t.Arch = "arm64"
		}
		if t.Arch == "arm64" {
			_, err := p.Stat(rosettaRuntime)
			t.Rosetta = t.Translated || err == nil
		}
	case "windows":
		if native, err := p.NativeMachine(); err == nil && native != "" && native != t.Arch {
			t.Translated = true
			t.Arch = native
		}
	}
	return t
}

// linuxLibc decides glibc or musl from the dynamic loader that this process,
// or failing that /bin/sh, names in its PT_INTERP header, then from the
// presence of musl's loader. A static Go binary has no PT_INTERP, which is
// why /bin/sh is asked next. Unknown counts as glibc, the common case.
func (p Probes) linuxLibc() Libc {
	for _, exe := range []string{"/proc/self/exe", "/bin/sh"} {
		interp, err := p.ELFInterp(exe)
		if err != nil || interp == "" {
			continue
		}
		if strings.Contains(filepath.Base(interp), "ld-musl") {
			return LibcMusl
		}
		return LibcGNU
	}
	if m, err := p.Glob("/lib/ld-musl-*"); err == nil && len(m) > 0 {
		return LibcMusl
	}
	return LibcGNU
}

// armVersion returns the ARM architecture version: the hardware's from
// /proc/cpuinfo ("CPU architecture: 7"), else the GOARM the binary was built
// for, else 0 (unknown).
func (p Probes) armVersion() int {
	if data, err := p.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range bytes.Lines(data) {
			key, val, ok := bytes.Cut(line, []byte(":"))
			if !ok || string(bytes.TrimSpace(key)) != "CPU architecture" {
				continue
			}
			if n := leadingInt(string(bytes.TrimSpace(val))); n > 0 {
				return n
			}
		}
	}
	return leadingInt(p.BuildSetting("GOARM"))
}

// leadingInt parses the decimal digits at the start of s ("7,hardfloat" ->
// 7, "AArch64" -> 0).
func leadingInt(s string) int {
	end := 0
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	n, _ := strconv.Atoi(s[:end])
	return n
}

// buildSetting is the default Probes.BuildSetting.
func buildSetting(key string) string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, s := range info.Settings {
		if s.Key == key {
			return s.Value
		}
	}
	return ""
}
