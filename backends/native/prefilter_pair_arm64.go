package native

// pairScanFor: NEON (Advanced SIMD) is part of every arm64 CPU.
func pairScanFor(fold bool) pairKind { return pairVector }

// pairKinds are the scans this machine runs, for the tests.
func pairKinds() []pairKind { return []pairKind{pairVector, pairSWAR, pairScalar} }
