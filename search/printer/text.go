package printer

import (
	"io"
	"strconv"

	"github.com/rgkit/rgkit/search"
)

// Text prints lines the way `rg --no-heading -n` does: "path:line:text" for
// a match, "path-line-text" for a context line, and "--" between groups
// that are not contiguous (and between files) when context is on. A line
// cut by Query.MaxColumns ends with search.CutMarker ("[... N more bytes]") so the cut is
// never silent. Text is written as raw bytes, like rg.
type Text struct {
	w    io.Writer
	opts Options
	buf  []byte

	lastPath string
	lastLine int
	printed  bool
	num      [20]byte // a number's digits, formatted without an allocation
}

// NewText returns a Text printer writing to w.
func NewText(w io.Writer, opts Options) *Text { return &Text{w: w, opts: opts} }

// Begin implements search.Sink.
func (p *Text) Begin(path string) error { return nil }

// End implements search.Sink.
func (p *Text) End(search.FileSummary) error { return nil }

// Line implements search.Sink.
func (p *Text) Line(l search.Line) error {
	b := p.buf[:0]
	if p.opts.Context && p.printed && (l.Path != p.lastPath || l.Number != p.lastLine+1) {
		b = append(b, "--\n"...)
	}
	p.printed, p.lastPath, p.lastLine = true, l.Path, l.Number
	sep := byte(':')
	if l.Kind == search.KindContext {
		sep = '-'
	}
	if !p.opts.NoFilename {
		if p.opts.PathPrefix == "" {
			b = appendColored(b, p.opts.Color, colorPath, l.Path)
		} else {
			b = appendColored(b, p.opts.Color, colorPath, p.opts.PathPrefix+l.Path)
		}
		b = append(b, sep)
	}
	b = appendColored(b, p.opts.Color, colorLine, strconv.AppendInt(p.num[:0], int64(l.Number), 10))
	b = append(b, sep)
	if p.opts.Column && l.Kind == search.KindMatch {
		b = appendColored(b, p.opts.Color, colorLine, strconv.AppendInt(p.num[:0], int64(l.Column), 10))
		b = append(b, sep)
	}
	b = p.appendText(b, l)
	if l.Cut > 0 {
		b = append(append(b, ' '), search.CutMarker(l.Cut)...)
	}
	b = append(b, '\n')
	p.buf = b
	_, err := p.w.Write(b)
	return err
}

// appendText appends the line, with its submatches colored when on.
func (p *Text) appendText(b []byte, l search.Line) []byte {
	if !p.opts.Color || len(l.Submatches) == 0 {
		return append(b, l.Text...)
	}
	at := 0
	for _, s := range l.Submatches {
		if s.Start < at || s.End > len(l.Text) || s.Start >= s.End {
			continue // overlapping or empty spans: nothing to color
		}
		b = append(b, l.Text[at:s.Start]...)
		b = appendColored(b, true, colorMatch, string(l.Text[s.Start:s.End]))
		at = s.End
	}
	return append(b, l.Text[at:]...)
}
