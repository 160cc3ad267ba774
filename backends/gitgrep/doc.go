// Package gitgrep is the engine that uses git grep inside a git work tree
// as a fast prefilter and answers every file with native.FileSearcher, so
// its results are rg's even where git grep's own would differ.
//
// It imports search, backends/native, internal/dialect, internal/proc and
// internal/version.
package gitgrep
