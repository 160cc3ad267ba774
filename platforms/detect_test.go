package platforms

import (
	"bytes"
	"debug/elf"
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"
	"time"
)

// fakeProbes answers every probe from fixed data, so no test reads this
// machine by accident.
type fakeProbes struct {
	goos, goarch string
	files        map[string][]byte // ReadFile
	interps      map[string]string // ELFInterp; absent = error
	globs        map[string][]string
	exists       map[string]bool // Stat
	pageSize     int
	sysctl       map[string]uint32 // absent = error (as on Intel Macs)
	native       string            // NativeMachine; "" = error
	machine      string            // KernelMachine; "" = error
	build        map[string]string
}

func (f fakeProbes) probes() Probes {
	return Probes{
		GOOS: f.goos, GOARCH: f.goarch,
		ReadFile: func(name string) ([]byte, error) {
			if b, ok := f.files[name]; ok {
				return b, nil
			}
			return nil, fs.ErrNotExist
		},
		ELFInterp: func(path string) (string, error) {
			if s, ok := f.interps[path]; ok {
				return s, nil
			}
			return "", fs.ErrNotExist
		},
		Glob: func(pattern string) ([]string, error) { return f.globs[pattern], nil },
		Stat: func(name string) (fs.FileInfo, error) {
			if f.exists[name] {
				return fakeInfo(name), nil
			}
			return nil, fs.ErrNotExist
		},
		PageSize: func() int { return f.pageSize },
		SysctlUint32: func(name string) (uint32, error) {
			if v, ok := f.sysctl[name]; ok {
				return v, nil
			}
			return 0, errors.New("sysctl: no such name")
		},
		NativeMachine: func() (string, error) {
			if f.native == "" {
				return "", errors.ErrUnsupported
			}
			return f.native, nil
		},
		KernelMachine: func() (string, error) {
			if f.machine == "" {
				return "", errors.ErrUnsupported
			}
			return f.machine, nil
		},
		BuildSetting: func(key string) string { return f.build[key] },
	}
}

type fakeInfo string

func (f fakeInfo) Name() string       { return string(f) }
func (f fakeInfo) Size() int64        { return 0 }
func (f fakeInfo) Mode() fs.FileMode  { return 0o644 }
func (f fakeInfo) ModTime() time.Time { return time.Time{} }
func (f fakeInfo) IsDir() bool        { return false }
func (f fakeInfo) Sys() any           { return nil }

