package ripgrep

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/internal/proc"
	"github.com/rgkit/rgkit/search"
)

// searchOlder runs q with an rg older than the reference release, which
// answers differently in diffs (search.Differences). Some of those
// differences come from the tree (how an ignore file or a glob is read:
// rows that no Query shows), others from the query (-w, \B, -U -m, -c -m
// -A). So such an rg never walks and never has the last word; it prunes:
//
//  1. native.Walk lists the files the reference would search (the one
//     implementation of rg 15.2.0's ignore rules, globs, types, hidden
//     files and size limit);
//  2. rg -l, given those files by name with --no-ignore, says which of
//     them can hold a match of the bare pattern (no -w, -m or context: a
//     -w match is a match of the pattern, so the list is a superset);
//  3. the native matcher searches those files and yields the lines, spans,
//     context and counts: the reference's answer by construction.
//
// Unless the caller skips the byte statistics (NoStats), step 2 is left
// out and every walked file is searched: rg 15 counts a binary file's
// bytes only up to where it stops, which only reading the file tells.
//
// A pattern whose line selection rg 13 gets wrong (\B, which it never
// matches before ^) would make the list no superset: refused
// (ErrUnsupported), so the Chain moves on. So is a pattern the old rg
// cannot parse (exit 2 before any file).
func (r *Engine) searchOlder(ctx context.Context, q search.Query, sink search.Sink, info search.Info, diffs []search.Behavior, start time.Time) (search.Stats, error) {
	if slices.Contains(diffs, search.RegexEngine) && !q.Fixed && hasNotWordBoundary(q.Pattern) {
		return search.Stats{}, fmt.Errorf("%w: ripgrep %s never matches \\B before ^ (rg %s does)", search.ErrUnsupported, info.Version, search.ReferenceVersion)
	}
	typeGlobs, err := search.TypeGlobs(q.Types)
	if err != nil {
		return search.Stats{}, err
	}
	m, err := native.Compile(native.MatchOptionsFor(q))
	if err != nil {
		return search.Stats{}, fmt.Errorf("%w: native matcher: %w", search.ErrUnsupported, err)
	}
	var (
		mu     sync.Mutex
		walked []native.File
	)
	ws, err := native.Walk(ctx, native.WalkOptionsFor(q, typeGlobs, 0), func(f native.File) error {
		mu.Lock()
		walked = append(walked, f)
		mu.Unlock()
		return nil
	})
	if err != nil {
		return search.Stats{}, err
	}
	var st search.Stats
	var candidates map[string]bool // nil: every walked file is searched
	if r.NoStats {
		if candidates, err = r.candidates(ctx, q, info, walked, &st); err != nil {
			return st, err
		}
	}
	src, err := (&native.Reader{}).Open(q.Root)
	if err != nil {
		return st, err
	}
	defer src.Close()
	run := native.NewFileSearcher(ctx, q, m, sink, src)
	var todo []native.File
	for _, f := range walked {
		if candidates == nil || candidates[f.Path] {
			todo = append(todo, f)
			continue
		}
		st.FilesSearched++ // rg read it and found nothing
		st.BytesSearched += f.Size
	}
	err = run.SearchFiles(todo, 0)
	fs := run.Stats()
	st.FilesSearched += fs.FilesSearched
	st.FilesMatched = fs.FilesMatched
	st.MatchedLines = fs.MatchedLines
	st.BytesSearched += fs.BytesSearched
	st.Binary = fs.Binary
	st.Unreadable += fs.Unreadable + ws.Unreadable
	st.TooLarge = ws.TooLarge
	st.Elapsed = time.Since(start)
	if sinkErr := run.SinkErr(); sinkErr != nil {
		return st, sinkErr
	}
	if err == nil {
		err = ctx.Err()
	}
	return st, err
}

// maxBatchBytes bounds the bytes of paths given to one rg run (Linux allows
// about 2 MiB of arguments and environment).
const maxBatchBytes = 256 << 10

