package archive

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rgkit/rgkit/internal/testtool"
)

// systemRg is Debian's ripgrep binary, packed by the real archivers below.
const systemRg = "/usr/bin/rg"

// need skips the test unless every tool is installed.
func need(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
}

// run runs a command in dir and fails the test on error.
func run(t *testing.T, dir, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	// Fast xz/gzip levels: the format is what matters, not the ratio.
	cmd.Env = append(os.Environ(), "XZ_OPT=-0", "GZIP=-1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

// stageRelease lays out ripgrep-<ver>-<triple>/ in dir with the system rg,
// as ripgrep's release workflow does before `tar czf`.
func stageRelease(t *testing.T, dir, top, exe string) []byte {
	t.Helper()
	rg, err := os.ReadFile(systemRg)
	if err != nil {
		t.Skipf("no system rg to pack: %v", err)
	}
	for _, d := range []string{"doc", "complete"} {
		if err := os.MkdirAll(filepath.Join(dir, top, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string][]byte{
		exe: rg, "README.md": []byte("# ripgrep\n"), "COPYING": nil, "UNLICENSE": nil, "LICENSE-MIT": nil,
		"doc/CHANGELOG.md": nil, "doc/FAQ.md": nil, "doc/GUIDE.md": nil, "doc/rg.1": nil,
		"complete/rg.bash": nil, "complete/rg.fish": nil, "complete/_rg.ps1": nil, "complete/_rg": nil,
	}
	for name, body := range files {
		mode := os.FileMode(0o644)
		if name == exe {
			mode = 0o755
		}
		if err := os.WriteFile(filepath.Join(dir, top, name), body, mode); err != nil {
			t.Fatal(err)
		}
	}
	return rg
}

// runExtracted writes the extracted bytes to an executable file and runs
// `rg --version`, the installer's smoke test.
func runExtracted(t *testing.T, got []byte) {
	t.Helper()
	if runtime.GOOS == "windows" {
		return
	}
	exe := filepath.Join(t.TempDir(), "rg")
	testtool.WriteExecutable(t, exe, got)
	// A parallel test's fork can still hold the write descriptor when this
	// exec runs (ETXTBSY, golang/go#22315): try again briefly.
	var out []byte
	var err error
	for range 50 {
		if out, err = exec.Command(exe, "--version").Output(); !errors.Is(err, syscall.ETXTBSY) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err != nil || !bytes.HasPrefix(out, []byte("ripgrep ")) {
		t.Fatalf("extracted rg --version = %q, %v", out, err)
	}
}

// TestExtractArchivesFromRealTools packs the system rg with GNU tar, gzip,
// xz and Info-ZIP exactly as ripgrep's release workflow does, extracts it
// and runs it.
func TestExtractArchivesFromRealTools(t *testing.T) {
	t.Parallel()
	need(t, "tar", "gzip", "xz", "zip")
	dir := t.TempDir()
	rg := stageRelease(t, dir, topDir, "rg")
	stageRelease(t, dir, winTopDir, "rg.exe")
	run(t, dir, "tar", "czf", topDir+".tar.gz", topDir)
	run(t, dir, "tar", "cJf", topDir+".tar.xz", topDir)
	run(t, dir, "zip", "-qr", winTopDir+".zip", winTopDir)
	run(t, dir, "tar", "czf", "dotslash.tar.gz", "./"+topDir)

	for _, tc := range []struct{ file, member string }{
		{topDir + ".tar.gz", member},
		{topDir + ".tar.xz", member},
		{winTopDir + ".zip", winMember},
		{"dotslash.tar.gz", member},
	} {
		t.Run(tc.file, func(t *testing.T) {
			f, err := FormatOf(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(filepath.Join(dir, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			got, err := extract(b, f, tc.member, Limits{})
			if err != nil {
				t.Fatalf("Extract: %v", err)
			}
			if !bytes.Equal(got, rg) {
				t.Fatalf("extracted %d bytes differ from %s (%d bytes)", len(got), systemRg, len(rg))
			}
			runExtracted(t, got)
		})
	}
}

// TestExtractDebFromDpkgDeb builds a .deb of the system rg with dpkg-deb in
// each compression it offers: xz and gzip extract, zstd is a clear
// "unsupported" error.
func TestExtractDebFromDpkgDeb(t *testing.T) {
	t.Parallel()
	need(t, "dpkg-deb")
	rg, err := os.ReadFile(systemRg)
	if err != nil {
		t.Skipf("no system rg to pack: %v", err)
	}
	root := filepath.Join(t.TempDir(), "pkg")
	for _, d := range []string{"DEBIAN", "usr/bin", "usr/share/doc/ripgrep"} {
		os.MkdirAll(filepath.Join(root, d), 0o755)
	}
	os.WriteFile(filepath.Join(root, "DEBIAN/control"), []byte("Package: ripgrep\nVersion: 13.0.0-4\nArchitecture: amd64\nMaintainer: test <t@example.com>\nDescription: test\n"), 0o644)
	testtool.WriteExecutable(t, filepath.Join(root, "usr/bin/rg"), rg)
	os.WriteFile(filepath.Join(root, "usr/share/doc/ripgrep/copyright"), []byte("MIT\n"), 0o644)

	for _, tc := range []struct {
		compression string
		wantKind    ErrorKind
	}{
		{"xz", 0}, {"gzip", 0}, {"none", 0}, {"zstd", Unsupported},
	} {
		t.Run(tc.compression, func(t *testing.T) {
			deb := filepath.Join(t.TempDir(), "ripgrep_13.0.0-4_amd64.deb")
			cmd := exec.Command("dpkg-deb", "--root-owner-group", "-Z"+tc.compression, "-z1", "--build", root, deb)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Skipf("dpkg-deb -Z%s: %v\n%s", tc.compression, err, out)
			}
			b, err := os.ReadFile(deb)
			if err != nil {
				t.Fatal(err)
			}
			got, err := extract(b, Deb, "usr/bin/rg", Limits{})
			if tc.wantKind != 0 {
				if ae := (*Error)(nil); !asError(err, &ae) || ae.Kind != tc.wantKind || !strings.Contains(err.Error(), "unsupported compression zst") {
					t.Fatalf("Extract = %v; want %v naming zst", err, tc.wantKind)
				}
				return
			}
			if err != nil || !bytes.Equal(got, rg) {
				t.Fatalf("Extract = %d bytes, %v; want the %d bytes of %s", len(got), err, len(rg), systemRg)
			}
			runExtracted(t, got)
		})
	}
}

// TestExtractDebianRipgrepPackage extracts Debian's own ripgrep package when
// apt has it cached (tests never download it).
func TestExtractDebianRipgrepPackage(t *testing.T) {
	debs, _ := filepath.Glob("/var/cache/apt/archives/ripgrep_*.deb")
	if p := os.Getenv("RGFETCH_TEST_DEB"); p != "" {
		debs = []string{p} // .ci/run downloads Debian's package here
	}
	if len(debs) == 0 {
		t.Skip("no ripgrep .deb in /var/cache/apt/archives and RGFETCH_TEST_DEB is not set")
	}
	b, err := os.ReadFile(debs[0])
	if err != nil {
		t.Fatal(err)
	}
	got, err := extract(b, Deb, "usr/bin/rg", Limits{})
	if err != nil {
		t.Fatalf("Extract(%s): %v", debs[0], err)
	}
	runExtracted(t, got)
}

// TestExtractSparseEntries: GNU tar's sparse files claim a huge logical size
// from a few bytes. A sparse rg is refused in both
// the old GNU form (not a regular entry) and the PAX 1.0 form (declared size
// over the cap); a sparse file elsewhere is skipped without being expanded.
func TestExtractSparseEntries(t *testing.T) {
	need(t, "tar", "gzip")
	t.Parallel()
	dir := t.TempDir()
	stageRelease(t, dir, topDir, "rg")
	sparse := func(name string) {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := f.Truncate(5 << 30); err != nil {
			t.Skipf("cannot make a 5 GiB sparse file here: %v", err)
		}
		f.WriteAt([]byte("end"), 5<<30-3)
	}
	sparse(topDir + "/zeros")
	run(t, dir, "tar", "--sparse", "--format=gnu", "-czf", "gnu-other.tar.gz", topDir)
	run(t, dir, "tar", "--sparse", "--format=posix", "--sparse-version=1.0", "-czf", "pax-other.tar.gz", topDir)
	os.Remove(filepath.Join(dir, topDir, "zeros"))
	sparse(topDir + "/rg")
	run(t, dir, "tar", "--sparse", "--format=gnu", "-czf", "gnu-rg.tar.gz", topDir)
	run(t, dir, "tar", "--sparse", "--format=posix", "--sparse-version=1.0", "-czf", "pax-rg.tar.gz", topDir)

	for _, tc := range []struct {
		file string
		kind ErrorKind // 0: extracts
	}{
		{"gnu-other.tar.gz", 0},
		{"pax-other.tar.gz", 0},
		{"gnu-rg.tar.gz", NotRegular},
		{"pax-rg.tar.gz", TooLarge},
	} {
		b, err := os.ReadFile(filepath.Join(dir, tc.file))
		if err != nil {
			t.Fatal(err)
		}
		_, err = extract(b, TarGz, member, Limits{})
		switch {
		case tc.kind == 0 && err != nil:
			t.Errorf("%s (%d bytes): Extract = %v; want success", tc.file, len(b), err)
		case tc.kind != 0 && !errors.Is(err, &Error{Kind: tc.kind}):
			t.Errorf("%s (%d bytes): Extract = %v; want %v", tc.file, len(b), err, tc.kind)
		}
	}
}
