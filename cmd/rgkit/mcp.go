package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/rgkit/rgkit/internal/buildinfo"
	"github.com/rgkit/rgkit/tools"
	"github.com/rgkit/rgkit/tools/mcpserver"
)

// mcpOptions are `rgkit mcp`'s flags.
type mcpOptions struct {
	root     string
	names    string
	timeout  time.Duration
	hidden   bool
	noIgnore bool
	// rootGiven says --root was on the command line: only then may the
	// root be / or the home directory.
	rootGiven  bool
	structured bool
}

// newMCPCmd serves the agent tools over MCP on stdin/stdout.
func newMCPCmd(s streams) *cobra.Command {
	var o mcpOptions
	cmd := &cobra.Command{
		Use:   "mcp [--root DIR]",
		Short: "Serve Grep, Glob and Read to an AI agent over MCP (stdio)",
		Long: `Serve Grep, Glob and Read over the Model Context Protocol on stdin/stdout.

Every path is confined to the workspace root (--root, default the current
directory). Started in / or in the home directory itself, it refuses to
serve that unless --root names it. Logs go to stderr; stdout carries only
protocol messages.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.rootGiven = cmd.Flags().Changed("root")
			return runMCP(cmd.Context(), s, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.root, "root", ".", "workspace root: the only tree the tools may search and read")
	f.StringVar(&o.names, "names", "default", "tool names: default (Grep, Glob, Read) or snake (grep_search, glob_search, read_file)")
	f.DurationVar(&o.timeout, "timeout", tools.DefaultTimeout, "time limit of one search; partial results are returned, labelled")
	f.BoolVar(&o.hidden, "hidden", false, "search hidden files and directories too")
	f.BoolVar(&o.noIgnore, "no-ignore", false, "do not apply .gitignore, .ignore and .rgignore")
	f.BoolVar(&o.structured, "structured", true, "send structuredContent (and outputSchema) beside each result's text; --structured=false halves the size of results")
	completeValues(cmd, "names", "default", "snake")
	return cmd
}

func runMCP(ctx context.Context, s streams, o mcpOptions) error {
	names, err := tools.NamesPreset(o.names)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	if !o.rootGiven {
		if err := refuseBroadRoot(o.root); err != nil {
			return &exitError{code: 2, err: err}
		}
	}
	ws, err := tools.NewWorkspace(o.root, tools.Options{
		Names:    names,
		Limits:   tools.Limits{Timeout: o.timeout},
		Hidden:   o.hidden,
		NoIgnore: o.noIgnore,
	})
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	log := slog.New(slog.NewTextHandler(s.errOut, nil))
	log.Info("rgkit mcp: serving on stdio", "root", ws.Root())
	srv := mcpserver.New(ws, mcpserver.Options{Logger: log, Version: buildinfo.Version(), TextOnly: !o.structured})
	return mcpserver.Serve(ctx, srv, s.in, s.out, log)
}

// refuseBroadRoot stops a server started without --root in / or in the home
// directory itself: a client launched from the wrong directory would hand
// the model the whole file system or every private file of the user.
func refuseBroadRoot(dir string) error {
	canon, err := canonicalDir(dir)
	if err != nil {
		return nil // NewWorkspace reports it
	}
	what := ""
	if filepath.Dir(canon) == canon {
		what = "the file system root " + canon
	} else if home, err := os.UserHomeDir(); err == nil {
		if h, err := canonicalDir(home); err == nil && h == canon {
			what = "your home directory " + canon
		}
	}
	if what == "" {
		return nil
	}
	return fmt.Errorf("rgkit mcp: the current directory is %s; refusing to let the tools read all of it. "+
		"Start the server in the project's directory, or pass it: rgkit mcp --root /path/to/project "+
		"(to serve %s anyway, say so: rgkit mcp --root %s)", what, canon, canon)
}

func canonicalDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}
