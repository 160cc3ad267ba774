package rgfetch

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
)

// Locate has the locator signature search engines take, and answers what
// Resolve answers: the path, or Resolve's error with no path.
func TestLocateIsResolveReducedToThePath(t *testing.T) {
	skipIfNoShell(t)
	e := newTestEnv(t)
	_, d := e.serveFake("15.2.0")
	override := writeFakeRg(t, t.TempDir(), "14.1.1")
	managed := filepath.Join(e.binDir, "rg")
	tests := []struct {
		name     string
		set      func(r *Resolver)
		wantPath string
		wantErr  error
	}{
		{"override", func(r *Resolver) { r.Override = override }, override, nil},
		{"download", func(r *Resolver) { r.SHA256 = d }, managed, nil},
		// Reuses what the previous case installed.
		{"managed copy, no download allowed", func(r *Resolver) { r.NoDownload = true }, managed, nil},
		{"nothing and no download", func(r *Resolver) { r.NoDownload, r.BinDir = true, t.TempDir() }, "", ErrNotInstalled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.resolver()
			tt.set(r)
			var locate func(context.Context) (string, error) = r.Locate
			got, err := locate(context.Background())
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) || got != "" {
					t.Fatalf("Locate = %q, %v; want \"\" and %v", got, err, tt.wantErr)
				}
				return
			}
			res, rerr := r.Resolve(context.Background()) // the memory cache or the override memo
			if err != nil || rerr != nil || got != tt.wantPath || got != res.Path {
				t.Fatalf("Locate = %q, %v; Resolve = %+v, %v", got, err, res, rerr)
			}
		})
	}
}
