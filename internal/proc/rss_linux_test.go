//go:build linux

package proc

import (
	"context"
	"io"
	"os"
	"testing"

	"golang.org/x/sys/unix"

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
// The parent holds 256 MiB resident while the child runs; the ballast asks
// for transparent huge pages where the kernel offers them, so making it
// resident is 128 page faults instead of 65,536 (each costly on a VM).
func TestChildPeakRSSDoesNotIncludeTheParent(t *testing.T) {
	ballast, err := unix.Mmap(-1, 0, 256<<20, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(ballast)
	_ = unix.Madvise(ballast, unix.MADV_HUGEPAGE) // a hint: 4 KiB pages do as well, more slowly
	for i := 0; i < len(ballast); i += 4096 {
		ballast[i] = 1
	}
	res := runForRSS(t, "-c", "sleep 0.05")
	if res.PeakRSS <= 0 || res.PeakRSS > 64<<20 {
		t.Errorf("peak RSS of sh -c sleep with a 256 MiB parent = %d MiB, want a few MiB", res.PeakRSS>>20)
	}
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	if rss := statusKB(status, "VmRSS:"); rss < 256<<20 {
		t.Errorf("the parent's resident set is %d MiB during the test, want the 256 MiB ballast in it", rss>>20)
	}
}

// The child (this test binary, TestMemChild) holds 64 MiB for a moment.
// Before, a shell built a 64 MB string from head and tr, 2.5 s of CPU.
func TestChildPeakRSSSeesTheChildsOwnMemory(t *testing.T) {
	res, err := runMemChild(t, "hold", 0, nil, nil)
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("child: err %v, exit %d\n%s", err, res.ExitCode, res.Stderr)
	}
	if res.PeakRSS < 60<<20 {
		t.Errorf("peak RSS = %d MiB, want at least the 64 MB the child held", res.PeakRSS>>20)
	}
}
