package native_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/search"
)

// The native engine's benchmarks run it and the real rg side by side in one
// run, on the same tree with the same flags (rg --no-config -c, which uses
// the same default file selection), and log the ratio native/rg per query
// class. Reproduce with:
//
//	go test ./backends/native -run '^$' -bench 'BenchmarkSearch|BenchmarkSmallRepo' -benchtime 10x
//
// The tree is $RGKIT_BENCH_CORPUS, else the Go installation's own source
// ($GOROOT/src, ~11,500 files, 157 MB); the small repo is its net/
// directory (415 files).

// benchClass is one query class of issue 4.
type benchClass struct {
	name    string
	pattern string
	fold    bool
	content bool // report lines (rg --json), not counts (rg -c)
}

var benchClasses = []benchClass{
	{name: "rare-literal", pattern: "ErrUnexpectedEOF"},
	{name: "common-literal", pattern: "func"},
	{name: "i-literal", pattern: "http", fold: true},
	{name: "alternation", pattern: "(Read|Write)(At|From|To)"},
	{name: "class-regex", pattern: `func \w+Error\(`},
	{name: "no-literal", pattern: `\w+\d\s*=\s*\d`},
	{name: "content-common-literal", pattern: "func", content: true},
}

func benchCorpus(b *testing.B) string {
	b.Helper()
	if dir := os.Getenv("RGKIT_BENCH_CORPUS"); dir != "" {
		return dir
	}
	dir := filepath.Join(testtool.GOROOT(b), "src")
	if _, err := os.Stat(dir); err != nil {
		b.Skipf("no benchmark corpus: set RGKIT_BENCH_CORPUS (%v)", err)
	}
	return dir
}

func BenchmarkSearch(b *testing.B) {
	benchEngines(b, benchCorpus(b))
}

// BenchmarkSmallRepo is where the in-process engine should beat spawning rg
// (the Chain's PolicyFastest relies on it).
func BenchmarkSmallRepo(b *testing.B) {
	benchEngines(b, filepath.Join(benchCorpus(b), "net"))
}

// benchEngines runs every class through native and rg and logs the ratios.
func benchEngines(b *testing.B, root string) {
	rg, rgErr := exec.LookPath("rg")
	times := map[string]map[string]time.Duration{}
	for _, c := range benchClasses {
		times[c.name] = map[string]time.Duration{}
		b.Run(c.name+"/native", func(b *testing.B) {
			q := benchQuery(root, c)
			var last int64
			for b.Loop() {
				last = nativeCount(b, q)
			}
			b.ReportMetric(float64(last), "lines")
			times[c.name]["native"] = b.Elapsed() / time.Duration(b.N)
		})
		b.Run(c.name+"/rg", func(b *testing.B) {
			if rgErr != nil {
				b.Skip("rg not installed")
			}
			var last int64
			for b.Loop() {
				last = rgCount(b, rg, root, c)
			}
			b.ReportMetric(float64(last), "lines")
			times[c.name]["rg"] = b.Elapsed() / time.Duration(b.N)
		})
	}
	logRatios(b, times)
}

func benchQuery(root string, c benchClass) search.Query {
	q := search.Query{Pattern: c.pattern, Root: root, Mode: search.ModeCount}
	if c.content {
		q.Mode = search.ModeContent
	}
	if c.fold {
		q.Case = search.CaseInsensitive
	}
	return q
}

// countSink adds up the per-file counts and the match lines it is given
// (its calls are serialised by the engine).
type countSink struct{ counted, lines atomic.Int64 }

func (s *countSink) Begin(string) error { return nil }
func (s *countSink) Line(l search.Line) error {
	if l.Kind == search.KindMatch {
		s.lines.Add(1)
	}
	return nil
}
func (s *countSink) End(f search.FileSummary) error {
	s.counted.Add(int64(f.MatchedLines))
	return nil
}

func nativeCount(b *testing.B, q search.Query) int64 {
	var sink countSink
	if _, err := native.New().Search(context.Background(), q, &sink); err != nil {
		b.Fatal(err)
	}
	if q.Mode == search.ModeContent {
		return sink.lines.Load()
	}
	return sink.counted.Load()
}

