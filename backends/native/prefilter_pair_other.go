//go:build !amd64 && !arm64 && !wasm

package native

// pairScanFor: the rare byte's scan. bytes.IndexByte is assembly on these
// machines and the SWAR pair scan has not been measured against it on any
// of them (docs/performance.md).
func pairScanFor(fold bool) pairKind { return pairNone }
