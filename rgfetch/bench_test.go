package rgfetch

import (
	"context"
	"os"
	"os/exec"
	"testing"
)

// BenchmarkResolveWarm is the cost every search pays once rg is known: the
// memory cache.
func BenchmarkResolveWarm(b *testing.B) {
	rg, err := exec.LookPath("rg")
	if err != nil {
		b.Skip("no rg on PATH")
	}
	r := &Resolver{lookPath: lookPathTo(rg), getenv: func(string) string { return "" }}
	if _, err := r.Resolve(context.Background()); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := r.Resolve(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkResolveColdSystem is a fresh process's first Resolve finding the
// system rg: platform detection, PATH lookup, symlink resolution and one
// `rg --version`.
func BenchmarkResolveColdSystem(b *testing.B) {
	if _, err := exec.LookPath("rg"); err != nil {
		b.Skip("no rg on PATH")
	}
	env := func(string) string { return "" }
	for b.Loop() {
		r := &Resolver{getenv: env}
		res, err := r.Resolve(context.Background())
		if err != nil || res.Source != SourceSystem {
			b.Fatal(res, err)
		}
	}
}

// BenchmarkResolveColdManaged is a fresh process's first Resolve reusing
// the managed copy (the real rg, ~5 MB): stat, stamp, and a SHA-256 of the
// binary.
func BenchmarkResolveColdManaged(b *testing.B) {
	exe, err := os.ReadFile("/usr/bin/rg")
	if err != nil {
		b.Skip("no /usr/bin/rg")
	}
	e := newTestEnv(b)
	name, data := releaseTarGz(b, "13.0.0", "x86_64-unknown-linux-musl", exe)
	e.srv.put(name, data)
	r := e.resolver()
	r.NoSystem, r.Version, r.SHA256 = true, "13.0.0", sha256Hex(data)
	if _, err := r.Resolve(context.Background()); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		r := e.resolver()
		r.NoSystem, r.Version = true, "13.0.0"
		res, err := r.Resolve(context.Background())
		if err != nil || res.Source != SourceManaged {
			b.Fatal(res, err)
		}
	}
}

// BenchmarkInstallFromMirror is a full install of the real rg from a local
// mirror: lock, copy+hash, verify, extract, fsync, smoke test, rename.
func BenchmarkInstallFromMirror(b *testing.B) {
	exe, err := os.ReadFile("/usr/bin/rg")
	if err != nil {
		b.Skip("no /usr/bin/rg")
	}
	mirror := b.TempDir()
	name, data := releaseTarGz(b, "13.0.0", "x86_64-unknown-linux-musl", exe)
	os.WriteFile(mirror+"/"+name, data, 0o644)
	d := sha256Hex(data)
	e := newTestEnv(b)
	for b.Loop() {
		r := e.resolver()
		r.NoSystem, r.Force, r.Version, r.SHA256, r.Mirror = true, true, "13.0.0", d, mirror
		if _, err := r.Resolve(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}
