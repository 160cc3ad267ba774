// Package mcpserver serves a tools.Workspace's Grep, Glob and Read over the
// Model Context Protocol, with github.com/modelcontextprotocol/go-sdk.
//
// Each tool is listed with its input and output schemas; a call's result
// carries the structured content and the text rendering (the text alone
// with Options.TextOnly); a failed call is a
// tool error (isError) whose text tells the model what to do; a client's
// notifications/cancelled cancels the search. The server logs to the
// Logger it is given and never writes anything but protocol messages to its
// transport.
package mcpserver

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rgkit/rgkit/internal/buildinfo"
	"github.com/rgkit/rgkit/tools"
)

// Options configure New.
type Options struct {
	// Name and Version identify the server to clients; defaults "rgkit" and
	// rgkit's own version (buildinfo.Version).
	Name, Version string
	// TextOnly leaves out each result's structuredContent and each tool's
	// outputSchema (the protocol requires structured results from a tool
	// that declares one). Models read the text either way; the structured
	// copy roughly doubles every result, which clients that show or store
	// raw results (or pass them all to the model) pay for.
	TextOnly bool
	// Logger receives one line per tool call (tool, summary, status,
	// elapsed); nil discards. Over stdio it must write to stderr, never
	// stdout.
	Logger *slog.Logger
}

// New returns an MCP server exposing ws's tools.
func New(ws *tools.Workspace, opts Options) *mcp.Server {
	if opts.Name == "" {
		opts.Name = "rgkit"
	}
	if opts.Version == "" {
		opts.Version = buildinfo.Version()
	}
	log := opts.Logger
	if log == nil {
		log = discard()
	}
	n := ws.Names()
	s := mcp.NewServer(&mcp.Implementation{Name: opts.Name, Version: opts.Version}, &mcp.ServerOptions{
		Instructions: "Code search over the workspace " + ws.Root() + ": " + n.Grep + " searches file contents, " +
			n.Glob + " finds files by name, " + n.Read + " shows a file's lines. Paths are relative to the workspace root.",
	})
	closed := false
	for _, t := range ws.Tools() {
		tool := &mcp.Tool{
			Name:         t.Name,
			Title:        title(t.Kind),
			Description:  t.Description,
			InputSchema:  t.InputSchema,
			OutputSchema: t.OutputSchema,
			Annotations: &mcp.ToolAnnotations{
				Title:         title(t.Kind),
				ReadOnlyHint:  true,
				OpenWorldHint: &closed,
			},
		}
		if opts.TextOnly {
			tool.OutputSchema = nil
		}
		s.AddTool(tool, handler(t, log, !opts.TextOnly))
	}
	return s
}

func discard() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func title(k tools.Kind) string {
	switch k {
	case tools.KindGrep:
		return "Search file contents"
	case tools.KindGlob:
		return "Find files by name"
	case tools.KindRead:
		return "Read a file"
	}
	return ""
}

// handler runs one tool call. Failures become tool errors (isError with the
// actionable text), never protocol errors, so the model sees them and can
// correct its call.
func handler(t tools.Tool, log *slog.Logger, structured bool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		start := time.Now()
		out, err := t.Call(ctx, req.Params.Arguments)
		// "cancelled" only when the tool itself stopped on the cancellation:
		// a search that ran on to its timeout after the client gave up would
		// be "ok" (with partial results), which is how a lost cancellation
		// shows.
		status := "ok"
		switch {
		case errors.Is(err, context.Canceled):
			status = "cancelled"
		case err != nil:
			status = "error"
		}
		attrs := []any{"tool", t.Name, "status", status, "summary", out.Summary,
			"elapsed", time.Since(start).Round(time.Millisecond)}
		if status == "error" {
			attrs = append(attrs, "error", err.Error())
		}
		log.Info("tool call", attrs...)
		if err != nil {
			return &mcp.CallToolResult{
				Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}},
				IsError: true,
			}, nil
		}
		res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: out.Text}}}
		if structured {
			res.StructuredContent = out.Structured
		}
		return res, nil
	}
}

// drainWait bounds how long Serve keeps answering after the input ends.
const drainWait = time.Minute

// Serve runs s on the given streams (newline-delimited JSON-RPC, as on
// stdio) until the client disconnects or ctx ends. A malformed line is
// answered with a JSON-RPC error (and logged to log, nil discards) and the
// server reads on. When the input ends, requests already read are answered
// first (for at most a minute).
func Serve(ctx context.Context, s *mcp.Server, in io.Reader, out io.Writer, log *slog.Logger) error {
	if log == nil {
		log = discard()
	}
	d := newDrain(ctx, in, out, drainWait, log)
	err := s.Run(ctx, &mcp.IOTransport{Reader: d, Writer: d})
	if ctx.Err() != nil {
		return nil
	}
	return err
}
