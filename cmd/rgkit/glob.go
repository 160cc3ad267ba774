package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"path/filepath"
	"time"

	"github.com/rgkit/rgkit/backends"
	"github.com/rgkit/rgkit/internal/realrg"
	"github.com/spf13/cobra"
)

// globOptions are rgkit glob's flags.
type globOptions struct {
	json     bool
	limit    int
	offset   int
	sort     string
	hidden   bool
	noIgnore bool
	backend  string
}

func newGlobCmd(s streams) *cobra.Command {
	var o globOptions
	cmd := &cobra.Command{
		Use:   "glob [flags] PATTERN [PATH]",
		Short: "List files whose path matches a glob (rg --files --glob semantics)",
		Long: `List the files under PATH (default: the current directory) whose path
matches PATTERN, newest first.

PATTERN follows rg --glob: doublestar with {a,b} and [..]; without '/' it
matches the file name at any depth ("*.go"); with '/' it is anchored to PATH
("src/**/*.ts"), as is "./x"; a leading '!' inverts it. As with rg --glob,
a matching file is listed even if hidden or gitignored, but hidden and
ignored directories are only entered with --hidden / --no-ignore; .git
never appears.
Patterns reaching above PATH ("../x") are refused.

--head-limit N and --offset M page the list like rgkit grep: files M+1 to
M+N of the order chosen with --sort.

Exit status: 0 when a file matched, 1 when none did, 2 on error.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) >= 1 && len(args) <= 2 {
				return nil
			}
			what := "missing PATTERN"
			if len(args) > 2 {
				what = fmt.Sprintf("%d arguments, at most 2", len(args))
			}
			fmt.Fprintf(s.errOut, "rgkit glob: %s; usage: rgkit glob PATTERN [PATH]\n", what)
			return &exitError{code: 2}
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runGlob(cmd.Context(), s, o, args)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.json, "json", false, "print one JSON object with the files, their size and time, and the totals")
	f.IntVar(&o.limit, "head-limit", 0, "print at most this many files (0 = all)")
	f.IntVar(&o.limit, "limit", 0, "the former name of --head-limit")
	_ = f.MarkHidden("limit")
	f.IntVar(&o.offset, "offset", 0, "skip this many files first (with --head-limit, the next page)")
	f.StringVar(&o.sort, "sort", "modified", "order: modified (newest first) or path")
	f.BoolVar(&o.hidden, "hidden", false, "include hidden files and directories")
	f.BoolVar(&o.noIgnore, "no-ignore", false, "do not apply .gitignore, .ignore and .rgignore")
	f.StringVar(&o.backend, "backend", "auto", "lister: auto (rg --files when rg is found, else native), ripgrep or native")
	completeValues(cmd, "sort", "modified", "path")
	completeValues(cmd, "backend", "auto", "ripgrep", "native")
	return cmd
}

// globJSON is the --json document.
type globJSON struct {
	Root      string         `json:"root"`
	Files     []globFileJSON `json:"files"`
	Total     int            `json:"total"`
	Truncated bool           `json:"truncated"`
	Backend   string         `json:"backend"`
}

type globFileJSON struct {
	Path     string    `json:"path"`
	Size     int64     `json:"size"`
	Modified time.Time `json:"modified"`
}

func runGlob(ctx context.Context, s streams, o globOptions, args []string) error {
	q, err := o.query(ctx, args)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	res, err := backends.Glob(ctx, q)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	// Like rg --files PATH, paths are printed under PATH as given, in the
	// text and the JSON alike.
	prefix := ""
	if len(args) == 2 {
		prefix = filepath.ToSlash(filepath.Clean(args[1]))
	}
	show := func(p string) string {
		if prefix != "" && prefix != "." {
			return path.Join(prefix, p)
		}
		return p
	}
	files := res.Files[min(o.offset, len(res.Files)):]
	if o.json {
		doc := globJSON{Root: q.Root, Files: []globFileJSON{}, Total: res.Total, Truncated: res.Truncated, Backend: res.Backend}
		if abs, err := filepath.Abs(q.Root); err == nil {
			doc.Root = abs
		}
		for _, f := range files {
			doc.Files = append(doc.Files, globFileJSON{Path: show(f.Path), Size: f.Size, Modified: f.ModTime})
		}
		enc := json.NewEncoder(s.out)
		if err := enc.Encode(doc); err != nil {
			return &exitError{code: 2, err: err}
		}
	} else {
		for _, f := range files {
			if _, err := fmt.Fprintln(s.out, show(f.Path)); err != nil {
				return &exitError{code: 2, err: err}
			}
		}
	}
	if res.Total == 0 {
		return &exitError{code: 1}
	}
	return nil
}

// query builds the GlobQuery from the flags and arguments.
func (o globOptions) query(ctx context.Context, args []string) (backends.GlobQuery, error) {
	q := backends.GlobQuery{Pattern: args[0], Root: ".", Hidden: o.hidden, NoIgnore: o.noIgnore}
	if len(args) == 2 {
		q.Root = args[1]
	}
	if o.limit < 0 {
		return q, fmt.Errorf("glob: --head-limit %d: must be 0 (all) or more", o.limit)
	}
	if o.offset < 0 {
		return q, fmt.Errorf("glob: --offset %d: must be 0 or more", o.offset)
	}
	if o.limit > 0 {
		q.Limit = o.offset + o.limit
	}
	switch o.sort {
	case "modified", "":
		q.Sort = backends.GlobSortModified
	case "path":
		q.Sort = backends.GlobSortPath
		q.PathsOnly = !o.json // the text prints paths alone
	default:
		return q, fmt.Errorf("glob: --sort %q: want modified or path", o.sort)
	}
	switch o.backend {
	case "auto", "", "ripgrep":
		rg, err := backends.Default(backends.Options{Locate: realrg.Locate()}).ByName("ripgrep")
		if err == nil {
			q.Ripgrep = rg
		}
		if o.backend == "ripgrep" {
			if err != nil {
				return q, fmt.Errorf("glob: --backend ripgrep: %w", err)
			}
			if _, err := rg.Available(ctx); err != nil {
				return q, fmt.Errorf("glob: --backend ripgrep: %w", err)
			}
		}
	case "native":
	default:
		return q, fmt.Errorf("glob: --backend %q: want auto, ripgrep or native", o.backend)
	}
	return q, nil
}
