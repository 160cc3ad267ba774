// Package brotli links the brotli decoder into rg -z (internal/decompress)
// when imported: `import _ ".../internal/decompress/brotli"`. It is a
// package of its own because the brotli library imports net/http, which
// the pure-Go rg (package rg) and the native engine must not link; rgkit's
// command, which links net/http anyway, imports it.
package brotli

import (
	"io"

	"github.com/andybalholm/brotli"

	"github.com/rgkit/rgkit/internal/decompress"
)

func init() {
	decompress.RegisterBrotli(func(r io.Reader) io.Reader { return brotli.NewReader(r) })
}
