package tools

import (
	"context"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/rgkit/rgkit/backends"
)

// GlobInput are Glob's arguments.
type GlobInput struct {
	Pattern   string `json:"pattern"`
	Path      string `json:"path,omitempty"`
	HeadLimit *int   `json:"head_limit,omitempty"` // nil = Limits.GlobHeadLimit; 0 = no limit
	Offset    int    `json:"offset,omitempty"`
}

// GlobResult is Glob's structured result: exactly what the text shows.
type GlobResult struct {
	// Files match the pattern, relative to the workspace root, newest
	// modified first.
	Files []string `json:"files"`
	// SearchRoot is the absolute directory searched.
	SearchRoot string `json:"search_root"`
	// TotalMatched is how many files matched in all.
	TotalMatched int `json:"total_matched"`
	Page
}

func (w *Workspace) globTool() Tool {
	return makeTool(KindGlob, w.names.Glob, w.describe(globDescription), "glob", w.Glob)
}

// Glob lists the files under path whose path matches the pattern, newest
// modified first, through backends.Glob (rg --files or the native walker).
func (w *Workspace) Glob(ctx context.Context, in GlobInput) (Output, error) {
	name := w.names.Glob
	fail := func(err error) (Output, error) {
		return Output{Summary: fmt.Sprintf("%s %s (error)", name, in.Pattern)}, err
	}
	q, dir, err := w.globQuery(in)
	if err != nil {
		return fail(err)
	}
	// As for Grep: the listing is made beneath the search directory opened
	// beneath the held root, the root's path must name the held directory
	// before and after, and every name shown is confirmed beneath it
	// (globResult).
	if err := w.sandbox.Intact(); err != nil {
		return fail(err)
	}
	held, err := w.sandbox.OpenDir(dir.Rel)
	if err != nil {
		return fail(w.pathHint(&PathError{Path: in.Path, Kind: PathUnresolvable, Resolved: dir.Abs, Root: w.sandbox.Root(), Err: err}))
	}
	defer held.Close()
	q.Confine = held
	tctx, cancel := context.WithTimeout(ctx, w.limits.Timeout)
	defer cancel()
	res, err := backends.Glob(tctx, q)
	if ierr := w.sandbox.Intact(); ierr != nil {
		return fail(ierr)
	}
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return Output{Summary: fmt.Sprintf("%s %s (cancelled)", name, in.Pattern)},
			fmt.Errorf("%s was cancelled: %w", name, ctx.Err())
	case tctx.Err() != nil:
		return fail(fmt.Errorf("%s timed out after %s before the listing finished; no files are shown because the list would be incomplete. Use a more specific pattern or a path deeper in the tree",
			name, w.limits.Timeout))
	case errors.Is(err, backends.ErrGlobOutsideRoot):
		return fail(fmt.Errorf("pattern %q reaches outside the search directory %s; only files under the workspace root %s can be listed",
			in.Pattern, dir.Abs, w.sandbox.Root()))
	default:
		return fail(fmt.Errorf("%s failed: %w", name, err))
	}
	r := w.globResult(in, q, dir, res)
	text := w.renderGlob(in, r)
	return Output{Text: text, Structured: r, Summary: globSummary(name, in.Pattern, r)}, nil
}

// globQuery resolves the search directory through the sandbox and checks
// the pattern.
func (w *Workspace) globQuery(in GlobInput) (backends.GlobQuery, Target, error) {
	name := w.names.Glob
	if in.Pattern == "" {
		return backends.GlobQuery{}, Target{}, &ArgumentError{Tool: name, Param: "pattern", Msg: "is required"}
	}
	if err := nonNegative(name, map[string]int{"offset": in.Offset}); err != nil {
		return backends.GlobQuery{}, Target{}, err
	}
	if in.HeadLimit != nil && *in.HeadLimit < 0 {
		return backends.GlobQuery{}, Target{}, &ArgumentError{Tool: name, Param: "head_limit", Msg: "must be 0 (no limit) or more"}
	}
	dir, err := w.sandbox.Resolve(in.Path)
	if err != nil {
		return backends.GlobQuery{}, Target{}, w.pathHint(err)
	}
	if !dir.Info.IsDir() {
		return backends.GlobQuery{}, Target{}, &ArgumentError{Tool: name, Param: "path",
			Msg: fmt.Sprintf("is %q, a file; give the directory to search in", in.Path)}
	}
	pattern := in.Pattern
	body := strings.TrimPrefix(pattern, "!")
	if climbs(body) {
		return backends.GlobQuery{}, Target{}, &ArgumentError{Tool: name, Param: "pattern",
			Msg: fmt.Sprintf("%q climbs above the search directory with \"..\"; only files under the workspace root %s can be listed, so use path to choose the directory",
				in.Pattern, w.sandbox.Root())}
	}
	if filepath.IsAbs(body) {
		// An absolute pattern may spell the root another way (a symlinked
		// /tmp); resolve its literal directory part through the sandbox.
		abs, err := w.absPattern(body)
		if err != nil {
			return backends.GlobQuery{}, Target{}, err
		}
		pattern = strings.TrimSuffix(pattern, body) + abs
	}
	limit := w.limits.GlobHeadLimit
	if in.HeadLimit != nil {
		limit = *in.HeadLimit
	}
	q := backends.GlobQuery{
		Root:     dir.Abs,
		Pattern:  pattern,
		Hidden:   w.hidden,
		NoIgnore: w.noIgnore,
		Sort:     backends.GlobSortModified,
		Ripgrep:  w.ripgrep,
	}
	if limit > 0 {
		q.Limit = in.Offset + limit
	}
	return q, dir, nil
}

