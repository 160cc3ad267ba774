package printer

import (
	"bytes"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/rgkit/rgkit/search"
)

// StandardConfig selects rg's standard printer's options; the zero value
// is `rg --no-heading --no-line-number` without a file name.
type StandardConfig struct {
	Heading      bool // path on its own line, files separated by a blank line
	WithFilename bool
	LineNumber   bool
	Column       bool // 1-based column of the first match (of each match with -o)
	ByteOffset   bool // rg -b
	OnlyMatching bool // rg -o
	Vimgrep      bool // one line per match: path:line:column:text
	Null         bool // a NUL instead of the separator after the path
	Trim         bool // drop leading ASCII whitespace
	// MaxColumns omits lines longer than this many bytes (0: none);
	// MaxColumnsPreview prints their first MaxColumns bytes instead.
	MaxColumns        int
	MaxColumnsPreview bool
	// ContextSeparator goes between non-adjacent groups of lines when
	// context is on; nil prints none.
	ContextSeparator []byte
	// Context says -A/-B/-C (or --passthru) is in effect.
	Context bool
	// FieldMatchSeparator and FieldContextSeparator go between the fields
	// of a match and a context line (":" and "-" when empty).
	FieldMatchSeparator, FieldContextSeparator string
	Color                                      bool
	Styles                                     Styles
	// Terminator ends the lines the printer makes up itself (a path, a
	// count, a heading, an -o match, a last line that has none): "\n"
	// when nil, "\r\n" for rg --crlf. A line printed from the file keeps
	// the file's own terminator, and the "--" separator and a heading's
	// blank line stay "\n", as in rg. With rg --null-data it is "\x00",
	// and then the "--" separator ends with it too (rg's choice).
	Terminator []byte
}

// sepTerm ends the context separator line.
func (p *Standard) sepTerm() []byte {
	if string(p.cfg.Terminator) == "\x00" {
		return p.cfg.Terminator
	}
	return []byte{'\n'}
}

// term is the printer's own line terminator.
func (p *Standard) term() []byte {
	if p.cfg.Terminator == nil {
		return []byte{'\n'}
	}
	return p.cfg.Terminator
}

// Standard prints results byte for byte as rg 15's standard printer does.
// It is not a search.Sink: it needs RgLine's terminator and offset, which
// the caller adds.
type Standard struct {
	w   io.Writer
	cfg StandardConfig
	buf []byte

	filesPrinted int    // files with output so far (heading's blank line)
	curPath      string // the file being printed
	fileStarted  bool
	lastLine     int // last line number printed in this file
	anyPrinted   bool
	written      int64
}

// NewStandard returns a printer writing to w.
func NewStandard(w io.Writer, cfg StandardConfig) *Standard {
	if cfg.FieldMatchSeparator == "" {
		cfg.FieldMatchSeparator = ":"
	}
	if cfg.FieldContextSeparator == "" {
		cfg.FieldContextSeparator = "-"
	}
	return &Standard{w: w, cfg: cfg}
}

// Written is the number of bytes printed so far (rg --stats' "bytes printed").
func (p *Standard) Written() int64 { return p.written }

func (p *Standard) flush(b []byte) error {
	p.buf = b[:0]
	n, err := p.w.Write(b)
	p.written += int64(n)
	return err
}

// Begin starts a file; nothing is printed until its first line.
func (p *Standard) Begin(path string) {
	p.curPath, p.fileStarted, p.lastLine = path, false, 0
}

// Line prints one match or context line.
func (p *Standard) Line(l RgLine) error {
	b := p.buf[:0]
	if !p.fileStarted {
		if p.cfg.Heading && p.filesPrinted > 0 && !p.cfg.Vimgrep {
			b = append(b, '\n')
		} else if !p.cfg.Heading && p.anyPrinted && p.cfg.Context && p.cfg.ContextSeparator != nil {
			b = append(b, p.cfg.ContextSeparator...)
			b = append(b, p.sepTerm()...)
		}
		if p.cfg.Heading && p.cfg.WithFilename && !p.cfg.Vimgrep {
			b = p.appendPath(b, l.Path)
			if p.cfg.Null {
				b = append(b, 0)
			} else {
				b = append(b, p.term()...)
			}
		}
		p.fileStarted = true
		p.filesPrinted++
	} else if p.cfg.Context && p.cfg.ContextSeparator != nil && l.Number > p.lastLine+1 {
		b = append(b, p.cfg.ContextSeparator...)
		b = append(b, p.sepTerm()...)
	}
	p.lastLine = l.Number
	p.anyPrinted = true

	text, spans := l.text()
	if l.Kind == search.KindMatch && (p.cfg.OnlyMatching || p.cfg.Vimgrep) {
		return p.perMatch(b, l, text, spans)
	}
	b = p.appendPrefix(b, l, firstColumn(spans), l.Offset)
	b = p.appendBody(b, l, text, spans)
	return p.flush(b)
}

// perMatch prints one output line per match (-o or --vimgrep).
func (p *Standard) perMatch(b []byte, l RgLine, text []byte, spans []search.Span) error {
	for _, s := range spans {
		b = p.appendPrefix(b, l, s.Start+1, l.Offset+int64(s.Start))
		if p.cfg.OnlyMatching {
			only := l
			only.Term = p.term() // rg ends each -o match with its own terminator, whatever the line's
			b = p.appendBody(b, only, text[s.Start:s.End], []search.Span{{Start: 0, End: s.End - s.Start}})
		} else {
			b = p.appendBody(b, l, text, spans)
		}
	}
	return p.flush(b)
}

func firstColumn(spans []search.Span) int {
	if len(spans) == 0 {
		return 0
	}
	return spans[0].Start + 1
}

