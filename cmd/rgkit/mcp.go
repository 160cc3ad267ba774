package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/spf13/cobra"

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
}

// newMCPCmd serves the agent tools over MCP on stdin/stdout.
func newMCPCmd(s streams) *cobra.Command {
	var o mcpOptions
	cmd := &cobra.Command{
		Use:   "mcp [--root DIR]",
		Short: "Serve Grep, Glob and Read to an AI agent over MCP (stdio)",
		Long: `Serve Grep, Glob and Read over the Model Context Protocol on stdin/stdout.

Every path is confined to the workspace root (--root, default the current
directory). Logs go to stderr; stdout carries only protocol messages.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMCP(cmd.Context(), s, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.root, "root", ".", "workspace root: the only tree the tools may search and read")
	f.StringVar(&o.names, "names", "default", "tool names: default (Grep, Glob, Read) or snake (grep_search, glob_search, read_file)")
	f.DurationVar(&o.timeout, "timeout", tools.DefaultTimeout, "time limit of one search; partial results are returned, labelled")
	f.BoolVar(&o.hidden, "hidden", false, "search hidden files and directories too")
	f.BoolVar(&o.noIgnore, "no-ignore", false, "do not apply .gitignore, .ignore and .rgignore")
	return cmd
}

func runMCP(ctx context.Context, s streams, o mcpOptions) error {
	names, err := tools.NamesPreset(o.names)
	if err != nil {
		return &exitError{code: 2, err: err}
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
	srv := mcpserver.New(ws, mcpserver.Options{Logger: log})
	return mcpserver.Serve(ctx, srv, s.in, s.out, log)
}
