package rgfetch

import (
	"bytes"
	"errors"
	"fmt"
)

// maxSidecarSize caps a .sha256 sidecar. Real ones are under 200 bytes
// (certutil's three lines are the longest).
const maxSidecarSize = 4 << 10

// ParseSidecar extracts the digest from a release's .sha256 sidecar.
//
// ripgrep publishes two formats: `shasum -a 256` on Unix ("<hex>  name\n",
// or "<hex> *name" in binary mode) and `certutil -hashfile` on Windows
// (three CRLF lines: "SHA256 hash of name:", "<hex>", "CertUtil: ...").
// The name field has held build paths (BurntSushi/ripgrep#2654), so it is
// ignored. The rule is: the first whitespace-separated token that is exactly
// 64 hex digits is the digest, and there must be exactly one such token.
// Taking "the first token" instead yields the literal "SHA256" on certutil
// output (zyedidia/eget#112).
func ParseSidecar(data []byte) (string, error) {
	if len(data) > maxSidecarSize {
		return "", fmt.Errorf("sidecar is %d bytes, more than %d: not a .sha256 file", len(data), maxSidecarSize)
	}
	var found string
	for tok := range bytes.FieldsSeq(data) {
		if len(tok) != 64 || !isHex(tok) {
			continue
		}
		if found != "" {
			return "", errors.New("sidecar holds more than one SHA-256 digest")
		}
		found = string(tok)
	}
	if found == "" {
		return "", errors.New("sidecar holds no SHA-256 digest (64 hex digits)")
	}
	return NormalizeSHA256(found)
}

func isHex(b []byte) bool {
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f', c >= 'A' && c <= 'F':
		default:
			return false
		}
	}
	return true
}
