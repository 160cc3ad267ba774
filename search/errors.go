package search

import (
	"errors"
	"fmt"
)

// ErrUnavailable means an engine cannot run here (binary missing, too old,
// not inside a git work tree). The Chain moves on to the next engine.
var ErrUnavailable = errors.New("backend unavailable")

// ErrUnsupported means an engine cannot honour this Query exactly. It is
// returned before anything is emitted, and the Chain moves on.
var ErrUnsupported = errors.New("backend cannot honour this query exactly")

// ErrMemoryCap means an external engine's process needed more memory than
// its cap (the ripgrep engine's MaxMemory) and was stopped: rg builds a
// line's whole --json record before printing it, so one line of millions of
// matches takes gigabytes. The engine's error says which engine, which cap
// and what it searched. When nothing the engine found had reached the
// caller's Sink yet, the Chain searches again with the next engine (and says
// so in Result.Warnings); otherwise the answer is partial.
var ErrMemoryCap = errors.New("engine passed its memory cap")

// InvalidPatternError is a pattern rg 15 refuses without -P (a syntax
// error, look-around, a back-reference, a NUL byte), or one rg accepts
// but rgkit cannot give rg's meaning (\p{Age=V}: it has no table of
// Unicode ages). It is never a fallback and never "no matches".
type InvalidPatternError struct {
	Pattern string
	Offset  int    // 0-based byte offset of the offending part, -1 when unknown
	Reason  string // what is wrong
	Hint    string // how to fix it, e.g. "escape '{' as '\{'"
	Err     error  // the parser's error, when there is one
}

func (e *InvalidPatternError) Unwrap() error { return e.Err }

func (e *InvalidPatternError) Error() string {
	msg := fmt.Sprintf("invalid pattern %q", e.Pattern)
	if e.Offset >= 0 {
		msg += fmt.Sprintf(" at byte %d", e.Offset+1)
	}
	msg += ": " + e.Reason
	if e.Hint != "" {
		msg += " (" + e.Hint + ")"
	}
	return msg
}