func TestDetect(t *testing.T) {
	const (
		glibcLoader = "/lib64/ld-linux-x86-64.so.2"
		muslLoader  = "/lib/ld-musl-aarch64.so.1"
	)
	tests := []struct {
		name  string
		probe fakeProbes
		want  Target
	}{
		{"debian amd64: static Go binary, /bin/sh names the glibc loader",
			fakeProbes{goos: "linux", goarch: "amd64", pageSize: 4096,
				interps: map[string]string{"/proc/self/exe": "", "/bin/sh": glibcLoader}},
			Target{OS: "linux", Arch: "amd64", Libc: LibcGNU, PageSize: 4096}},
		{"alpine arm64: /bin/sh names ld-musl",
			fakeProbes{goos: "linux", goarch: "arm64", pageSize: 4096,
				interps: map[string]string{"/proc/self/exe": "", "/bin/sh": muslLoader}},
			Target{OS: "linux", Arch: "arm64", Libc: LibcMusl, PageSize: 4096}},
		{"cgo binary on musl: /proc/self/exe decides before /bin/sh",
			fakeProbes{goos: "linux", goarch: "arm64", pageSize: 65536,
				interps: map[string]string{"/proc/self/exe": muslLoader, "/bin/sh": glibcLoader}},
			Target{OS: "linux", Arch: "arm64", Libc: LibcMusl, PageSize: 65536}},
		{"no readable ELF but /lib/ld-musl-* present",
			fakeProbes{goos: "linux", goarch: "amd64", pageSize: 4096,
				globs: map[string][]string{"/lib/ld-musl-*": {"/lib/ld-musl-x86_64.so.1"}}},
			Target{OS: "linux", Arch: "amd64", Libc: LibcMusl, PageSize: 4096}},
		{"nothing known: glibc assumed",
			fakeProbes{goos: "linux", goarch: "s390x", pageSize: 4096},
			Target{OS: "linux", Arch: "s390x", Libc: LibcGNU, PageSize: 4096}},
		{"raspberry pi 32-bit: ARM version from /proc/cpuinfo",
			fakeProbes{goos: "linux", goarch: "arm", pageSize: 4096,
				interps: map[string]string{"/bin/sh": "/lib/ld-linux-armhf.so.3"},
				files:   map[string][]byte{"/proc/cpuinfo": []byte("processor\t: 0\nmodel name\t: ARMv6-compatible processor rev 7 (v6l)\nCPU architecture: 7\n")},
				build:   map[string]string{"GOARM": "6"}},
			Target{OS: "linux", Arch: "arm", Libc: LibcGNU, PageSize: 4096, GOARM: 7}},
		{"linux/arm without cpuinfo: the build's GOARM",
			fakeProbes{goos: "linux", goarch: "arm", pageSize: 4096, build: map[string]string{"GOARM": "6,softfloat"}},
			Target{OS: "linux", Arch: "arm", Libc: LibcGNU, PageSize: 4096, GOARM: 6}},
		{"386 binary on an x86_64 kernel uses the static x86_64 build",
			fakeProbes{goos: "linux", goarch: "386", pageSize: 4096, machine: "x86_64",
				interps: map[string]string{"/bin/sh": "/lib/ld-linux.so.2"}},
			Target{OS: "linux", Arch: "amd64", Libc: LibcGNU, PageSize: 4096}},
		{"386 binary on a 32-bit kernel stays 386",
			fakeProbes{goos: "linux", goarch: "386", pageSize: 4096, machine: "i686",
				interps: map[string]string{"/bin/sh": "/lib/ld-linux.so.2"}},
			Target{OS: "linux", Arch: "386", Libc: LibcGNU, PageSize: 4096}},
		{"32-bit arm userland on an aarch64 kernel stays arm",
			fakeProbes{goos: "linux", goarch: "arm", pageSize: 4096, machine: "aarch64",
				files: map[string][]byte{"/proc/cpuinfo": []byte("CPU architecture: 8\n")}},
			Target{OS: "linux", Arch: "arm", Libc: LibcGNU, PageSize: 4096, GOARM: 8}},
		{"intel mac: no proc_translated sysctl",
			fakeProbes{goos: "darwin", goarch: "amd64", pageSize: 4096},
			Target{OS: "darwin", Arch: "amd64", Libc: LibcNone, PageSize: 4096}},
		{"apple silicon, native arm64 build, Rosetta installed",
			fakeProbes{goos: "darwin", goarch: "arm64", pageSize: 16384,
				sysctl: map[string]uint32{"sysctl.proc_translated": 0}, exists: map[string]bool{rosettaRuntime: true}},
			Target{OS: "darwin", Arch: "arm64", Libc: LibcNone, PageSize: 16384, Rosetta: true}},
		{"apple silicon, native arm64 build, no Rosetta",
			fakeProbes{goos: "darwin", goarch: "arm64", pageSize: 16384,
				sysctl: map[string]uint32{"sysctl.proc_translated": 0}},
			Target{OS: "darwin", Arch: "arm64", Libc: LibcNone, PageSize: 16384}},
		{"amd64 build translated by Rosetta reports arm64",
			fakeProbes{goos: "darwin", goarch: "amd64", pageSize: 4096,
				sysctl: map[string]uint32{"sysctl.proc_translated": 1}},
			Target{OS: "darwin", Arch: "arm64", Libc: LibcNone, PageSize: 4096, Translated: true, Rosetta: true}},
		{"windows amd64 native",
			fakeProbes{goos: "windows", goarch: "amd64", pageSize: 4096, native: "amd64"},
			Target{OS: "windows", Arch: "amd64", Libc: LibcNone, PageSize: 4096}},
		{"windows on arm: amd64 build under emulation reports arm64",
			fakeProbes{goos: "windows", goarch: "amd64", pageSize: 4096, native: "arm64"},
			Target{OS: "windows", Arch: "arm64", Libc: LibcNone, PageSize: 4096, Translated: true}},
		{"windows on arm: 386 build under WOW64 reports arm64",
			fakeProbes{goos: "windows", goarch: "386", pageSize: 4096, native: "arm64"},
			Target{OS: "windows", Arch: "arm64", Libc: LibcNone, PageSize: 4096, Translated: true}},
		{"old windows without IsWow64Process2: the build arch stands",
			fakeProbes{goos: "windows", goarch: "386", pageSize: 4096},
			Target{OS: "windows", Arch: "386", Libc: LibcNone, PageSize: 4096}},
		{"freebsd: no libc notion",
			fakeProbes{goos: "freebsd", goarch: "amd64", pageSize: 4096},
			Target{OS: "freebsd", Arch: "amd64", Libc: LibcNone, PageSize: 4096}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.probe.probes().Detect(); got != tc.want {
				t.Errorf("Detect() = %#v\nwant       %#v", got, tc.want)
			}
		})
	}
}

