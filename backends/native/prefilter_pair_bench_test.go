package native

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// BenchmarkPairScan compares, per literal, the ways a finder can scan:
// for its rarest byte alone (bytes.IndexByte, "rarebyte") and for its pair
// with each pair scan this machine runs. The data is a register header
// like the Linux tree's AMD ones (upper-case names every few bytes, where
// the rare byte's scan stops most), synthesised; RGKIT_BENCH_CORPUS reads
// a tree instead. Under emulation (qemu) only the results count, never
// the times. Reproduce with:
//
//	go test ./backends/native -run '^$' -bench BenchmarkPairScan -count 8 | tee new.txt; benchstat -col /scan new.txt
func BenchmarkPairScan(b *testing.B) {
	files := [][]byte{registerHeader(4 << 20)}
	total := int64(len(files[0]))
	if os.Getenv("RGKIT_BENCH_CORPUS") != "" {
		files, total = loadBenchCorpus(b)
	}
	scans := []pairKind{pairNone}
	scans = append(scans, pairKinds()...)
	for _, c := range []struct {
		lit  string
		fold bool
	}{
		{"PM_RESUME", false}, {"pm_resume", true}, {"_SUSPEND", false}, {"DOORBELL", false}, {"doorbell", true},
		{"ErrUnexpectedEOF", false}, {"errunexpectedeof", true},
	} {
		name := c.lit
		if c.fold {
			name += "/i"
		}
		for _, kind := range scans {
			scan := "scan=rarebyte"
			f := newFinder(lit2(c.lit, c.fold))
			f.hasPair = false
			if kind != pairNone {
				scan = "scan=" + kind.String()
				f = pairFinder(lit2(c.lit, c.fold), kind)
			}
			b.Run(name+"/"+scan, func(b *testing.B) {
				count := func() (hits int) {
					for _, data := range files {
						for i := f.index(data, 0); i >= 0; i = f.index(data, i+1) {
							hits++
						}
					}
					return hits
				}
				count() // untimed: see BenchmarkFinder
				b.SetBytes(total)
				var hits int
				for b.Loop() {
					hits = count()
				}
				b.ReportMetric(float64(hits), "hits")
			})
		}
	}
}

// registerHeader is about size bytes in the shape of the Linux tree's AMD
// register headers: a "//REG" line, then a #define of a shift and a mask
// for each of a few fields, names of upper-case words, values in hex.
func registerHeader(size int) []byte {
	rng := rand.New(rand.NewPCG(6, 1))
	words := strings.Fields("SDMA0 GFX RB CNTL DOORBELL OFFSET CSA ADDR LO HI WATERMARK STATUS MMHUB VM L2 PROTECTION FAULT " +
		"GCVM CONTEXT0 PAGE TABLE BASE UVD VCN JPEG DC DCN OTG CRTC HUBP DPP MPC OPP ENABLE MODE SEL DATA INDEX PWR PGFSM " +
		"CLK SMU MP1 MP0 THM FUSE SUSPEND_EN CP ME1 PIPE0 QUEUE HQD EOP WPTR RPTR SH MEM CONFIG TCP TA TD SQ SPI")
	name := func(n int) string {
		var s []string
		for range n {
			s = append(s, words[rng.IntN(len(words))])
		}
		return strings.Join(s, "_")
	}
	var sb strings.Builder
	for sb.Len() < size {
		reg := name(2 + rng.IntN(3))
		fmt.Fprintf(&sb, "//%s\n", reg)
		for range 1 + rng.IntN(4) {
			field := reg + "__" + name(1+rng.IntN(2))
			fmt.Fprintf(&sb, "#define %-100s 0x%x\n", field+"__SHIFT", rng.IntN(32))
			fmt.Fprintf(&sb, "#define %-100s 0x%08XL\n", field+"_MASK", rng.Uint32())
		}
	}
	return []byte(sb.String())
}