// appendPrefix writes path, line number, column and byte offset, each
// followed by the field separator.
func (p *Standard) appendPrefix(b []byte, l RgLine, col int, off int64) []byte {
	sep := p.cfg.FieldMatchSeparator
	match := l.Kind == search.KindMatch
	if !match {
		sep = p.cfg.FieldContextSeparator
	}
	if p.cfg.WithFilename && (!p.cfg.Heading || p.cfg.Vimgrep) {
		b = p.appendPath(b, l.Path)
		if p.cfg.Null {
			b = append(b, 0)
		} else {
			b = append(b, sep...)
		}
	}
	if p.cfg.LineNumber || p.cfg.Vimgrep {
		b = p.appendStyled(b, p.cfg.Styles.Line, strconv.Itoa(l.Number))
		b = append(b, sep...)
	}
	if (p.cfg.Column || p.cfg.Vimgrep) && match {
		b = p.appendStyled(b, p.cfg.Styles.Column, strconv.Itoa(col))
		b = append(b, sep...)
	}
	if p.cfg.ByteOffset {
		b = p.appendStyled(b, "", strconv.FormatInt(off, 10))
		b = append(b, sep...)
	}
	return b
}

func (p *Standard) appendPath(b []byte, path string) []byte {
	return p.appendStyled(b, p.cfg.Styles.Path, path)
}

func (p *Standard) appendStyled(b []byte, style, s string) []byte {
	if !p.cfg.Color || style == "" {
		return append(b, s...)
	}
	b = append(b, style...)
	b = append(b, s...)
	return append(b, styleReset...)
}

// appendBody writes the line text (trimmed, omitted or previewed per the
// options), colored matches, and the terminator.
func (p *Standard) appendBody(b []byte, l RgLine, text []byte, spans []search.Span) []byte {
	if p.cfg.Trim {
		n := len(text) - len(bytes.TrimLeft(text, " \t\n\v\f\r"))
		text = text[n:]
		spans = shiftSpans(spans, n)
	}
	term := l.Term
	if len(term) == 0 {
		term = p.term()
	}
	if p.cfg.MaxColumns > 0 && len(text) > p.cfg.MaxColumns {
		if !p.cfg.MaxColumnsPreview {
			if l.Kind == search.KindMatch {
				n := len(spans)
				if p.cfg.OnlyMatching || p.cfg.Vimgrep {
					n = 1
				}
				if n > 1 {
					b = append(b, "[Omitted long line with "+strconv.Itoa(n)+" matches]"...)
				} else {
					b = append(b, "[Omitted long matching line]"...)
				}
			} else {
				b = append(b, "[Omitted long context line]"...)
			}
			return append(b, '\n')
		}
		text = text[:previewEnd(text, p.cfg.MaxColumns)]
		b = p.appendColored(b, text, spans)
		b = append(b, " [... omitted end of long line]"...)
		return append(b, '\n')
	}
	b = p.appendColored(b, text, spans)
	return append(b, term...)
}

// appendColored writes text with the spans in the match style.
func (p *Standard) appendColored(b, text []byte, spans []search.Span) []byte {
	if !p.cfg.Color || p.cfg.Styles.Match == "" || len(spans) == 0 {
		return append(b, text...)
	}
	at := 0
	for _, s := range spans {
		if s.Start < at || s.Start >= len(text) || s.Start >= s.End {
			continue
		}
		end := min(s.End, len(text))
		b = append(b, text[at:s.Start]...)
		b = append(b, p.cfg.Styles.Match...)
		b = append(b, text[s.Start:end]...)
		b = append(b, styleReset...)
		at = end
	}
	return append(b, text[at:]...)
}

func shiftSpans(spans []search.Span, n int) []search.Span {
	if n == 0 {
		return spans
	}
	out := make([]search.Span, 0, len(spans))
	for _, s := range spans {
		if s.End <= n {
			continue
		}
		out = append(out, search.Span{Start: max(s.Start-n, 0), End: s.End - n})
	}
	return out
}

// Binary prints rg's note for a file named on the command line that holds
// a NUL byte and matched: its lines are not printed, this is.
func (p *Standard) Binary(path string, offset int64) error {
	b := p.buf[:0]
	if p.cfg.WithFilename {
		b = p.appendPath(b, path)
		b = append(b, ": "...)
	}
	b = append(b, "binary file matches (found \"\\0\" byte around offset "...)
	b = strconv.AppendInt(b, offset, 10)
	b = append(b, ")\n"...)
	return p.flush(b)
}

// PathLine prints a path alone (-l, --files-without-match, --files),
// ended by a newline or, with Null, a NUL.
func (p *Standard) PathLine(path string) error {
	b := p.appendPath(p.buf[:0], path)
	if p.cfg.Null {
		b = append(b, 0)
	} else {
		b = append(b, p.term()...)
	}
	return p.flush(b)
}

// Count prints a file's count (-c, --count-matches): "path:N", or "N"
// without a file name.
func (p *Standard) Count(path string, n int64) error {
	b := p.buf[:0]
	if p.cfg.WithFilename {
		b = p.appendPath(b, path)
		if p.cfg.Null {
			b = append(b, 0)
		} else {
			b = append(b, p.cfg.FieldMatchSeparator...)
		}
	}
	b = strconv.AppendInt(b, n, 10)
	b = append(b, p.term()...)
	return p.flush(b)
}

// previewEnd is where --max-columns-preview cuts: after n characters
// (rg counts characters there, though it compares bytes with the limit).
func previewEnd(text []byte, n int) int {
	i := 0
	for k := 0; k < n && i < len(text); k++ {
		_, size := utf8.DecodeRune(text[i:])
		i += size
	}
	return i
}
