// Package printer turns search results into text. Every printer is a
// search.Sink, so a new output format touches no engine and an engine
// touches no printer: rg-style lines (Text), JSON Lines (JSON), one path per
// line (Files) and per-file counts (Count).
package printer

// Options are shared by the printers.
type Options struct {
	// Color adds rg's default ANSI colors: path magenta, line and column
	// numbers green, matched text bold red. Callers turn it on only for a
	// terminal (and never when NO_COLOR is set).
	Color bool
	// Column prints the 1-based byte column of the first match (rg --column).
	Column bool
	// NoFilename leaves the path out, as rg does when it searches one file.
	NoFilename bool
	// Context says context lines were asked for: groups of lines that are
	// not contiguous, and files, are then separated by a "--" line.
	Context bool
	// PathPrefix is put before every path; the CLI uses it for a PATH
	// argument outside the working directory (e.g. "../lib/").
	PathPrefix string
}

// ANSI sequences for rg's default colors.
const (
	colorPath  = "\x1b[35m"
	colorLine  = "\x1b[32m"
	colorMatch = "\x1b[1;31m"
	colorReset = "\x1b[0m"
)

// appendColored appends s, wrapped in color when on.
func appendColored[T string | []byte](b []byte, on bool, color string, s T) []byte {
	if !on {
		return append(b, s...)
	}
	b = append(b, color...)
	b = append(b, s...)
	return append(b, colorReset...)
}
