package backends

import (
	"context"

	"github.com/rgkit/rgkit/backends/gitgrep"
	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/backends/ripgrep"
	"github.com/rgkit/rgkit/backends/sysgrep"
	"github.com/rgkit/rgkit/search"
)

// Options configure Default.
type Options struct {
	// Locate finds the rg binary; nil = the ripgrep engine's default (a
	// PATH lookup). cmd/ and tools/ wire rgfetch's Resolver in here.
	Locate func(ctx context.Context) (string, error)
	// Policy orders the engines per query; the zero value is PolicyFallback.
	Policy search.Policy
	// MaxOutputBytes is Chain.MaxOutputBytes (0 = DefaultMaxOutputBytes).
	MaxOutputBytes int64
}

// Default is every engine rgkit has, in fallback order: ripgrep, git
// grep, system grep, then the pure-Go native engine, which always runs, so a
// search never fails for want of a binary. Its cost model (cost.go) moves
// git grep and grep after native for every query class where they measured
// slower than it, which is every class measured so far: without rg, native
// answers, and the tools answer only what it declines.
func Default(opts Options) *search.Chain {
	return &search.Chain{
		Engines:        engineList(opts),
		Policy:         opts.Policy,
		MaxOutputBytes: opts.MaxOutputBytes,
		Cost:           cost,
	}
}

// engineList lists the engines in fallback order.
func engineList(opts Options) []search.Engine {
	return []search.Engine{ripgrep.New(opts.Locate), gitgrep.New(), sysgrep.New(), native.New()}
}
