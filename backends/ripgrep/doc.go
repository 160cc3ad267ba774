// Package ripgrep is the engine that runs rg --json (located by a caller's
// function, by default a PATH lookup) and turns its output into search
// results: the reference engine, whose answer the others must give.
// rg's JSON is read by a streaming decoder (rgDecoder) that keeps no more
// of a record than the caps, so the engine's memory does not grow with
// what rg prints: a 50 MB line of matches is a 2.8 GB record. A caller
// that reads no match positions (search.SpansOptional) gets its lines
// from rg's plain output instead, a third the bytes (see plainOutput).
//
// It imports search, backends/native (to recompute -w spans the way rgkit
// defines them), internal/dialect and internal/proc.
package ripgrep
