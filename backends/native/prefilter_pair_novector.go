//go:build !amd64 && !arm64

package native

// pairKinds are the scans this machine runs, for the tests.
func pairKinds() []pairKind { return []pairKind{pairSWAR, pairScalar} }

// indexPairVector is never chosen here (pairKinds has no pairVector).
func (p *pair) indexPairVector(data []byte, npos int) int { return p.indexPairScalar(data, 0, npos) }
