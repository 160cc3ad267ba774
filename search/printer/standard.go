package printer

import (
	"bytes"
	"io"
	"strconv"
	"sync/atomic"
	"unicode"
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
	Vimgrep      bool // one line per match, the whole line each time (rg sets LineNumber and Column with it unless -N / --no-column)
	Null         bool // a NUL instead of the separator after the path
	Trim         bool // drop leading ASCII whitespace
	// MaxColumns omits lines longer than this many bytes (0: none);
	// MaxColumnsPreview prints their first MaxColumns bytes instead.
	MaxColumns        int
	MaxColumnsPreview bool
	// Multiline says the lines come from a search of whole texts (rg -U
	// with a pattern that may match '\n'), where a preview counts the
	// matches it cut off differently.
	Multiline bool
	// Stats is rg --stats, under which rg finds every match of a line.
	Stats bool
	// Invert is rg -v: the lines printed as matches hold none.
	Invert bool
	// Replacing is rg -r (a -U block's lines come replaced already, with
	// no RgLine.Replaced of their own).
	Replacing bool
	// Hyperlink, when set, is the URL of a line of a file (rg
	// --hyperlink-format; line and column are 1 when not printed): the
	// path and the prelude are wrapped in an OSC 8 hyperlink to it.
	// HyperlinkLines says the URL names the line, so that under headings
	// each line's prelude is linked too.
	Hyperlink      func(abs string, line, column int) string
	HyperlinkLines bool
	// ContextSeparator goes between non-adjacent groups of lines when
	// context is on; nil prints none.
	ContextSeparator []byte
	// Context says -A/-B/-C (or --passthru) is in effect.
	Context bool
	// FieldMatchSeparator and FieldContextSeparator go between the fields
	// of a match and a context line (":" and "-" when nil; rg takes an
	// empty one as no separator at all).
	FieldMatchSeparator, FieldContextSeparator *string
	Color                                      bool
	Styles                                     Styles
	// StyleBytes, when set, adds up the bytes of the colour and hyperlink
	// sequences printed: rg --stats' "bytes printed" leaves them out.
	StyleBytes *atomic.Int64
	// Terminator ends the lines the printer makes up itself (a path, a
	// count, a heading, an -o match, a last line that has none): "\n"
	// when nil, "\r\n" for rg --crlf. A line printed from the file keeps
	// the file's own terminator, and the "--" separator and a heading's
	// blank line stay "\n", as in rg. With rg --null-data it is "\x00",
	// and then the "--" separator ends with it too (rg's choice).
	Terminator []byte
}

// sepTerm ends the context separator line and the blank line between
// --heading groups: the printer's own terminator ("\r\n" under --crlf, a
// NUL under --null-data), as rg ends them.
func (p *Standard) sepTerm() []byte { return p.term() }

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

	matchSep, contextSep string // the field separators in effect

	curPath     string // the file being printed
	linkPath    string // its absolute path, for hyperlinks ("" for none)
	fileStarted bool
	lastLine    int  // last line number printed in this file
	anyPrinted  bool // a line was printed
	// wroteAny: anything was printed, a binary file's note too; rg puts its
	// separator before a file's first line once anything was.
	wroteAny bool
	written  int64
	num      [20]byte // a line number's digits, formatted without an allocation
}

// NewStandard returns a printer writing to w.
func NewStandard(w io.Writer, cfg StandardConfig) *Standard {
	p := &Standard{w: w, cfg: cfg, matchSep: ":", contextSep: "-"}
	if cfg.FieldMatchSeparator != nil {
		p.matchSep = *cfg.FieldMatchSeparator
	}
	if cfg.FieldContextSeparator != nil {
		p.contextSep = *cfg.FieldContextSeparator
	}
	return p
}

// Reset makes p as new, to print to the same writer again, keeping
// its buffer.
func (p *Standard) Reset() {
	*p = Standard{w: p.w, cfg: p.cfg, buf: p.buf[:0], matchSep: p.matchSep, contextSep: p.contextSep}
}

// Written is the number of bytes printed so far (rg --stats' "bytes printed").
func (p *Standard) Written() int64 { return p.written }

func (p *Standard) flush(b []byte) error {
	p.buf = b[:0]
	n, err := p.w.Write(b)
	p.written += int64(n)
	p.wroteAny = p.wroteAny || n > 0
	return err
}

