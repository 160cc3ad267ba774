package native

// pairScanFor: the SWAR pair scan for a case-folded literal, the rare
// byte's scan otherwise. WebAssembly's bytes.IndexByte is itself a word-at-
// a-time loop: scanning for one exact byte it is as fast as the pair scan
// or faster, but a folded literal scans for both cases of its rare byte
// and stops at each, and there the pair scan took a half to a quarter of
// the time (BenchmarkPairScan under Node, docs/performance.md).
func pairScanFor(fold bool) pairKind {
	if fold {
		return pairSWAR
	}
	return pairNone
}