// candidates runs rg -l over the walked files, in batches, and returns the
// set (by Query path) of those rg lists.
func (r *Engine) candidates(ctx context.Context, q search.Query, info search.Info, walked []native.File, st *search.Stats) (map[string]bool, error) {
	pq := q
	pq.Word = false
	base := append([]string{"--files-with-matches", "--null", "--no-ignore"}, patternArgs(pq)...)
	byAbs := make(map[string]string, len(walked))
	found := map[string]bool{}
	for i := 0; i < len(walked); {
		args := append(slices.Clone(base), "--regexp="+q.Pattern, "--")
		size := 0
		for ; i < len(walked) && (size == 0 || size+len(walked[i].Abs) < maxBatchBytes); i++ {
			abs := walked[i].Abs
			if !filepath.IsAbs(abs) {
				abs = filepath.Join(q.Root, filepath.FromSlash(walked[i].Path))
			}
			byAbs[abs] = walked[i].Path
			args = append(args, abs)
			size += len(abs) + 1
		}
		res, err := r.runList(ctx, info.Path, args, q.Root, func(p string) {
			if rel, ok := byAbs[p]; ok {
				found[rel] = true
			}
		})
		st.ProcessCPU += res.CPU
		st.ProcessPeakRSS = max(st.ProcessPeakRSS, res.PeakRSS)
		if res.MemoryCapped {
			return nil, r.memoryCapError(q)
		}
		if err != nil {
			return nil, err
		}
		switch {
		case res.ExitCode == 2 && countFileErrors(res.Stderr) == 0:
			// rg refused the pattern (one this release cannot parse).
			return nil, fmt.Errorf("%w: rg %s: %s", search.ErrUnsupported, info.Version, strings.TrimSpace(string(res.Stderr)))
		case res.ExitCode > 2:
			return nil, fmt.Errorf("rg exited with status %d: %s", res.ExitCode, strings.TrimSpace(string(res.Stderr)))
		}
		// A file rg could not read stays a candidate: the native search
		// counts it as unreadable, as the reference does.
		for _, l := range strings.Split(string(res.Stderr), "\n") {
			if p, _, ok := strings.Cut(l, ": "); ok && strings.Contains(l, "(os error ") {
				if rel, ok := byAbs[strings.TrimPrefix(p, "rg: ")]; ok {
					found[rel] = true
				}
			}
		}
	}
	return found, nil
}

// runList runs rg with args (a -l --null listing) and hands each path to
// fn; on EAGAIN before any output it runs once more with one thread.
func (r *Engine) runList(ctx context.Context, rg string, args []string, dir string, fn func(string)) (proc.Result, error) {
	for attempt := 0; ; attempt++ {
		a := args
		if attempt > 0 {
			a = append([]string{"--threads=1"}, args...)
		}
		any := false
		res, err := proc.Run(ctx, proc.Spec{
			Unavailable: search.ErrUnavailable, Path: rg, Args: a, Dir: dir, Env: r.env(),
			MaxStdout: orDefault(r.MaxStdout, proc.DefaultMaxStdout), Grace: r.Grace, MaxMemory: r.maxMemory(),
		}, func(rd io.Reader) error {
			return proc.ReadNulList(rd, func(p string) error { any = true; fn(p); return nil })
		})
		if attempt == 0 && !any && isEAGAIN(res) && ctx.Err() == nil {
			continue
		}
		if err == nil && res.StdoutCapped {
			err = fmt.Errorf("rg: output passed the engine's byte cap")
		}
		return res, err
	}
}

// hasNotWordBoundary reports whether an rg-dialect pattern holds \B (an
// escaped backslash before it does not count).
func hasNotWordBoundary(pattern string) bool {
	for i := 0; i+1 < len(pattern); i++ {
		if pattern[i] == '\\' {
			if pattern[i+1] == 'B' {
				return true
			}
			i++ // skip the escaped character
		}
	}
	return false
}
