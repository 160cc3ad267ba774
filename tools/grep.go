package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/search"
)

// GrepMode is Grep's output_mode.
type GrepMode string

const (
	// GrepFiles lists the files with a match (the default).
	GrepFiles GrepMode = "files_with_matches"
	// GrepContent shows matching lines, with context when asked.
	GrepContent GrepMode = "content"
	// GrepCount shows the number of matching lines per file.
	GrepCount GrepMode = "count"
)

// GrepInput are Grep's arguments; the JSON names follow Claude Code's Grep.
type GrepInput struct {
	Pattern      string   `json:"pattern"`
	Path         string   `json:"path,omitempty"`
	Glob         string   `json:"glob,omitempty"`
	Type         string   `json:"type,omitempty"`
	OutputMode   GrepMode `json:"output_mode,omitempty"`
	After        int      `json:"-A,omitempty"`
	Before       int      `json:"-B,omitempty"`
	C            int      `json:"-C,omitempty"`
	Context      int      `json:"context,omitempty"`
	LineNumbers  *bool    `json:"-n,omitempty"` // nil = true
	IgnoreCase   bool     `json:"-i,omitempty"`
	FixedStrings bool     `json:"fixed_strings,omitempty"`
	Multiline    bool     `json:"multiline,omitempty"`
	HeadLimit    *int     `json:"head_limit,omitempty"` // nil = Limits.GrepHeadLimit; 0 = no limit
	Offset       int      `json:"offset,omitempty"`
}

// GrepResult is Grep's structured result: exactly what the text shows.
type GrepResult struct {
	Mode GrepMode `json:"mode"`
	// Files are the files with a match (files_with_matches).
	Files []string `json:"files,omitempty"`
	// Counts are matching lines per file (count).
	Counts []GrepFileCount `json:"counts,omitempty"`
	// Matches are the matching lines with their context (content).
	Matches []GrepMatch `json:"matches,omitempty"`
	// TotalMatches and TotalFiles are what the search found before paging
	// and caps: exact unless Partial.
	TotalMatches int64 `json:"total_matches"`
	TotalFiles   int64 `json:"total_files"`
	Page
}

// GrepMatch is one matching line and the context lines around it.
type GrepMatch struct {
	File   string        `json:"file"`
	Line   int           `json:"line"`
	Text   string        `json:"text"`
	Cut    int           `json:"cut,omitempty"` // bytes cut from the end of Text
	Before []ContextLine `json:"before,omitempty"`
	After  []ContextLine `json:"after,omitempty"`
}

// ContextLine is a line shown around a match.
type ContextLine struct {
	Line int    `json:"line"`
	Text string `json:"text"`
	Cut  int    `json:"cut,omitempty"`
}

// GrepFileCount is one file's number of matching lines.
type GrepFileCount struct {
	File  string `json:"file"`
	Count int    `json:"count"`
}

func (w *Workspace) grepTool() Tool {
	return makeTool(KindGrep, w.names.Grep, w.describe(grepDescription), "grep", w.Grep)
}

// Grep searches file contents through the Workspace's engine chain.
func (w *Workspace) Grep(ctx context.Context, in GrepInput) (Output, error) {
	name := w.names.Grep
	fail := func(err error) (Output, error) {
		return Output{Summary: fmt.Sprintf("%s %s (error)", name, in.Pattern)}, err
	}
	q, err := w.grepQuery(in)
	if err != nil {
		return fail(err)
	}
	// The engines open everything beneath the held root (an engine that
	// cannot, rg, steps aside); the root's path must also still name it
	// before and after, or nothing found is shown (docs/agent-tools.md).
	if err := w.sandbox.Intact(); err != nil {
		return fail(err)
	}
	held, err := w.sandbox.OpenDir(".")
	if err != nil {
		return fail(w.sandbox.replaced(err))
	}
	defer held.Close()
	q.Confine = held
	sink := &grepSink{mode: q.Mode}
	res, err := w.searcher.Search(ctx, q, sink)
	if ierr := w.sandbox.Intact(); ierr != nil {
		return fail(ierr)
	}
	if err != nil {
		if ctx.Err() != nil {
			return Output{Summary: fmt.Sprintf("%s %s (cancelled)", name, in.Pattern)},
				fmt.Errorf("%s was cancelled: %w", name, ctx.Err())
		}
		if !res.Partial || sink.empty() {
			return fail(w.grepError(in, err))
		}
		// What was found before the engine failed is shown, labelled.
		res.Warnings = append(res.Warnings, "the search failed before it finished: "+err.Error())
	}
	r := sink.result(in, q, res)
	text := w.renderGrep(in, q, r)
	return Output{Text: text, Structured: r, Summary: grepSummary(name, in.Pattern, r)}, nil
}