// Begin starts a file; nothing is printed until its first line.
func (p *Standard) Begin(path string) {
	p.curPath, p.fileStarted, p.lastLine = path, false, 0
	p.linkPath = ""
}

// LinkTo names the file being printed for hyperlinks (its absolute path).
func (p *Standard) LinkTo(abs string) { p.linkPath = abs }

// linkStart opens the hyperlink of the current file's line and column
// ("" when no hyperlink is printed).
func (p *Standard) linkStart(line, column int) string {
	if !p.cfg.WithFilename {
		return ""
	}
	return p.link(line, column)
}

// link opens the hyperlink of the current file's line and column
// whatever WithFilename says: a path printed alone (-l) is linked too.
func (p *Standard) link(line, column int) string {
	if p.cfg.Hyperlink == nil || p.linkPath == "" {
		return ""
	}
	url := p.cfg.Hyperlink(p.linkPath, line, column)
	if url == "" {
		return ""
	}
	return "\x1b]8;;" + url + "\x1b\\"
}

// linkEnd closes a hyperlink.
const linkEnd = "\x1b]8;;\x1b\\"

// Line prints one match or context line.
func (p *Standard) Line(l RgLine) error {
	b := p.buf[:0]
	if !p.fileStarted {
		b = p.appendFileSeparator(b)
		if p.cfg.Heading && p.cfg.WithFilename && !p.cfg.Vimgrep {
			b = p.appendLinkedPath(b, l.Path)
			if p.cfg.Null {
				b = append(b, 0)
			} else {
				b = append(b, p.term()...)
			}
		}
		p.fileStarted = true
	} else {
		b = p.appendBreak(b, l.Number)
	}
	p.lastLine = l.Number
	p.anyPrinted = true

	text, spans := l.text()
	// A context line with matches (-v's) is printed per match with -o too.
	if (p.cfg.OnlyMatching || p.cfg.Vimgrep) && len(spans) > 0 {
		return p.perMatch(b, l, text, spans)
	}
	col := firstColumn(spans)
	if l.BlockColumn > 0 {
		col = l.BlockColumn
	}
	b = p.appendPrefix(b, l, col, l.Offset)
	b = p.appendBody(b, l, text, spans, spans)
	return p.flush(b)
}

// perMatchFlush is how much of a line's output perMatch gathers before it
// writes: --vimgrep prints the whole line once per match, and a 1 MB line
// of minified code with 300 matches was 300 MB gathered in one buffer.
const perMatchFlush = 64 << 10

