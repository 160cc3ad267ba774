package tools

import "time"

// Defaults for Limits. They follow Claude Code's tools where those are known:
// head_limit 250 for Grep, 100 files for Glob,
// 2000 lines for Read, 500 columns per matched line, a 20 s timeout.
const (
	DefaultGrepHeadLimit  = 250
	DefaultGlobHeadLimit  = 100
	DefaultReadLines      = 2000
	DefaultMaxColumns     = 500
	DefaultReadLineChars  = 2000
	DefaultMaxOutputChars = 30000
	DefaultTimeout        = 20 * time.Second
	// DefaultMaxHeldBytes bounds what a search holds in memory before it is
	// ordered and paged (the Chain's byte cap), like Claude Code's 20 MB
	// buffer.
	DefaultMaxHeldBytes = 20 << 20
)

// Limits keep every result small enough for a model's context. A zero
// field takes its default.
type Limits struct {
	// GrepHeadLimit is Grep's head_limit when the model gives none.
	GrepHeadLimit int
	// GlobHeadLimit is Glob's head_limit when the model gives none.
	GlobHeadLimit int
	// ReadLines is Read's limit when the model gives none.
	ReadLines int
	// MaxColumns cuts a Grep line after this many bytes, marked
	// "[... N more bytes]".
	MaxColumns int
	// ReadLineChars cuts a Read line after this many characters.
	ReadLineChars int
	// MaxOutputChars caps a tool's text whatever head_limit says; what does
	// not fit is left out at an entry boundary, and the text says how to
	// get it (the next offset, a narrower glob).
	MaxOutputChars int
	// Timeout bounds one Grep or Glob call; what was found by then is
	// returned, labelled partial.
	Timeout time.Duration
}

func (l Limits) withDefaults() Limits {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.GrepHeadLimit, DefaultGrepHeadLimit)
	def(&l.GlobHeadLimit, DefaultGlobHeadLimit)
	def(&l.ReadLines, DefaultReadLines)
	def(&l.MaxColumns, DefaultMaxColumns)
	def(&l.ReadLineChars, DefaultReadLineChars)
	def(&l.MaxOutputChars, DefaultMaxOutputChars)
	if l.Timeout <= 0 {
		l.Timeout = DefaultTimeout
	}
	return l
}
