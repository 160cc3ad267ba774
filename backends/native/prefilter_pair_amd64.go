package native

import "golang.org/x/sys/cpu"

// pairScanFor: AVX2 where the CPU has it, else the rare byte's scan. The
// SWAR pair scan took 1.3 to 3 times as long as bytes.IndexByte's, folded
// or not (BenchmarkPairScan, docs/performance.md; measured on a CPU with
// AVX2, which IndexByte uses too: an SSE2-only one was not measured).
func pairScanFor(fold bool) pairKind {
	if cpu.X86.HasAVX2 {
		return pairVector
	}
	return pairNone
}

// pairKinds are the scans this machine runs, for the tests.
func pairKinds() []pairKind {
	if cpu.X86.HasAVX2 {
		return []pairKind{pairVector, pairSWAR, pairScalar}
	}
	return []pairKind{pairSWAR, pairScalar}
}