// perMatch prints one output line per match (-o or --vimgrep).
func (p *Standard) perMatch(b []byte, l RgLine, text []byte, spans []search.Span) error {
	if p.cfg.Vimgrep && !p.cfg.OnlyMatching && l.Continued {
		spans = spans[1:] // that match was printed on the line it starts on
	}
	for i, s := range spans {
		if len(b) >= perMatchFlush && i > 0 {
			if err := p.flush(b); err != nil {
				return err
			}
			b = p.buf
		}
		col := s.Start + 1
		if l.BlockColumn > 0 {
			col = l.BlockColumn
		}
		b = p.appendPrefix(b, l, col, l.Offset+int64(s.Start))
		if p.cfg.OnlyMatching {
			only := l
			only.Term = nil // rg ends each -o match with its own terminator (appendBody's), whatever the line's
			m := []search.Span{{Start: 0, End: s.End - s.Start}}
			counted := m
			if p.rawCount() {
				counted = spans
			}
			b = p.appendBody(b, only, text[s.Start:s.End], m, counted)
		} else {
			// rg colours only this match.
			counted := []search.Span{s}
			if p.rawCount() {
				counted = spans
			}
			b = p.appendBody(b, l, text, []search.Span{s}, counted)
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
// followed by the field separator; with hyperlinks, all of it but the last
// separator is the link (rg's prelude).
func (p *Standard) appendPrefix(b []byte, l RgLine, col int, off int64) []byte {
	sep := p.matchSep
	match := l.Kind == search.KindMatch
	if !match {
		sep = p.contextSep
	}
	link := ""
	if p.cfg.HyperlinkLines || !p.cfg.Heading || p.cfg.Vimgrep {
		line, column := 1, 1
		if p.cfg.LineNumber {
			line = l.Number
		}
		if col > 0 { // the first match's, printed or not
			column = col
		}
		link = p.linkStart(line, column)
	}
	b = append(b, link...)
	mark := -1 // where the last separator starts
	if p.cfg.WithFilename && (!p.cfg.Heading || p.cfg.Vimgrep) {
		b = p.appendPath(b, l.Path)
		mark = len(b)
		if p.cfg.Null {
			b = append(b, 0)
		} else {
			b = append(b, sep...)
		}
	}
	if p.cfg.LineNumber {
		b = appendStyled(p, b, p.cfg.Styles.Line, strconv.AppendInt(p.num[:0], int64(l.Number), 10))
		mark = len(b)
		b = append(b, sep...)
	}
	if p.cfg.Column && col > 0 { // a line without matches (-v's) has no column
		b = appendStyled(p, b, p.cfg.Styles.Column, strconv.AppendInt(p.num[:0], int64(col), 10))
		mark = len(b)
		b = append(b, sep...)
	}
	if p.cfg.ByteOffset {
		b = appendStyled(p, b, p.cfg.Styles.Column, strconv.AppendInt(p.num[:0], off, 10)) // rg colours it as a column
		mark = len(b)
		b = append(b, sep...)
	}
	if link != "" {
		p.styled(len(link) + len(linkEnd))
		if mark < 0 {
			return append(b, linkEnd...)
		}
		last := string(b[mark:])
		b = append(append(b[:mark], linkEnd...), last...)
	}
	return b
}

// appendLinkedPath writes a path, as a hyperlink to the file's start when
// hyperlinks are printed.
func (p *Standard) appendLinkedPath(b []byte, path string) []byte {
	link := p.link(1, 1)
	b = append(b, link...)
	b = p.appendPath(b, path)
	if link != "" {
		p.styled(len(link) + len(linkEnd))
		b = append(b, linkEnd...)
	}
	return b
}

func (p *Standard) appendPath(b []byte, path string) []byte {
	return appendStyled(p, b, p.cfg.Styles.Path, path)
}

// appendStyled appends s in style when colour is on: a string, or digits
// formatted into a buffer (no allocation per line).
func appendStyled[T string | []byte](p *Standard, b []byte, style string, s T) []byte {
	if !p.cfg.Color || style == "" {
		return append(b, s...)
	}
	p.styled(len(style) + len(styleReset))
	b = append(b, style...)
	b = append(b, s...)
	return append(b, styleReset...)
}

// appendBody writes the line text (trimmed, omitted or previewed per the
// options), colored matches, and the terminator. A preview says how many
// of the counted spans start past its end.
func (p *Standard) appendBody(b []byte, l RgLine, text []byte, spans, counted []search.Span) []byte {
	if p.cfg.Trim {
		n := len(text) - len(bytes.TrimLeft(text, " \t\n\v\f\r"))
		text = text[n:]
		spans = shiftSpans(spans, n)
		if !p.rawCount() {
			counted = shiftSpans(counted, n)
		}
	}
	term := l.Term
	if p.cfg.Trim && len(text) == 0 && string(term) == "\r\n" && string(p.term()) != "\r\n" {
		// Without --crlf the '\r' is the line's, and whitespace: rg trims
		// a line of spaces and a "\r" down to its "\n".
		term = term[1:]
	}
	if len(term) == 0 || p.cfg.Color && p.cfg.Styles.Match != "" && l.Kind == search.KindMatch && len(spans) > 0 ||
		p.cfg.Multiline && string(p.term()) == "\r\n" && !p.cfg.Invert && l.Kind == search.KindMatch && (p.matchGranular(l) || p.cfg.Replacing) {
		// rg colours a line's matches with the terminator cut off, then
		// ends the line with its own: "\r\n" under --crlf, even for a
		// line that ended in "\n" alone. So it ends every line of a
		// multiline search's match when it finds each match (a column,
		// colours, -r, --stats). (Without --crlf it cuts "\n" alone and
		// writes it back: the file's bytes.)
		term = p.term()
	}
	// rg measures the line with its terminator (an -o match has none).
	if p.cfg.MaxColumns > 0 && len(text)+len(l.Term) > p.cfg.MaxColumns {
		if !p.cfg.MaxColumnsPreview {
			// rg counts the matches of any line it found them on (-v
			// --passthru's matching lines are context), and names the
			// line's kind when there are none (-v's selected lines).
			n := len(l.Submatches) + l.MoreSubmatches
			switch {
			case n > 0 && !p.cfg.OnlyMatching && p.matchGranular(l):
				b = append(b, "[Omitted long line with "+strconv.Itoa(n)+" matches]"...)
			case l.Kind != search.KindMatch:
				b = append(b, "[Omitted long context line]"...)
			default:
				b = append(b, "[Omitted long matching line]"...)
			}
			return append(b, p.term()...)
		}
		end := previewEnd(text, p.cfg.MaxColumns)
		b = p.appendColored(b, text[:end], spans)
		if !p.matchGranular(l) || len(counted) == 0 {
			b = append(b, " [... omitted end of long line]"...)
			return append(b, p.term()...)
		}
		more := 0
		for _, s := range counted {
			if s.Start >= end && s.Start < len(text) {
				more++
			}
		}
		b = append(b, " [... "...)
		b = strconv.AppendInt(b, int64(more), 10)
		if more == 1 {
			b = append(b, " more match]"...)
		} else {
			b = append(b, " more matches]"...)
		}
		return append(b, p.term()...)
	}
	b = p.appendColored(b, text, spans)
	return append(b, term...)
}

// rawCount reports whether a preview counts the matches left after it as
// rg does for a line of a line-by-line search printed without colour: all
// of the line's matches, where they are in the line as read, against the
// printed text's length (which -o and --trim shorten). Otherwise it counts
// the matches shown in the text as printed.
func (p *Standard) rawCount() bool {
	return !p.cfg.Multiline && !(p.cfg.Color && p.cfg.Styles.Match != "")
}

// matchGranular reports output for which rg finds each match of a line:
// coloured matches, columns, --vimgrep, -r or --stats. An omitted long line
// then says how many matches it had.
func (p *Standard) matchGranular(l RgLine) bool {
	return p.cfg.Color && p.cfg.Styles.Match != "" || p.cfg.Column || p.cfg.Vimgrep || p.cfg.OnlyMatching || l.Replaced != nil || p.cfg.Stats
}

// appendColored writes text with the spans in the match style, as rg
// does: adjacent matches are one coloured run (rg ends the colour only
// before text that is not a match), and a span that overlaps the one
// before it is coloured from where that one ended.
func (p *Standard) appendColored(b, text []byte, spans []search.Span) []byte {
	if !p.cfg.Color || p.cfg.Styles.Match == "" || len(spans) == 0 {
		return append(b, text...)
	}
	at, colored := 0, false
	for _, s := range spans {
		if s.Start >= len(text) {
			continue
		}
		start, end := s.Start, min(s.End, len(text))
		switch {
		case at < start:
			if colored {
				b, colored = append(b, styleReset...), false
				p.styled(len(styleReset))
			}
			b = append(b, text[at:start]...)
		case at < end:
			start = at
		default:
			continue
		}
		if start < end {
			if !colored {
				b, colored = append(b, p.cfg.Styles.Match...), true
				p.styled(len(p.cfg.Styles.Match))
			}
			b = append(b, text[start:end]...)
		}
		at = end
	}
	if colored {
		b = append(b, styleReset...)
		p.styled(len(styleReset))
	}
	return append(b, text[at:]...)
}

// styled counts n bytes of colour sequences (StandardConfig.StyleBytes).
func (p *Standard) styled(n int) {
	if p.cfg.StyleBytes != nil {
		p.cfg.StyleBytes.Add(int64(n))
	}
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

// appendFileSeparator appends what goes before a file's first line when
// others were printed before it: a blank line between headings, else the
// context separator.
func (p *Standard) appendFileSeparator(b []byte) []byte {
	if p.cfg.Heading && p.wroteAny && !p.cfg.Vimgrep {
		b = append(b, p.sepTerm()...)
	} else if !p.cfg.Heading && p.wroteAny && p.cfg.Context && p.cfg.ContextSeparator != nil {
		b = append(b, p.cfg.ContextSeparator...)
		b = append(b, p.sepTerm()...)
	}
	return b
}

// Follows is for a file printed apart by other, a new printer of p's
// configuration, whose output (not empty) is written next to p's: it
// returns the separator p would have printed before that file's first
// line, none when the file printed only a binary file's note, and counts
// the output as p's.
func (p *Standard) Follows(other *Standard) []byte {
	return p.FollowsFile(other.anyPrinted)
}

// Printed reports whether a line was printed since the printer was made
// or Reset (a binary file's note alone is not one: rg puts no separator
// before it).
func (p *Standard) Printed() bool { return p.anyPrinted }

// FollowsFile is Follows for a file whose printer is gone, told whether
// that printer printed a line (Printed): rg --sort's held files.
func (p *Standard) FollowsFile(printed bool) []byte {
	var b []byte
	if printed {
		b = p.appendFileSeparator(nil)
		p.anyPrinted = true
	}
	p.wroteAny = true
	return b
}

// ContextBreak prints the context separator that rg prints before line
// number n of the file being printed when lines were skipped since the
// last one printed, as rg does before a line it then does not print (the
// line where it notices a NUL and stops).
func (p *Standard) ContextBreak(n int) error {
	if !p.fileStarted {
		return nil
	}
	if b := p.appendBreak(p.buf[:0], n); len(b) > 0 {
		return p.flush(b)
	}
	return nil
}

// Visited counts line n of the file being printed as passed over without
// printing it: a line that follows it gets no separator for it. (rg
// prints after-context lines with no separator before them.)
func (p *Standard) Visited(n int) {
	if p.fileStarted && n > p.lastLine {
		p.lastLine = n
	}
}

// appendBreak appends the context separator when line n of the started
// file does not follow the last line printed.
func (p *Standard) appendBreak(b []byte, n int) []byte {
	if p.cfg.Context && p.cfg.ContextSeparator != nil && n > p.lastLine+1 {
		b = append(b, p.cfg.ContextSeparator...)
		b = append(b, p.sepTerm()...)
	}
	return b
}

// Binary prints rg's note for a file named on the command line that holds
// a NUL byte and matched: its lines are not printed, this is.
func (p *Standard) Binary(path string, offset int64) error {
	return p.binaryNote(path, "binary file matches", offset)
}

// BinaryStopped is rg's note after the lines of a file found by walking
// that it stopped searching at a NUL byte once it had found a match.
func (p *Standard) BinaryStopped(path string, offset int64) error {
	return p.binaryNote(path, "WARNING: stopped searching binary file after match", offset)
}

func (p *Standard) binaryNote(path, what string, offset int64) error {
	b := p.buf[:0]
	if p.cfg.WithFilename {
		b = p.appendPath(b, path)
		b = append(b, ": "...)
	}
	b = append(b, what...)
	b = append(b, " (found \"\\0\" byte around offset "...)
	b = strconv.AppendInt(b, offset, 10)
	b = append(b, ")\n"...)
	return p.flush(b)
}

// PathLine prints a path alone (-l, --files-without-match, --files),
// ended by a newline or, with Null, a NUL.
func (p *Standard) PathLine(path string) error {
	b := p.appendLinkedPath(p.buf[:0], path)
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
		b = p.appendLinkedPath(b, path)
		if p.cfg.Null {
			b = append(b, 0)
		} else {
			b = append(b, ':') // rg's summary printer ignores --field-match-separator
		}
	}
	b = strconv.AppendInt(b, n, 10)
	b = append(b, p.term()...)
	return p.flush(b)
}

// previewEnd is where --max-columns-preview cuts: after n user-perceived
// characters (rg counts grapheme clusters there, though it compares bytes
// with the limit): a letter and the combining marks after it are one.
func previewEnd(text []byte, n int) int {
	i := 0
	for k := 0; k < n && i < len(text); k++ {
		i = nextGrapheme(text, i)
	}
	return i
}

// nextGrapheme returns where the grapheme cluster at text[i] ends, by
// Unicode's rules for the cases text shows: CR LF; marks, joiners,
// variation selectors and emoji modifiers extending what precedes them;
// prepended concatenation marks joining what follows; an emoji joined to
// the one before by ZWJ; pairs of regional indicators (flags); Hangul
// syllables from jamo. An invalid byte is a cluster.
func nextGrapheme(text []byte, i int) int {
	r, size := utf8.DecodeRune(text[i:])
	i += size
	switch {
	case r == utf8.RuneError && size == 1:
		return i
	case r == '\r':
		if i < len(text) && text[i] == '\n' {
			return i + 1
		}
		return i
	case r < ' ' || r == 0x7f:
		return i
	}
	prev, flags := r, 0
	if isRegionalIndicator(r) {
		flags = 1
	}
	for i < len(text) {
		next, size := utf8.DecodeRune(text[i:])
		switch {
		case next == utf8.RuneError && size == 1, next < ' ':
			return i
		case next == 0x200D || isGraphemeExtend(next):
		case isPrepend(prev):
		case prev == 0x200D && isPictographic(next):
		case flags == 1 && isRegionalIndicator(next):
			flags = 2
		case hangulJoins(prev, next):
		default:
			return i
		}
		prev, i = next, i+size
	}
	return i
}

// isGraphemeExtend reports a rune that extends the cluster before it:
// marks (Mn, Me, and Mc but for the spacing vowels Unicode leaves out of
// SpacingMark), Thai and Lao AM, Other_Grapheme_Extend and the emoji
// modifiers.
func isGraphemeExtend(r rune) bool {
	switch {
	case r < 0x300:
		return false
	case r == 0xE33 || r == 0xEB3: // SARA AM, VOWEL SIGN AM: Lo, yet SpacingMark
		return true
	case notSpacingMark(r):
		return false
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Mc, unicode.Other_Grapheme_Extend) || (r >= 0x1F3FB && r <= 0x1F3FF)
}

// notSpacingMark reports the spacing combining marks (Mc) that Unicode's
// grapheme rules exclude from SpacingMark (Myanmar, Tai Tham, Tai Viet
// and Ahom vowels written before or apart from their consonant): each
// begins a cluster of its own.
func notSpacingMark(r rune) bool {
	switch {
	case r == 0x102B, r == 0x102C, r == 0x1038, r >= 0x1062 && r <= 0x1064, r >= 0x1067 && r <= 0x106D,
		r == 0x1083, r >= 0x1087 && r <= 0x108C, r == 0x108F, r >= 0x109A && r <= 0x109C,
		r == 0x1A61, r == 0x1A63, r == 0x1A64, r == 0xAA7B, r == 0xAA7D, r == 0x11720, r == 0x11721:
		return true
	}
	return false
}

// isPictographic approximates Extended_Pictographic: the symbols of the
// emoji blocks.
func isPictographic(r rune) bool {
	return (r >= 0x1F000 && r <= 0x1FAFF) || (r >= 0x2600 && r <= 0x27BF) || r == 0x2764
}

// isPrepend reports Unicode's Prepend characters (Arabic and Syriac
// number signs and the like), which join the character after them.
func isPrepend(r rune) bool {
	switch {
	case r >= 0x600 && r <= 0x605, r == 0x6DD, r == 0x70F, r == 0x890, r == 0x891, r == 0x8E2, r == 0xD4E,
		r == 0x110BD, r == 0x110CD, r == 0x111C2, r == 0x111C3, r == 0x1193F, r == 0x11941, r == 0x11A3A,
		r >= 0x11A84 && r <= 0x11A89, r == 0x11D46, r == 0x11F02:
		return true
	}
	return false
}

func isRegionalIndicator(r rune) bool { return r >= 0x1F1E6 && r <= 0x1F1FF }

// hangulJoins reports whether Hangul b continues the syllable a ends:
// L before L, V, LV or LVT; LV or V before V or T; LVT or T before T.
func hangulJoins(a, b rune) bool {
	isL := func(r rune) bool { return r >= 0x1100 && r <= 0x115F || r >= 0xA960 && r <= 0xA97C }
	isV := func(r rune) bool { return r >= 0x1160 && r <= 0x11A7 || r >= 0xD7B0 && r <= 0xD7C6 }
	isT := func(r rune) bool { return r >= 0x11A8 && r <= 0x11FF || r >= 0xD7CB && r <= 0xD7FB }
	syllable := func(r rune) (lv, lvt bool) {
		if r < 0xAC00 || r > 0xD7A3 {
			return false, false
		}
		return (r-0xAC00)%28 == 0, (r-0xAC00)%28 != 0
	}
	aLV, aLVT := syllable(a)
	bLV, bLVT := syllable(b)
	switch {
	case isL(a):
		return isL(b) || isV(b) || bLV || bLVT
	case aLV || isV(a):
		return isV(b) || isT(b)
	case aLVT || isT(a):
		return isT(b)
	}
	return false
}
