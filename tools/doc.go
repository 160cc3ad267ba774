// Package tools gives a language model three code-search tools — Grep, Glob
// and Read — over one directory tree, safe by construction and capped so a
// result never floods the model's context.
//
// A Workspace holds the root (canonicalised once), the search engine chain and
// the limits. Its Tools method returns the three tools, each with a name, a
// description written for a model, JSON input and output schemas, and a Call
// method taking the model's JSON arguments. Call returns both a text rendering
// for the model and the structured result, plus a one-line summary for a
// harness's status line.
//
// Every path a model names goes through the Workspace's Sandbox: a path that
// leads outside the root — by "..", an absolute path, a symlink or a symlinked
// parent — is refused with an error saying so, FIFOs and devices are refused
// as targets, and every path in a result is checked again before it is shown.
// Files are read through os.Root.
//
// The package knows nothing about MCP; package tools/mcpserver serves the same
// tools over the Model Context Protocol.
package tools
