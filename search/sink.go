package search

import (
	"bytes"
	"errors"
	"strconv"
)

// ErrStop is returned by a Sink to end a search early without an error.
var ErrStop = errors.New("search: stop requested by sink")

// LineKind tells a matching line from a context line.
type LineKind int

const (
	// KindMatch is a line with at least one match.
	KindMatch LineKind = iota
	// KindContext is a line shown only as context around a match.
	KindContext
)

// Span is a half-open byte range [Start, End) within Line.Text.
type Span struct{ Start, End int }

// Line is one line of output: a match or a context line.
//
// A multiline match is reported as one Line per physical line it covers, each
// with KindMatch, so (Path, Number) identifies a line whichever engine ran.
type Line struct {
	Path       string // relative to Query.Root, forward slashes, no "./"
	Number     int    // 1-based line number
	Column     int    // 1-based byte column of the first submatch; 0 for context lines
	Text       []byte // the line without its terminator ("\n" or "\r\n")
	Submatches []Span // byte ranges of the matches within Text
	Kind       LineKind
	// Cut is how many bytes of the line were removed by Query.MaxColumns (0 = whole line).
	Cut int
	// MoreSubmatches counts the matches of the line that are not in
	// Submatches: past the column cap, or past the most an engine stores per
	// line (a 50 MB line of "A" searched for "A" has 50 million). They were
	// counted, not kept, so memory stays bounded by what can be printed.
	MoreSubmatches int
	// Located says Offset and Term are set: the byte offset of the line's
	// first byte in the file, and the terminator the file has after it
	// ("\n", "\r\n", or "" for a last line without one). An engine that
	// reads the file itself knows them for free; one that cannot tell
	// leaves Located false, and a printer that needs them (rg's -b, or a
	// CRLF line printed as the file has it) reads them from the file.
	Located bool
	Offset  int64
	Term    string
	// Continued says the first submatch is the rest of a multiline match
	// that began on an earlier line (rg --vimgrep prints a match on the
	// line where it starts only).
	Continued bool
}

// Matches counts the matches the line shows: its submatches and those
// counted without being kept, less a first one that is the rest of a
// match begun on an earlier line (counted there, as rg counts it once).
func (l *Line) Matches() int {
	n := len(l.Submatches) + l.MoreSubmatches
	if l.Continued && n > 0 {
		n--
	}
	return n
}

// FileSummary closes one file's results.
type FileSummary struct {
	Path         string
	MatchedLines int // lines with a match (what rg -c counts)
	// Binary says the file holds a NUL byte, at BinaryOffset: a file
	// found by walking was searched only up to it (rg stops there and,
	// after a match, says so); one named in Query.Paths was searched
	// whole. An engine that cannot tell leaves Binary false; BinaryOffset
	// means nothing without Binary.
	Binary       bool
	BinaryOffset int64
	// Bytes, when not 0, is how many bytes were searched for a file read
	// as other bytes than its own (decompressed, transcoded, preprocessed:
	// rg's JSON reports those); 0 means the file's own size.
	Bytes int64
	// Counted, when not 0, is what the engine added to Stats.BytesSearched
	// for the file where that is less than its size (it stopped early:
	// -m, a NUL), so that a caller counting less still can subtract the
	// difference.
	Counted int64
}

// Sink receives results: Begin, then the file's lines in order (content mode
// only), then End, for each file with at least one match. A Sink may return
// ErrStop to end the search early.
type Sink interface {
	Begin(path string) error
	Line(l Line) error
	End(s FileSummary) error
}

// CutMarker is the text that ends a line cut by a column cap, saying how
// many bytes were removed; the CLI and the agent tools print the same one.
func CutMarker(removed int) string { return "[... " + strconv.Itoa(removed) + " more bytes]" }

// Discard is a Sink that accepts everything and keeps nothing: for callers
// that want only the Stats, such as benchmarks.
var Discard Sink = SinkFuncs{}

// SinkFunc adapts a function that takes each Line to a Sink whose Begin and
// End accept silently.
type SinkFunc func(Line) error

// Begin accepts.
func (f SinkFunc) Begin(string) error { return nil }

// Line calls f.
func (f SinkFunc) Line(l Line) error { return f(l) }

// End accepts.
func (f SinkFunc) End(FileSummary) error { return nil }

// SinkFuncs adapts up to three functions to a Sink; a nil one accepts.
type SinkFuncs struct {
	BeginFunc func(path string) error
	LineFunc  func(Line) error
	EndFunc   func(FileSummary) error
}

