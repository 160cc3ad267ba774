package tools

import (
	"context"

	"github.com/rgkit/rgkit/backends"
	"github.com/rgkit/rgkit/backends/ripgrep"
	"github.com/rgkit/rgkit/rgfetch"
	"github.com/rgkit/rgkit/search"
)

// Searcher runs one grep Query; *search.Chain is the real one. Tests and
// embedders may put another chain (one engine, a fixed order) here.
type Searcher interface {
	Search(ctx context.Context, q search.Query, sink search.Sink) (search.Result, error)
}

// Options configure a Workspace. The zero value is ready to use.
type Options struct {
	// Names are the tool names; empty fields take DefaultNames.
	Names Names
	// Limits are the caps; zero fields take their defaults.
	Limits Limits
	// Hidden makes Grep and Glob include hidden files and directories
	// (.github/, .env); by default they are skipped, like rg does.
	Hidden bool
	// NoIgnore makes Grep and Glob disregard .gitignore, .ignore and
	// .rgignore; by default ignored files are skipped.
	NoIgnore bool
	// Locate finds the rg binary for the default engine chain and Glob;
	// nil = an rgfetch.Resolver that never downloads and never takes an rg
	// from inside the workspace (a planted ./rg in an untrusted checkout).
	Locate func(ctx context.Context) (string, error)
	// Searcher runs Grep's searches; nil = backends.Default.
	Searcher Searcher
}

// Workspace is one directory tree a model may search and read, with the
// engines and limits its tools use. It is safe for concurrent use.
type Workspace struct {
	sandbox  *Sandbox
	names    Names
	limits   Limits
	hidden   bool
	noIgnore bool
	locate   func(ctx context.Context) (string, error)
	searcher Searcher
	ripgrep  *ripgrep.Engine // lists files for Glob when rg is available
}

// NewWorkspace opens the tree at root. The root is canonicalised once
// (absolute, symlinks resolved) and held open until Close; every path a
// tool is given is checked against it.
func NewWorkspace(root string, opts Options) (*Workspace, error) {
	sb, err := NewSandbox(root)
	if err != nil {
		return nil, err
	}
	w := &Workspace{
		sandbox:  sb,
		names:    opts.Names.withDefaults(),
		limits:   opts.Limits.withDefaults(),
		hidden:   opts.Hidden,
		noIgnore: opts.NoIgnore,
		locate:   opts.Locate,
		searcher: opts.Searcher,
	}
	if w.locate == nil {
		w.locate = workspaceLocator(sb.Root())
	}
	w.ripgrep = ripgrep.New(w.locate)
	if w.searcher == nil {
		w.searcher = backends.Default(backends.Options{
			Locate:         w.locate,
			MaxOutputBytes: DefaultMaxHeldBytes,
		})
	}
	return w, nil
}

// Root is the canonical root directory.
func (w *Workspace) Root() string { return w.sandbox.Root() }

// Close releases the root directory the Workspace holds open. The tools
// fail after it.
func (w *Workspace) Close() error { return w.sandbox.Close() }

// Sandbox is the resolver every tool checks paths with.
func (w *Workspace) Sandbox() *Sandbox { return w.sandbox }

// Names are the tool names in use.
func (w *Workspace) Names() Names { return w.names }

// Limits are the caps in use, defaults filled in.
func (w *Workspace) Limits() Limits { return w.limits }

// Tools returns Grep, Glob and Read, in that order.
func (w *Workspace) Tools() []Tool {
	return []Tool{w.grepTool(), w.globTool(), w.readTool()}
}

// Tool returns the tool called name.
func (w *Workspace) Tool(name string) (Tool, bool) {
	for _, t := range w.Tools() {
		if t.Name == name {
			return t, true
		}
	}
	return Tool{}, false
}

// workspaceLocator finds rg without downloading it and refuses one that
// lives inside the workspace root.
func workspaceLocator(root string) func(ctx context.Context) (string, error) {
	return (&rgfetch.Resolver{NoDownload: true, WorkDir: root}).Locate
}
