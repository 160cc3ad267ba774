package bench

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/rgkit/rgkit/backends"
	"github.com/rgkit/rgkit/search"
)

// Engines returns the engines to measure: those named (all of rgkit's when
// names is empty), in the default chain's order, each with its version. An
// engine that cannot run here is returned in skipped when it was not asked
// for by name, and is an error when it was.
func Engines(ctx context.Context, names []string, opts backends.Options) (out []Engine, skipped []search.Skip, err error) {
	all := backends.Default(opts).Engines
	for _, b := range all {
		// As rgkit grep runs them without --stats: a benchmark reads
		// neither byte counts nor submatch positions.
		if n, ok := b.(search.ByteStatsOptional); ok {
			n.SkipByteStats()
		}
		if n, ok := b.(search.SpansOptional); ok {
			n.SkipSpans()
		}
	}
	known := make([]string, len(all))
	for i, b := range all {
		known[i] = b.Name()
	}
	for _, n := range names {
		if !slices.Contains(known, n) {
			return nil, nil, fmt.Errorf("unknown engine %q (known: %s)", n, strings.Join(known, ", "))
		}
	}
	for _, b := range all {
		if len(names) > 0 && !slices.Contains(names, b.Name()) {
			continue
		}
		info, err := b.Available(ctx)
		if err != nil {
			if len(names) > 0 {
				return nil, nil, fmt.Errorf("%s: %w", b.Name(), err)
			}
			skipped = append(skipped, search.Skip{Backend: b.Name(), Reason: err})
			continue
		}
		if info.Name == "" {
			info.Name = b.Name()
		}
		out = append(out, Engine{Backend: b, Info: info, List: listerFor(b, info)})
	}
	if len(out) == 0 {
		return nil, skipped, fmt.Errorf("no engine available to measure")
	}
	return out, skipped, nil
}

// listerFor lists files the way the engine would find them: rg --files for
// ripgrep (run here so that rg's own CPU and memory are known), the native
// walker for native. Other engines have no lister of their own.
func listerFor(b search.Engine, info search.Info) Lister {
	switch b.Name() {
	case "ripgrep":
		if info.Path == "" {
			return nil
		}
		return ripgrepLister(info.Path)
	case "native":
		return func(ctx context.Context, root string) ([]string, search.Stats, error) {
			// Paths alone, as rg --files and the ripgrep lister list them.
			res, err := backends.Glob(ctx, backends.GlobQuery{Root: root, Pattern: "**", Sort: backends.GlobSortPath, PathsOnly: true})
			if err != nil {
				return nil, search.Stats{}, err
			}
			paths := make([]string, len(res.Files))
			for i, f := range res.Files {
				paths[i] = f.Path
			}
			return paths, search.Stats{}, nil
		}
	}
	return nil
}