// TestDetectThenTriple checks the point of translated detection: the asset
// chosen is the machine's native one.
func TestDetectThenTriple(t *testing.T) {
	rosetta := fakeProbes{goos: "darwin", goarch: "amd64", pageSize: 4096, sysctl: map[string]uint32{"sysctl.proc_translated": 1}}
	if got, err := rosetta.probes().Detect().Triple("15.1.0"); err != nil || got != "aarch64-apple-darwin" {
		t.Errorf("translated amd64 on Apple silicon: Triple = %q, %v; want aarch64-apple-darwin", got, err)
	}
	woa := fakeProbes{goos: "windows", goarch: "amd64", pageSize: 4096, native: "arm64"}
	if got, err := woa.probes().Detect().Triple("15.1.0"); err != nil || got != "aarch64-pc-windows-msvc" {
		t.Errorf("emulated amd64 on Windows on Arm: Triple = %q, %v; want aarch64-pc-windows-msvc", got, err)
	}
	alpine64K := fakeProbes{goos: "linux", goarch: "arm64", pageSize: 65536, interps: map[string]string{"/bin/sh": "/lib/ld-musl-aarch64.so.1"}}
	if got, err := alpine64K.probes().Detect().Triple("15.2.0"); err == nil {
		t.Errorf("alpine arm64 on 64K pages: Triple = %q; want an UnsupportedError", got)
	}
}

func TestDetectOnThisMachine(t *testing.T) {
	got := Detect()
	if got.OS == "" || got.Arch == "" || got.PageSize != os.Getpagesize() {
		t.Fatalf("Detect() = %#v", got)
	}
	if got.OS == "linux" && got.Libc != LibcGNU && got.Libc != LibcMusl {
		t.Errorf("Detect().Libc = %q on linux; want gnu or musl", got.Libc)
	}
	t.Logf("this machine: %#v", got)
}

// TestELFInterpreter reads PT_INTERP from real executables: this machine's
// /bin/sh, and a copy whose interpreter string is rewritten to musl's loader,
// as on Alpine.
func TestELFInterpreter(t *testing.T) {
	sh, err := os.ReadFile("/bin/sh")
	if err != nil {
		t.Skipf("no /bin/sh to read: %v", err)
	}
	if !bytes.HasPrefix(sh, []byte(elf.ELFMAG)) {
		t.Skip("/bin/sh is not an ELF file on this system")
	}
	interp, err := ELFInterpreter(bytes.NewReader(sh))
	if err != nil {
		t.Fatal(err)
	}
	if interp == "" {
		t.Skip("/bin/sh is static here")
	}
	t.Logf("/bin/sh interpreter: %s", interp)

	musl := bytes.Clone(sh)
	i := bytes.Index(musl, []byte(interp+"\x00"))
	if i < 0 {
		t.Fatalf("interpreter %q not found in /bin/sh bytes", interp)
	}
	const muslLoader = "/lib/ld-musl-x86_64.so.1"
	if len(muslLoader) > len(interp) {
		t.Skipf("cannot fit %q in place of %q", muslLoader, interp)
	}
	copy(musl[i:i+len(interp)], muslLoader+strings.Repeat("\x00", len(interp)-len(muslLoader)))
	got, err := ELFInterpreter(bytes.NewReader(musl))
	if err != nil || got != muslLoader {
		t.Fatalf("ELFInterpreter(edited /bin/sh) = %q, %v; want %q", got, err, muslLoader)
	}

	p := Probes{GOOS: "linux", GOARCH: "arm64", PageSize: func() int { return 4096 },
		Glob: func(string) ([]string, error) { return nil, nil },
		ELFInterp: func(path string) (string, error) {
			if path == "/bin/sh" {
				return ELFInterpreter(bytes.NewReader(musl))
			}
			return "", nil // a static Go binary has no PT_INTERP
		}}
	if libc := p.Detect().Libc; libc != LibcMusl {
		t.Errorf("Detect with a musl /bin/sh: Libc = %q; want musl", libc)
	}
	p.ELFInterp = func(path string) (string, error) {
		if path == "/bin/sh" {
			return ELFInterpreter(bytes.NewReader(sh))
		}
		return "", nil
	}
	if want := LibcGNU; !strings.Contains(interp, "musl") && p.Detect().Libc != want {
		t.Errorf("Detect with this machine's /bin/sh: Libc = %q; want %q", p.Detect().Libc, want)
	}
}

func TestELFInterpreterRejectsNonELF(t *testing.T) {
	for name, data := range map[string][]byte{
		"empty":     nil,
		"script":    []byte("#!/bin/sh\necho hi\n"),
		"truncated": []byte(elf.ELFMAG + "\x02\x01\x01"),
	} {
		if got, err := ELFInterpreter(bytes.NewReader(data)); err == nil {
			t.Errorf("%s: ELFInterpreter = %q, nil; want an error", name, got)
		}
	}
}
