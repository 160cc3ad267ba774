package printer

import (
	"io"
	"strconv"

	"github.com/rgkit/rgkit/search"
)

// Files prints one path per line, like rg -l.
type Files struct {
	w    io.Writer
	opts Options
}

// NewFiles returns a Files printer writing to w.
func NewFiles(w io.Writer, opts Options) *Files { return &Files{w: w, opts: opts} }

// Begin implements search.Sink.
func (p *Files) Begin(path string) error { return nil }

// Line implements search.Sink; the files mode sends no lines.
func (p *Files) Line(search.Line) error { return nil }

// End implements search.Sink.
func (p *Files) End(s search.FileSummary) error {
	b := appendColored(nil, p.opts.Color, colorPath, p.opts.PathPrefix+s.Path)
	_, err := p.w.Write(append(b, '\n'))
	return err
}

// Count prints "path:N" per file, like rg -c (just "N" with NoFilename).
type Count struct {
	w    io.Writer
	opts Options
}

// NewCount returns a Count printer writing to w.
func NewCount(w io.Writer, opts Options) *Count { return &Count{w: w, opts: opts} }

// Begin implements search.Sink.
func (p *Count) Begin(path string) error { return nil }

// Line implements search.Sink; the count mode sends no lines.
func (p *Count) Line(search.Line) error { return nil }

// End implements search.Sink.
func (p *Count) End(s search.FileSummary) error {
	var b []byte
	if !p.opts.NoFilename {
		b = appendColored(b, p.opts.Color, colorPath, p.opts.PathPrefix+s.Path)
		b = append(b, ':')
	}
	b = strconv.AppendInt(b, int64(s.MatchedLines), 10)
	_, err := p.w.Write(append(b, '\n'))
	return err
}