// grepQuery turns the model's arguments into a Query rooted at the
// workspace, with the path resolved through the sandbox.
func (w *Workspace) grepQuery(in GrepInput) (search.Query, error) {
	name := w.names.Grep
	if in.Pattern == "" {
		return search.Query{}, &ArgumentError{Tool: name, Param: "pattern", Msg: "is required"}
	}
	if err := nonNegative(name, map[string]int{"-A": in.After, "-B": in.Before, "-C": in.C,
		"context": in.Context, "offset": in.Offset}); err != nil {
		return search.Query{}, err
	}
	if in.HeadLimit != nil && *in.HeadLimit < 0 {
		return search.Query{}, &ArgumentError{Tool: name, Param: "head_limit", Msg: "must be 0 (no limit) or more"}
	}
	mode, err := grepMode(name, in.OutputMode)
	if err != nil {
		return search.Query{}, err
	}
	q := search.Query{
		Pattern:    in.Pattern,
		Root:       w.sandbox.Root(),
		Case:       search.CaseSensitive,
		Fixed:      in.FixedStrings,
		Multiline:  in.Multiline,
		Mode:       mode,
		Hidden:     w.hidden,
		NoIgnore:   w.noIgnore,
		MaxColumns: w.limits.MaxColumns,
		Limit:      w.limits.GrepHeadLimit,
		Offset:     in.Offset,
		Sort:       search.SortPath,
		Timeout:    w.limits.Timeout,
	}
	if mode == search.ModeFilesWithMatches {
		// Newest first, like Glob: the files just edited are usually the
		// ones a model is after. Ties go by path, so pages are stable.
		q.Sort = search.SortModified
	}
	if in.IgnoreCase {
		q.Case = search.CaseInsensitive
	}
	if in.HeadLimit != nil {
		q.Limit = *in.HeadLimit
	}
	if mode == search.ModeContent {
		// A JSON 0 cannot be told from an absent field: 0 means "not given".
		var before, after *int
		if in.Before > 0 {
			before = &in.Before
		}
		if in.After > 0 {
			after = &in.After
		}
		q.Before, q.After = search.ContextLines(before, after, max(in.C, in.Context))
	}
	if in.Path != "" {
		tgt, err := w.sandbox.Resolve(in.Path)
		if err != nil {
			return q, w.pathHint(err)
		}
		if tgt.Rel != "." {
			q.Paths = []string{tgt.Rel}
		}
	}
	if in.Glob != "" {
		if climbs(strings.TrimPrefix(in.Glob, "!")) {
			return q, &ArgumentError{Tool: name, Param: "glob",
				Msg: fmt.Sprintf("%q climbs above the search directory with \"..\"; globs filter files under path, so use path to choose the directory", in.Glob)}
		}
		if err := native.CheckGlob(in.Glob); err != nil {
			return q, &ArgumentError{Tool: name, Param: "glob", Msg: fmt.Sprintf("%q is not a valid glob: %v", in.Glob, err)}
		}
		q.Globs = []string{in.Glob}
	}
	if in.Type != "" {
		q.Types = []string{in.Type}
	}
	return q, nil
}

func grepMode(tool string, m GrepMode) (search.OutputMode, error) {
	switch m {
	case "", GrepFiles:
		return search.ModeFilesWithMatches, nil
	case GrepContent:
		return search.ModeContent, nil
	case GrepCount:
		return search.ModeCount, nil
	}
	return 0, &ArgumentError{Tool: tool, Param: "output_mode",
		Msg: fmt.Sprintf("is %q; use one of files_with_matches, content, count", string(m))}
}

// climbs reports whether a slash pattern has a ".." segment.
func climbs(pattern string) bool {
	for _, seg := range strings.Split(strings.ReplaceAll(pattern, `\`, "/"), "/") {
		if seg == ".." {
			return true
		}
	}
	return false
}

func grepSummary(name, pattern string, r *GrepResult) string {
	var what string
	switch {
	case r.TotalFiles == 0 && r.TotalMatches == 0:
		what = "no matches"
	case r.Mode == GrepContent:
		what = fmt.Sprintf("%s in %s", plural(r.TotalMatches, "match", "matches"), plural(r.TotalFiles, "file", "files"))
	case r.Mode == GrepCount:
		what = fmt.Sprintf("%s in %s", plural(r.TotalMatches, "matching line", "matching lines"), plural(r.TotalFiles, "file", "files"))
	default:
		what = plural(r.TotalFiles, "file", "files")
	}
	if r.Truncated {
		what += ", truncated"
	}
	if r.Partial {
		what += ", partial"
	}
	return fmt.Sprintf("%s %s (%s)", name, pattern, what)
}

func plural(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
