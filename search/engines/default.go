package backends

import "context"

// DefaultOptions configure DefaultChain.
type DefaultOptions struct {
	// Locate finds the rg binary; nil = the ripgrep engine's default (a
	// PATH lookup). cmd/ and tools/ wire rgfetch's Resolver in here.
	Locate func(ctx context.Context) (string, error)
	// Policy orders the engines per query; the zero value is PolicyFallback.
	Policy Policy
	// MaxOutputBytes is Chain.MaxOutputBytes (0 = DefaultMaxOutputBytes).
	MaxOutputBytes int64
}

// DefaultChain is every engine rgkit has, in fallback order: ripgrep, git
// grep, system grep, then the pure-Go native engine, which always runs, so a
// search never fails for want of a binary.
func DefaultChain(opts DefaultOptions) *Chain {
	return &Chain{
		Backends:       defaultBackends(opts),
		Policy:         opts.Policy,
		MaxOutputBytes: opts.MaxOutputBytes,
	}
}

// defaultBackends lists the engines in fallback order.
func defaultBackends(opts DefaultOptions) []Backend {
	return []Backend{NewRipgrep(opts.Locate), NewGitGrep(), NewSystemGrep(), NewNative()}
}
