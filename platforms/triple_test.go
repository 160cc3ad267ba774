package platforms

import (
	"errors"
	"strings"
	"testing"
)

// TestTriple covers every platform row of the release asset table and the
// version edges where an asset appears or disappears.
func TestTriple(t *testing.T) {
	linux := func(arch string, libc Libc) Target {
		return Target{OS: "linux", Arch: arch, Libc: libc, PageSize: 4096}
	}
	mac := func(arch string, rosetta bool) Target {
		return Target{OS: "darwin", Arch: arch, Libc: LibcNone, PageSize: 16384, Rosetta: rosetta}
	}
	win := func(arch string) Target { return Target{OS: "windows", Arch: arch, Libc: LibcNone, PageSize: 4096} }
	arm := func(goarm int, libc Libc) Target {
		t := linux("arm", libc)
		t.GOARM = goarm
		return t
	}
	pages := func(t Target, size int) Target { t.PageSize = size; return t }

	tests := []struct {
		name    string
		target  Target
		version string
		want    string // "" means an *UnsupportedError
	}{
		// linux/amd64: musl, every version, whatever the libc.
		{"linux/amd64 glibc 15.1.0", linux("amd64", LibcGNU), "15.1.0", "x86_64-unknown-linux-musl"},
		{"linux/amd64 musl 15.1.0", linux("amd64", LibcMusl), "15.1.0", "x86_64-unknown-linux-musl"},
		{"linux/amd64 13.0.0", linux("amd64", LibcGNU), "13.0.0", "x86_64-unknown-linux-musl"},
		{"linux/amd64 64K pages", pages(linux("amd64", LibcGNU), 65536), "15.2.0", "x86_64-unknown-linux-musl"},

		// linux/arm64: gnu from 14.0.0 on glibc.
		{"linux/arm64 glibc 13.0.0", linux("arm64", LibcGNU), "13.0.0", ""},
		{"linux/arm64 glibc 14.0.0", linux("arm64", LibcGNU), "14.0.0", "aarch64-unknown-linux-gnu"},
		{"linux/arm64 glibc 14.1.1", linux("arm64", LibcGNU), "14.1.1", "aarch64-unknown-linux-gnu"},
		{"linux/arm64 glibc 15.1.0", linux("arm64", LibcGNU), "15.1.0", "aarch64-unknown-linux-gnu"},
		{"linux/arm64 glibc 15.2.0 keeps gnu", linux("arm64", LibcGNU), "15.2.0", "aarch64-unknown-linux-gnu"},
		{"linux/arm64 glibc 64K pages (gnu has no jemalloc page issue)", pages(linux("arm64", LibcGNU), 65536), "15.1.0", "aarch64-unknown-linux-gnu"},
		{"linux/arm64 unknown libc counts as glibc", linux("arm64", ""), "15.1.0", "aarch64-unknown-linux-gnu"},
		// linux/arm64 musl: only 15.2.0+ and only 4K pages.
		{"linux/arm64 musl 15.1.0", linux("arm64", LibcMusl), "15.1.0", ""},
		{"linux/arm64 musl 15.2.0 4K", linux("arm64", LibcMusl), "15.2.0", "aarch64-unknown-linux-musl"},
		{"linux/arm64 musl 15.2.1 4K", linux("arm64", LibcMusl), "15.2.1", "aarch64-unknown-linux-musl"},
		{"linux/arm64 musl 16.0.0 4K", linux("arm64", LibcMusl), "16.0.0", "aarch64-unknown-linux-musl"},
		{"linux/arm64 musl 15.2.0 16K pages", pages(linux("arm64", LibcMusl), 16384), "15.2.0", ""},
		{"linux/arm64 musl 15.2.0 64K pages", pages(linux("arm64", LibcMusl), 65536), "15.2.0", ""},
		{"linux/arm64 musl 15.2.0 unknown page size", pages(linux("arm64", LibcMusl), 0), "15.2.0", ""},

		// linux/386: i686 gnu from 14.0.0.
		{"linux/386 13.0.0", linux("386", LibcGNU), "13.0.0", ""},
		{"linux/386 14.0.0", linux("386", LibcGNU), "14.0.0", "i686-unknown-linux-gnu"},
		{"linux/386 15.1.0", linux("386", LibcGNU), "15.1.0", "i686-unknown-linux-gnu"},
		{"linux/386 musl", linux("386", LibcMusl), "15.1.0", ""},

		// linux/arm: armv7 musleabihf from 14.1.0; arm-gnueabihf in 13.0.0.
		{"linux/arm v7 13.0.0", arm(7, LibcGNU), "13.0.0", "arm-unknown-linux-gnueabihf"},
		{"linux/arm v6 13.0.0", arm(6, LibcGNU), "13.0.0", "arm-unknown-linux-gnueabihf"},
		{"linux/arm v5 13.0.0", arm(5, LibcGNU), "13.0.0", ""},
		{"linux/arm v7 musl 13.0.0", arm(7, LibcMusl), "13.0.0", ""},
		{"linux/arm v7 14.0.0 (no arm build)", arm(7, LibcGNU), "14.0.0", ""},
		{"linux/arm v7 14.0.1 (no arm build)", arm(7, LibcGNU), "14.0.1", ""},
		{"linux/arm v7 14.1.0", arm(7, LibcGNU), "14.1.0", "armv7-unknown-linux-musleabihf"},
		{"linux/arm v7 musl 15.1.0 (static build)", arm(7, LibcMusl), "15.1.0", "armv7-unknown-linux-musleabihf"},
		{"linux/arm v8 userland 15.1.0", arm(8, LibcGNU), "15.1.0", "armv7-unknown-linux-musleabihf"},
		{"linux/arm unknown GOARM counts as 7", arm(0, LibcGNU), "15.1.0", "armv7-unknown-linux-musleabihf"},
		{"linux/arm v6 15.1.0", arm(6, LibcGNU), "15.1.0", ""},

		// linux/s390x from 14.0.0; linux/ppc64 (BE) 14.x only.
		{"linux/s390x 13.0.0", linux("s390x", LibcGNU), "13.0.0", ""},
		{"linux/s390x 14.0.0", linux("s390x", LibcGNU), "14.0.0", "s390x-unknown-linux-gnu"},
		{"linux/s390x 15.1.0", linux("s390x", LibcGNU), "15.1.0", "s390x-unknown-linux-gnu"},
		{"linux/ppc64 13.0.0", linux("ppc64", LibcGNU), "13.0.0", ""},
		{"linux/ppc64 14.0.0", linux("ppc64", LibcGNU), "14.0.0", "powerpc64-unknown-linux-gnu"},
		{"linux/ppc64 14.1.1", linux("ppc64", LibcGNU), "14.1.1", "powerpc64-unknown-linux-gnu"},
		{"linux/ppc64 15.0.0 (dropped)", linux("ppc64", LibcGNU), "15.0.0", ""},

		// No upstream asset at all.
		{"linux/ppc64le", linux("ppc64le", LibcGNU), "15.1.0", ""},
		{"linux/riscv64", linux("riscv64", LibcGNU), "15.1.0", ""},
		{"linux/loong64", linux("loong64", LibcGNU), "15.1.0", ""},
		{"linux/mips64", linux("mips64", LibcGNU), "15.1.0", ""},
		{"freebsd/amd64", Target{OS: "freebsd", Arch: "amd64", Libc: LibcNone}, "15.1.0", ""},
		{"openbsd/arm64", Target{OS: "openbsd", Arch: "arm64", Libc: LibcNone}, "15.1.0", ""},
		{"netbsd/amd64", Target{OS: "netbsd", Arch: "amd64", Libc: LibcNone}, "15.1.0", ""},
		{"illumos/amd64", Target{OS: "illumos", Arch: "amd64", Libc: LibcNone}, "15.1.0", ""},
		{"android/arm64", Target{OS: "android", Arch: "arm64", Libc: LibcNone}, "15.1.0", ""},

		// darwin.
		{"darwin/amd64 13.0.0", mac("amd64", false), "13.0.0", "x86_64-apple-darwin"},
		{"darwin/amd64 15.1.0", mac("amd64", false), "15.1.0", "x86_64-apple-darwin"},
		{"darwin/arm64 14.0.0", mac("arm64", false), "14.0.0", "aarch64-apple-darwin"},
		{"darwin/arm64 15.1.0", mac("arm64", true), "15.1.0", "aarch64-apple-darwin"},
		{"darwin/arm64 13.0.0 with Rosetta", mac("arm64", true), "13.0.0", "x86_64-apple-darwin"},
		{"darwin/arm64 13.0.0 without Rosetta", mac("arm64", false), "13.0.0", ""},
		{"darwin/386", mac("386", false), "15.1.0", ""},

		// windows.
		{"windows/amd64 13.0.0", win("amd64"), "13.0.0", "x86_64-pc-windows-msvc"},
		{"windows/amd64 15.1.0", win("amd64"), "15.1.0", "x86_64-pc-windows-msvc"},
		{"windows/386 15.1.0", win("386"), "15.1.0", "i686-pc-windows-msvc"},
		{"windows/386 13.0.0", win("386"), "13.0.0", "i686-pc-windows-msvc"},
		{"windows/arm64 14.1.1 (emulated x86_64)", win("arm64"), "14.1.1", "x86_64-pc-windows-msvc"},
		{"windows/arm64 15.0.0", win("arm64"), "15.0.0", "aarch64-pc-windows-msvc"},
		{"windows/arm64 15.1.0", win("arm64"), "15.1.0", "aarch64-pc-windows-msvc"},
		{"windows/arm", win("arm"), "15.1.0", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.target.Triple(tc.version)
			if tc.want == "" {
				var ue *UnsupportedError
				if !errors.As(err, &ue) {
					t.Fatalf("Triple(%q) = %q, %v; want *UnsupportedError", tc.version, got, err)
				}
				if ue.Version != tc.version || ue.Target != tc.target || ue.Reason == "" {
					t.Errorf("UnsupportedError = %+v; want Version %q, Target %+v and a Reason", ue, tc.version, tc.target)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("Triple(%q) = %q, %v; want %q", tc.version, got, err, tc.want)
			}
		})
	}
}

