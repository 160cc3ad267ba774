//go:build !amd64

package native

const hasPairScan = false

func (p *pair) index(data []byte, npos int) int { return p.indexPairScalar(data, 0, npos) }
