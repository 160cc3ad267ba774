// Package ripgrep is the engine that runs rg --json (located by a caller's
// function, by default a PATH lookup) and turns its output into search
// results: the reference engine, whose answer the others must give.
//
// It imports search, search/native (to recompute -w spans the way rgkit
// defines them), internal/dialect and internal/proc.
package ripgrep