func TestTripleRejectsMalformedVersions(t *testing.T) {
	target := Target{OS: "linux", Arch: "amd64", Libc: LibcMusl}
	for _, v := range []string{"", "v15.1.0", "15.1", "15", "15.1.0.1", "15.1.x", "15..0", "15.01.0", "-1.0.0", "+1.0.0", "15.1.0-rc1", " 15.1.0"} {
		if got, err := target.Triple(v); err == nil {
			t.Errorf("Triple(%q) = %q, nil; want an error", v, got)
		} else if errors.As(err, new(*UnsupportedError)) {
			t.Errorf("Triple(%q): %v is an *UnsupportedError; a malformed version is the caller's bug", v, err)
		}
	}
}

func TestUnsupportedErrorSaysHowToGetRg(t *testing.T) {
	tests := []struct {
		target Target
		want   []string
	}{
		{Target{OS: "linux", Arch: "arm64", Libc: LibcMusl, PageSize: 65536}, []string{"linux/arm64 (musl)", "15.2.0", "apk add ripgrep", "RGKIT_RG_PATH", "64 KiB pages"}},
		{Target{OS: "linux", Arch: "riscv64", Libc: LibcGNU}, []string{"linux/riscv64 (gnu)", "apt-get install ripgrep", "RGKIT_RG_PATH"}},
		{Target{OS: "freebsd", Arch: "amd64", Libc: LibcNone}, []string{"freebsd/amd64", "pkg install ripgrep", "RGKIT_RG_PATH"}},
		{Target{OS: "darwin", Arch: "arm64", Libc: LibcNone}, []string{"darwin/arm64", "softwareupdate --install-rosetta", "brew install ripgrep", "RGKIT_RG_PATH"}},
	}
	for _, tc := range tests {
		ver := "15.2.0"
		if tc.target.OS == "darwin" {
			ver = "13.0.0"
		}
		_, err := tc.target.Triple(ver)
		if err == nil {
			t.Fatalf("%v: Triple(%s) succeeded; want an error", tc.target, ver)
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: error %q does not mention %q", tc.target, err, w)
			}
		}
	}
}