// Begin calls BeginFunc when set.
func (s SinkFuncs) Begin(path string) error {
	if s.BeginFunc == nil {
		return nil
	}
	return s.BeginFunc(path)
}

// Line calls LineFunc when set.
func (s SinkFuncs) Line(l Line) error {
	if s.LineFunc == nil {
		return nil
	}
	return s.LineFunc(l)
}

// End calls EndFunc when set.
func (s SinkFuncs) End(sum FileSummary) error {
	if s.EndFunc == nil {
		return nil
	}
	return s.EndFunc(sum)
}

// FileError is a file or directory a search could not read: permission
// denied, removed between listing and reading, an I/O error, a directory
// link that leads back to an ancestor (LoopError), a path too long to
// open. The search goes on without it, as rg's does, but it is never a
// silent miss: the engine reports each one to a FileErrorSink as it
// happens, the Chain keeps the first MaxFileErrors in Result.FileErrors,
// and Stats.Unreadable counts them all.
type FileError struct {
	// Path is relative to Query.Root, forward slashes ("" for the root).
	Path string
	// Walk says the error came from the walk (listing a directory,
	// following a link), not from reading a file it listed: rg words the
	// two differently.
	Walk bool
	// Err is the cause: an *fs.PathError (errors.Is(err, fs.ErrPermission)
	// and the like work) or a *LoopError.
	Err error
}

func (e *FileError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *FileError) Unwrap() error { return e.Err }

// LoopError is a directory reached through a symbolic link (with
// Query.FollowSymlinks) that is one of its own ancestors: the walk does
// not enter it, which would never end.
type LoopError struct {
	Ancestor string // the ancestor it leads to, relative to Query.Root
}

func (e *LoopError) Error() string {
	return "file system loop found: points to an ancestor " + e.Ancestor
}

// MaxFileErrors is how many FileErrors a Result keeps; Stats.Unreadable
// counts the rest, so a tree of a million unreadable files costs no more
// memory than one of a hundred.
const MaxFileErrors = 100

// FileErrorSink is a Sink that also hears of each file the search could
// not read, as it happens (rg prints each on stderr at once). The call is
// serialised with the Sink's other calls but may come between any two
// files, also before a file sorted ahead of it. Returning an error ends
// the search as from the other methods.
type FileErrorSink interface {
	Sink
	FileError(e FileError) error
}

// ReportFileError passes e to sink when sink is a FileErrorSink; an
// engine calls it for every file it could not read.
func ReportFileError(sink Sink, e FileError) error {
	if es, ok := sink.(FileErrorSink); ok {
		return es.FileError(e)
	}
	return nil
}

// LineRun is a run of consecutive whole lines of one file that print
// alike: all of one kind, without submatches, each ending in '\n'. An
// engine that reports nearly every line (rg -v, --passthru) passes such a
// run in one call to a sink that takes them (RunSink), which prints it
// without a call per line; to any other sink it passes the lines (Each).
type LineRun struct {
	Path   string
	Number int    // the first line's number
	Lines  int    // how many lines Text holds
	Text   []byte // the lines with their terminators, as in the file
	Kind   LineKind
	Offset int64 // the first line's byte offset in the file
}

// RunSink is a Sink that also takes a LineRun at once.
type RunSink interface {
	Sink
	LineRun(LineRun) error
}

// SplitFirst is r's first line as a run of its own, and the rest.
func (r LineRun) SplitFirst() (first, rest LineRun) {
	i := bytes.IndexByte(r.Text, '\n') + 1
	if i == 0 {
		i = len(r.Text)
	}
	first, rest = r, r
	first.Lines, first.Text = 1, r.Text[:i]
	rest.Number, rest.Lines, rest.Text, rest.Offset = r.Number+1, r.Lines-1, r.Text[i:], r.Offset+int64(i)
	return first, rest
}

// Each calls fn with each line of r, as an engine would report it alone:
// located, its terminator "\n" or "\r\n" outside Text. The Line passed
// points into r.Text.
func (r LineRun) Each(fn func(Line) error) error {
	text, off := r.Text, r.Offset
	for n := r.Number; len(text) > 0; n++ {
		i := bytes.IndexByte(text, '\n')
		if i < 0 {
			i = len(text) - 1 // (a run's lines all end in '\n')
		}
		l := Line{Path: r.Path, Number: n, Text: text[:i], Kind: r.Kind, Located: true, Offset: off, Term: "\n"}
		if i > 0 && text[i-1] == '\r' {
			l.Text, l.Term = text[:i-1], "\r\n"
		}
		if err := fn(l); err != nil {
			return err
		}
		off += int64(i + 1)
		text = text[i+1:]
	}
	return nil
}
