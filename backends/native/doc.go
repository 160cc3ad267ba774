// Package native is rgkit's pure-Go search engine and the in-process parts
// every engine shares.
//
// It selects files as rg does (Walk: ignore files, globs, types, hidden
// files, symbolic links, size limits), reads them without leaving the root
// (Reader, Source), and matches them with a Matcher that reproduces rg's
// regex semantics on top of Go's regexp (word mode, line anchors, binary
// and encoding handling). Engine adapts all of that to search.Engine, and
// FileSearcher is its per-file work, which the git grep and system grep
// engines reuse for the files their tool cannot answer exactly.
//
// It imports search for the contract and nothing that spawns a process or
// opens a network connection.
package native