func TestAssetAndMemberNames(t *testing.T) {
	tests := []struct {
		target        Target
		version       string
		asset, member string
		exe           string
	}{
		{Target{OS: "linux", Arch: "amd64", Libc: LibcGNU}, "15.1.0",
			"ripgrep-15.1.0-x86_64-unknown-linux-musl.tar.gz", "ripgrep-15.1.0-x86_64-unknown-linux-musl/rg", "rg"},
		{Target{OS: "darwin", Arch: "arm64"}, "14.1.1",
			"ripgrep-14.1.1-aarch64-apple-darwin.tar.gz", "ripgrep-14.1.1-aarch64-apple-darwin/rg", "rg"},
		{Target{OS: "windows", Arch: "amd64"}, "15.1.0",
			"ripgrep-15.1.0-x86_64-pc-windows-msvc.zip", "ripgrep-15.1.0-x86_64-pc-windows-msvc/rg.exe", "rg.exe"},
		{Target{OS: "windows", Arch: "arm64"}, "15.0.0",
			"ripgrep-15.0.0-aarch64-pc-windows-msvc.zip", "ripgrep-15.0.0-aarch64-pc-windows-msvc/rg.exe", "rg.exe"},
	}
	for _, tc := range tests {
		asset, err := tc.target.AssetName(tc.version)
		if err != nil || asset != tc.asset {
			t.Errorf("%v AssetName(%s) = %q, %v; want %q", tc.target, tc.version, asset, err, tc.asset)
		}
		member, err := tc.target.MemberName(tc.version)
		if err != nil || member != tc.member {
			t.Errorf("%v MemberName(%s) = %q, %v; want %q", tc.target, tc.version, member, err, tc.member)
		}
		if got := tc.target.ExeName(); got != tc.exe {
			t.Errorf("%v ExeName() = %q; want %q", tc.target, got, tc.exe)
		}
	}
	if _, err := (Target{OS: "linux", Arch: "riscv64"}).AssetName("15.1.0"); err == nil {
		t.Error("AssetName for linux/riscv64 succeeded; want the Triple error")
	}
}
