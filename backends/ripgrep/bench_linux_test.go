package ripgrep

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/search"
)

// BenchmarkDecodeGoTree decodes rg 15's --json output for "func" over the
// Go tree corpus (rgkit bench's ~/.cache/rgkit/corpora/go-*): a broad query
// whose records are most of the work. The stream is written to a temp file
// once, not committed.
func BenchmarkDecodeGoTree(b *testing.B) {
	out := goTreeStream(b)
	b.SetBytes(int64(len(out)))
	cpu := cpuTime()
	for b.Loop() {
		if err := decodeRgJSON(bytes.NewReader(out), rgCaps{text: -1, subs: 1 << 14}, func(*rgRecord) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu, len(out))
}

// cpuTime is the process's user+system CPU time: on a shared machine the
// wall clock says more about the neighbours than about the decoder.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports MB decoded per CPU second since start.
func reportCPU(b *testing.B, start time.Duration, size int) {
	if d := cpuTime() - start; d > 0 {
		b.ReportMetric(float64(size)*float64(b.N)/d.Seconds()/1e6, "MB/cpu-s")
	}
}

func goTreeStream(b *testing.B) []byte {
	rg := testtool.Need(b, "rg")
	home, _ := os.UserHomeDir()
	dirs, _ := filepath.Glob(filepath.Join(home, ".cache", "rgkit", "corpora", "go-*"))
	if len(dirs) == 0 {
		b.Skip("no Go tree corpus in ~/.cache/rgkit/corpora (scripts/bench-corpus.sh fetches it)")
	}
	tmp := filepath.Join(b.TempDir(), "func.jsonl")
	f, err := os.Create(tmp)
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(rg, "--json", "--no-config", "func", dirs[0])
	cmd.Stdout = f
	if err := cmd.Run(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	out, err := os.ReadFile(tmp)
	if err != nil {
		b.Fatal(err)
	}
	return out
}

// BenchmarkEngineGoTree runs the engine end to end (rg 15 --json, the
// decoder, the records turned into Lines) for "func" on the Go tree, into
// a sink that keeps nothing; compare with rg writing its own output
// (rg func DIR > /dev/null).
func BenchmarkEngineGoTree(b *testing.B) {
	testtool.Need(b, "rg")
	home, _ := os.UserHomeDir()
	dirs, _ := filepath.Glob(filepath.Join(home, ".cache", "rgkit", "corpora", "go-*"))
	if len(dirs) == 0 {
		b.Skip("no Go tree corpus in ~/.cache/rgkit/corpora (scripts/bench-corpus.sh fetches it)")
	}
	q, err := search.Normalize(search.Query{Pattern: "func", Root: dirs[0]})
	if err != nil {
		b.Fatal(err)
	}
	e := New(nil)
	var rgCPU time.Duration
	cpu := cpuTime()
	for b.Loop() {
		lines := 0
		st, err := e.Search(context.Background(), q, search.SinkFunc(func(search.Line) error { lines++; return nil }))
		if err != nil || lines == 0 {
			b.Fatal(err, lines)
		}
		rgCPU += st.ProcessCPU
	}
	// The engine's own CPU (decoding, building Lines) and rg's.
	b.ReportMetric((cpuTime()-cpu).Seconds()/float64(b.N), "engine-cpu-s/op")
	b.ReportMetric(rgCPU.Seconds()/float64(b.N), "rg-cpu-s/op")
}