// rgCount runs rg -c as the benchmark's reference and sums its counts.
func rgCount(b *testing.B, rg, root string, c benchClass) int64 {
	args := []string{"--no-config", "-c"}
	if c.content {
		args = []string{"--no-config", "--json"}
	}
	if c.fold {
		args = append(args, "-i")
	}
	args = append(args, "-e", c.pattern, "--", ".")
	cmd := exec.Command(rg, args...)
	cmd.Dir = root
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); err != nil && !(ok && ee.ExitCode() == 1) {
		b.Fatal(err)
	}
	var total int64
	if c.content {
		return int64(strings.Count(string(out), `{"type":"match"`))
	}
	for _, line := range strings.Split(string(out), "\n") {
		if i := strings.LastIndexByte(line, ':'); i >= 0 {
			var n int64
			fmt.Sscan(line[i+1:], &n)
			total += n
		}
	}
	return total
}

func logRatios(b *testing.B, times map[string]map[string]time.Duration) {
	var names []string
	for name := range times {
		names = append(names, name)
	}
	sort.Strings(names)
	var sb strings.Builder
	fmt.Fprintf(&sb, "\n%-24s %12s %12s %8s\n", "class", "native", "rg", "ratio")
	for _, name := range names {
		n, r := times[name]["native"], times[name]["rg"]
		ratio := "-"
		if n > 0 && r > 0 {
			ratio = fmt.Sprintf("%.2fx", float64(n)/float64(r))
		}
		fmt.Fprintf(&sb, "%-24s %12v %12v %8s\n", name, n.Round(time.Microsecond), r.Round(time.Microsecond), ratio)
	}
	b.Log(sb.String())
}

// BenchmarkSearchRatio alternates native and rg run by run and reports
// native's total wall time over rg's as "native/rg": on a shared machine a
// load change then hits both engines alike, which the separate
// sub-benchmarks of BenchmarkSearch cannot promise. "cpu-native/rg" is the
// same ratio in CPU time (this process against the rg children), steadier
// still when other work competes for the cores.
func BenchmarkSearchRatio(b *testing.B) {
	benchRatios(b, benchCorpus(b))
}

// BenchmarkSmallRepoRatio is BenchmarkSearchRatio on the small repo.
func BenchmarkSmallRepoRatio(b *testing.B) {
	benchRatios(b, filepath.Join(benchCorpus(b), "net"))
}

func benchRatios(b *testing.B, root string) {
	rg := testtool.Need(b, "rg")
	for _, c := range benchClasses {
		b.Run(c.name, func(b *testing.B) {
			q := benchQuery(root, c)
			var nat, ref, natCPU, refCPU time.Duration
			for b.Loop() {
				self0, _ := cpuTimes()
				t0 := time.Now()
				n := nativeCount(b, q)
				t1 := time.Now()
				self1, child1 := cpuTimes()
				r := rgCount(b, rg, root, c)
				ref += time.Since(t1)
				nat += t1.Sub(t0)
				_, child2 := cpuTimes()
				natCPU += self1 - self0
				refCPU += child2 - child1
				if n != r && c.name != "no-literal" {
					b.Fatalf("native counted %d lines, rg %d", n, r)
				}
			}
			b.ReportMetric(float64(nat)/float64(ref), "native/rg")
			if refCPU > 0 {
				b.ReportMetric(float64(natCPU)/float64(refCPU), "cpu-native/rg")
			}
			b.ReportMetric(float64(nat.Milliseconds())/float64(b.N), "native-ms")
			b.ReportMetric(float64(ref.Milliseconds())/float64(b.N), "rg-ms")
		})
	}
}

// BenchmarkSearchPeakMemory reports the most memory the Go runtime held
// during one native search of the corpus per class (sampled every
// millisecond from runtime/metrics), in MB. Run it on its own so nothing
// else inflates the figure:
//
//	go test ./backends/native -run '^$' -bench BenchmarkSearchPeakMemory -benchtime 1x
func BenchmarkSearchPeakMemory(b *testing.B) {
	root := benchCorpus(b)
	for _, c := range benchClasses {
		b.Run(c.name, func(b *testing.B) {
			q := benchQuery(root, c)
			var peak uint64
			for b.Loop() {
				runtime.GC()
				stop := sampleMemory(&peak)
				nativeCount(b, q)
				stop()
			}
			b.ReportMetric(float64(peak)/1e6, "peak-MB")
		})
	}
}

// sampleMemory records the peak of the runtime's total mapped memory until
// the returned stop function is called.
func sampleMemory(peak *uint64) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}}
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > *peak {
				*peak = v
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() { close(done); <-finished }
}