// absPattern rewrites an absolute pattern so that its directory part (up to
// the first glob character) is the canonical path inside the root.
func (w *Workspace) absPattern(p string) (string, error) {
	meta := strings.IndexAny(p, "*?[{\\")
	if meta < 0 {
		meta = len(p)
	}
	cut := strings.LastIndexAny(p[:meta], `/\`)
	dir, rest := p[:cut+1], p[cut+1:]
	tgt, err := w.sandbox.Resolve(dir)
	if err != nil {
		return "", w.pathHint(err)
	}
	return strings.TrimSuffix(filepath.ToSlash(tgt.Abs), "/") + "/" + rest, nil
}

// globResult pages the listing and turns its paths, relative to the
// search directory, into paths relative to the workspace root.
func (w *Workspace) globResult(in GlobInput, q backends.GlobQuery, dir Target, res backends.GlobResult) *GlobResult {
	r := &GlobResult{
		Files:        []string{},
		SearchRoot:   dir.Abs,
		TotalMatched: res.Total,
		Page:         Page{Offset: in.Offset, Backend: res.Backend},
	}
	dropped := 0
	// Only names that can be shown are confirmed (one lstat each); the
	// output cap cuts the rest in renderGlob.
	shownMax := w.limits.MaxOutputChars / 2
	for i, f := range res.Files {
		if i < in.Offset {
			continue
		}
		p := path.Join(dir.Rel, f.Path)
		if !LocalResult(f.Path) || !LocalResult(p) {
			dropped++ // an engine's path must be relative and stay below
			continue
		}
		if len(r.Files) < shownMax {
			if _, err := w.sandbox.Lstat(p); err != nil {
				dropped++ // not in the held root: listed from elsewhere
				continue
			}
		}
		r.Files = append(r.Files, p)
	}
	if dropped > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%d listed path(s) outside the workspace root were dropped", dropped))
	}
	if shown := len(r.Files); in.Offset+shown+dropped < res.Total {
		r.cut(CapHeadLimit, shown)
	}
	return r
}

// renderGlob lists the files one a line within the output cap, then says
// what was left out.
func (w *Workspace) renderGlob(in GlobInput, r *GlobResult) string {
	if len(r.Files) == 0 {
		if in.Offset > 0 && r.TotalMatched > 0 {
			return fmt.Sprintf("No more files after offset %d: %d files match pattern %q.\n", in.Offset, r.TotalMatched, in.Pattern)
		}
		return fmt.Sprintf("No files match pattern %q under %s (%s were not listed).\n", in.Pattern, r.SearchRoot, w.notListed())
	}
	var b strings.Builder
	budget := w.limits.MaxOutputChars - noteReserve
	for i, f := range r.Files {
		if b.Len()+len(f)+1 > budget && i > 0 {
			r.Files = r.Files[:i]
			r.cut(CapOutput, i)
			break
		}
		b.WriteString(f)
		b.WriteByte('\n')
	}
	if r.Truncated {
		span := fmt.Sprintf("files %d-%d of %d", r.Offset+1, r.Offset+len(r.Files), r.TotalMatched)
		if r.TruncatedBy == CapOutput {
			fmt.Fprintf(&b, "[Output cut at %d characters: showing %s, newest first. Use offset=%d for the next page, or a more specific pattern.]\n",
				w.limits.MaxOutputChars, span, r.NextOffset)
		} else {
			fmt.Fprintf(&b, "[Showing %s, newest first (head_limit). Use offset=%d for the next page, or a more specific pattern.]\n",
				span, r.NextOffset)
		}
	}
	for _, warn := range r.Warnings {
		fmt.Fprintf(&b, "[Warning: %s]\n", warn)
	}
	return b.String()
}

func (w *Workspace) notListed() string {
	s := w.skipped(false)
	return strings.ToLower(s[:1]) + s[1:]
}

func globSummary(name, pattern string, r *GlobResult) string {
	switch {
	case r.TotalMatched == 0:
		return fmt.Sprintf("%s %s (no files)", name, pattern)
	case r.Truncated || r.Offset > 0:
		return fmt.Sprintf("%s %s (%d of %d files)", name, pattern, len(r.Files), r.TotalMatched)
	}
	return fmt.Sprintf("%s %s (%s)", name, pattern, plural(int64(r.TotalMatched), "file", "files"))
}
