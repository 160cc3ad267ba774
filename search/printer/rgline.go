package printer

import "github.com/rgkit/rgkit/search"

// RgLine is a result line with what rg's printers need beyond search.Line:
// the path as rg prints it, the line's terminator as it is in the file
// ("\n", "\r\n", or none at the end of a file) and its byte offset.
type RgLine struct {
	search.Line
	Path   string // as printed (e.g. "./src/a.go", "/abs/a.go", "<stdin>")
	Term   []byte // the line terminator as found in the file
	Offset int64  // absolute byte offset of the line's first byte
	// Replaced, when not nil, is the line with every match replaced (rg
	// -r); ReplacedSpans are the replacements' ranges within it.
	Replaced      []byte
	ReplacedSpans []search.Span
	// BlockColumn, when > 0, is the column printed for the line (or its
	// -o match): rg -U counts it from the start of a block of lines, and
	// prints it on each of the block's lines.
	BlockColumn int
	// BlockLines is how many lines the text holds when it is a whole -U
	// block (JSON's one message for it counts them all as matched).
	BlockLines int
}

// Styles are the ANSI sequences rg starts each colored element with; an
// empty one prints that element plainly. Reset ends a colored element.
type Styles struct {
	Path, Line, Column, Match string
}

// colorReset ends a colored element, as rg writes it.
const styleReset = "\x1b[0m"

// text returns the line's text and match spans as printed: the replaced
// line under -r, else the original.
func (l *RgLine) text() ([]byte, []search.Span) {
	if l.Replaced != nil {
		return l.Replaced, l.ReplacedSpans
	}
	return l.Text, l.Submatches
}

// IsMatch reports whether the line is a match (not context).
func (l *RgLine) IsMatch() bool { return l.Kind == search.KindMatch }
