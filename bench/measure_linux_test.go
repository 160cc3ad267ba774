package bench

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/rgkit/rgkit/backends"
	"github.com/rgkit/rgkit/search"
)

// requireTool finds a tool on PATH, or skips (fails under RGKIT_REQUIRE_TOOLS=1).
func requireTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("RGKIT_REQUIRE_TOOLS") == "1" {
			t.Fatalf("%s not on PATH, and RGKIT_REQUIRE_TOOLS=1", name)
		}
		t.Skipf("%s not on PATH", name)
	}
	return p
}

// hog makes n bytes resident in this process until the test ends.
func hog(t *testing.T, n int) {
	b := make([]byte, n)
	for i := range b {
		b[i] = 1
	}
	t.Cleanup(func() { _ = b[len(b)-1] })
}

// grower is an in-process engine that makes 64 MiB resident while it
// searches and says a child of its own peaked at 10 MiB, like the grep and
// git grep engines (a tool plus a native re-read in this process).
type grower struct{ scripted }

func (g *grower) Search(ctx context.Context, q search.Query, sink search.Sink) (search.Stats, error) {
	b := make([]byte, 64<<20)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	_ = sink.Begin("a")
	_ = sink.Line(search.Line{Path: "a", Number: 1 + int(b[len(b)-4096]), Kind: search.KindMatch, Text: []byte("x")})
	_ = sink.End(search.FileSummary{Path: "a", MatchedLines: 1})
	return search.Stats{ProcessPeakRSS: 10 << 20}, nil
}

func TestPeakMemoryIsThatOfTheProcessesThatDidTheWork(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := Options{Root: root, Meter: defaultMeter{}}
	hog(t, 256<<20) // this process is big; no row may report that as its own

	t.Run("rg --files reports rg's memory, not this process's", func(t *testing.T) {
		rg := requireTool(t, "rg")
		e := Engine{Info: search.Info{Name: "ripgrep"}, List: ripgrepLister(rg)}
		s := sampledChild(t, o, Task{Name: "list", Listing: true}, e)
		if s.ChildPeakRSS <= 0 || s.ChildPeakRSS > 64<<20 {
			t.Errorf("rg's peak = %d MiB, want rg's own few MiB (this process holds 256)", s.ChildPeakRSS>>20)
		}
		if s.PeakRSS != s.ChildPeakRSS+s.SelfPeakRSS || s.PeakRSS > 128<<20 {
			t.Errorf("peak %d MiB = child %d + self %d MiB; want the sum, far under this process's 256", s.PeakRSS>>20, s.ChildPeakRSS>>20, s.SelfPeakRSS>>20)
		}
	})
	t.Run("the rg baseline is rg alone", func(t *testing.T) {
		rg := requireTool(t, "rg")
		base, err := NewBaseline(context.Background(), rg)
		if err != nil {
			t.Fatal(err)
		}
		s := sampledChild(t, o, Task{Name: "hello", Query: search.Query{Pattern: "hello"}}, base)
		if s.SelfPeakRSS != 0 || s.ChildPeakRSS <= 0 || s.PeakRSS > 64<<20 || s.FirstResult <= 0 {
			t.Errorf("baseline sample %+v; want rg's own peak only, and a first result", s)
		}
	})
	t.Run("a tool plus an in-process part counts both", func(t *testing.T) {
		e := engine(&scripted{name: "grep"})
		e.Backend = &grower{scripted{name: "grep"}}
		s, err := measure(context.Background(), o, Task{Name: "x", Query: search.Query{Pattern: "x"}}, e)
		if err != nil {
			t.Fatal(err)
		}
		if s.ChildPeakRSS != 10<<20 || s.SelfPeakRSS < 60<<20 || s.PeakRSS != s.ChildPeakRSS+s.SelfPeakRSS {
			t.Errorf("child %d MiB, self %d MiB, peak %d MiB; want 10, at least 60 (the 64 MiB it made resident), and their sum",
				s.ChildPeakRSS>>20, s.SelfPeakRSS>>20, s.PeakRSS>>20)
		}
	})
	t.Run("the real grep engine counts grep and its re-read", func(t *testing.T) {
		requireTool(t, "grep")
		g, err := backends.Default(backends.Options{}).ByName("grep")
		if err != nil {
			t.Fatal(err)
		}
		info, err := g.Available(context.Background())
		if err != nil {
			t.Skipf("grep engine unavailable: %v", err)
		}
		// Enough for grep to run a while: its memory is sampled from
		// /proc, so a grep that exits before the first sample (one line
		// of one file, on a loaded machine) has no peak to report.
		big := t.TempDir()
		filler := bytes.Repeat([]byte("nothing to see on this line\n"), 20000)
		for i := range 32 {
			if err := os.WriteFile(filepath.Join(big, fmt.Sprintf("f%02d.txt", i)), append(filler, "hello\n"...), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		task := Task{Name: "hello", Query: search.Query{Pattern: "hello", Root: big}}
		bo := o
		bo.Root = big
		s, err := measure(context.Background(), bo, task, Engine{Backend: g, Info: info})
		if err != nil {
			t.Fatal(err)
		}
		if s.ChildPeakRSS <= 0 || s.ChildPeakRSS > 64<<20 || s.PeakRSS != s.ChildPeakRSS+s.SelfPeakRSS {
			t.Errorf("grep engine: child %d, self %d, peak %d bytes; want grep's own peak plus the in-process part", s.ChildPeakRSS, s.SelfPeakRSS, s.PeakRSS)
		}
	})
}

// sampledChild measures t on e until the child's peak was sampled, at most
// five times. A child that is gone before the first read of its
// /proc/PID/status (rg takes about 2 ms on the test's tree, and a loaded
// CI machine can be slower than that to read) reports 0, unknown; that is
// the measurement's documented answer, not what these tests check.
func sampledChild(t *testing.T, o Options, task Task, e Engine) Sample {
	t.Helper()
	var s Sample
	for range 5 {
		var err error
		if s, err = measure(context.Background(), o, task, e); err != nil {
			t.Fatal(err)
		}
		if s.ChildPeakRSS > 0 {
			break
		}
	}
	return s
}
