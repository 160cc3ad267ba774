package search

import (
	"context"
	"time"
)

// Info describes an available engine.
type Info struct {
	Name    string // "ripgrep", "gitgrep", "grep", "native"
	Path    string // absolute path of the binary; empty for native
	Version string // as reported by the tool, e.g. "15.1.0"
	Flavor  string // e.g. "gnu" or "bsd" for grep; "pcre" when -P works
}

// Engine is one search engine.
type Engine interface {
	// Name is the engine's stable name, as used by --backend.
	Name() string
	// Available reports whether the engine can run here; an error wraps ErrUnavailable.
	Available(ctx context.Context) (Info, error)
	// Search runs a validated, normalised Query and pushes results to sink in
	// any order of files but in line order within a file. It returns
	// ErrUnsupported or ErrUnavailable (wrapped) before emitting anything when
	// it cannot honour q.
	Search(ctx context.Context, q Query, sink Sink) (Stats, error)
}

// InProcess is implemented by an engine that searches inside this process
// instead of spawning a tool. PolicyFastest puts such an engine first on a
// small tree, where starting a process costs more than the search.
type InProcess interface {
	InProcess() bool
}

// ByteStatsOptional is implemented by an engine that can save work when its
// caller reads neither Stats.BytesSearched nor Stats.Binary (rg prints them
// only with --stats and --json): SkipByteStats tells it so, and those two
// counts are then approximate, for the rest of the engine's life (rg's
// command line builds its engines per run). Without the call every engine
// counts them as rg does.
type ByteStatsOptional interface {
	SkipByteStats()
}

// SpansOptional is implemented by an engine that can save work when its
// caller reads neither Line.Submatches, Line.Column nor
// Line.MoreSubmatches of a match line (a printer without colours, -o,
// --column or --json): SkipSpans tells it so, for the rest of the
// engine's life, and those fields may then be left empty.
type SpansOptional interface {
	SkipSpans()
}

// Stats counts what a search did.
type Stats struct {
	FilesSearched int64
	FilesMatched  int64
	MatchedLines  int64
	BytesSearched int64
	Binary        int64 // files skipped (or stopped) because they hold a NUL byte
	Unreadable    int64 // files that could not be opened or read
	TooLarge      int64 // files over Query.MaxFileSize
	Elapsed       time.Duration
	// MatchedLinesAtLeast says MatchedLines is a lower bound: the Chain
	// stopped the engine (a streamed page was full, the byte cap was hit),
	// or an external engine stopped reading a file's matches once the page
	// could hold no more of them (see FileMatchCap).
	MatchedLinesAtLeast bool

	// Process usage of external engines' child processes (zero for in-process
	// engines): user+sys CPU time and the largest peak resident set, so a
	// benchmark can show what a user pays for spawning a tool.
	ProcessCPU     time.Duration
	ProcessPeakRSS int64 // bytes
}

// Truncation says which cap cut the results.
type Truncation int

const (
	// NotTruncated means every result is present.
	NotTruncated Truncation = iota
	// TruncatedLimit means Query.Limit was reached and more results exist.
	TruncatedLimit
	// TruncatedBytes means the total output byte cap was reached.
	TruncatedBytes
)

// Skip records why the Chain passed over an engine.
type Skip struct {
	Backend string
	Reason  error // wraps ErrUnavailable, ErrUnsupported or ErrMemoryCap
}

// Result is the outcome of a search through a Chain.
type Result struct {
	Backend   string // the engine that ran
	Info      Info
	Skipped   []Skip // engines tried before it, in order, with the reason
	Stats     Stats
	Truncated Truncation
	Partial   bool     // the search stopped early (timeout, cancellation, engine error); results are incomplete
	Warnings  []string // e.g. unreadable files, engine stderr
	// FileErrors are the first MaxFileErrors files the engine could not
	// read (Stats.Unreadable counts them all); a caller whose Sink is a
	// FileErrorSink hears of each one as it happens too.
	FileErrors []FileError
}
