//go:build linux

package proc

import (
	"context"
	"io"
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
)

func runForRSS(t *testing.T, args ...string) Result {
	t.Helper()
	sh := testtool.Need(t, "sh")
	res, err := Run(context.Background(), Spec{Path: sh, Args: args}, func(r io.Reader) error {
		_, err := io.Copy(io.Discard, r)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Regression: rusage's ru_maxrss of a child started by Go (vfork) includes
// the parent's resident set, so a big parent made every engine look big.
func TestChildPeakRSSDoesNotIncludeTheParent(t *testing.T) {
	ballast := make([]byte, 256<<20)
	for i := range ballast {
		if i%4096 == 0 {
			ballast[i] = 1
		}
	}
	res := runForRSS(t, "-c", "sleep 0.05")
	if res.PeakRSS <= 0 || res.PeakRSS > 64<<20 {
		t.Errorf("peak RSS of sh -c sleep with a 256 MiB parent = %d MiB, want a few MiB", res.PeakRSS>>20)
	}
	_ = ballast[len(ballast)-1]
}

func TestChildPeakRSSSeesTheChildsOwnMemory(t *testing.T) {
	// The shell keeps a 64 MB string in a variable for a moment.
	res := runForRSS(t, "-c", `a=$(head -c 64000000 /dev/zero | tr '\000' x); sleep 0.1`)
	if res.PeakRSS < 60<<20 {
		t.Errorf("peak RSS = %d MiB, want at least the 64 MB the child held", res.PeakRSS>>20)
	}
}
