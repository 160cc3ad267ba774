package printer

import (
	"encoding/base64"
	"io"
	"strconv"
	"time"
	"unicode/utf8"
)

// RgJSON writes rg 15's JSON Lines (rg --json): per file a "begin", its
// "match" and "context" lines and an "end" with the file's stats, and a
// "summary" at the end. Text that is valid UTF-8 is written as {"text":…},
// anything else as {"bytes":…} in base64, exactly as rg does, so a program
// written for rg's JSON reads it unchanged.
type RgJSON struct {
	// NoLineNumber writes every "line_number" as null, as rg --json -N
	// does.
	NoLineNumber bool

	w    io.Writer
	buf  []byte
	full []byte // a line with its terminator (Line), reused

	path      string
	started   bool
	file      JSONFileStats
	total     JSONFileStats
	written   int64
	fileStart time.Time
}

// JSONFileStats are the counters rg puts in "end" and "summary".
type JSONFileStats struct {
	Elapsed           time.Duration
	Searches          int64
	SearchesWithMatch int64
	BytesSearched     int64
	BytesPrinted      int64
	MatchedLines      int64
	Matches           int64
}

// NewRgJSON returns an rg JSON Lines printer writing to w.
func NewRgJSON(w io.Writer) *RgJSON { return &RgJSON{w: w} }

// SetOutput sends what follows to w (the CLI holds each file's output
// apart while it sorts).
func (p *RgJSON) SetOutput(w io.Writer) { p.w = w }

// Absorb adds what q printed and counted to p's totals and clears q's:
// a file printed apart by a printer of its own (the CLI prints files on
// the search's workers) counts in the run's summary.
func (p *RgJSON) Absorb(q *RgJSON) {
	p.total.add(q.total)
	p.written += q.written
	q.total, q.written = JSONFileStats{}, 0
}

// Written is the number of bytes printed so far.
func (p *RgJSON) Written() int64 { return p.written }

func (p *RgJSON) flush(b []byte) error {
	p.buf = b[:0]
	n, err := p.w.Write(b)
	p.written += int64(n)
	p.file.BytesPrinted += int64(n)
	return err
}

// Begin starts a file: its "begin" line is written with its first line.
func (p *RgJSON) Begin(path string) {
	p.path, p.started = path, false
	p.file = JSONFileStats{}
	p.fileStart = time.Now()
}

func (p *RgJSON) begin() error {
	if p.started {
		return nil
	}
	p.started = true
	b := append(p.buf[:0], `{"type":"begin","data":{"path":`...)
	b = appendData(b, []byte(p.path))
	b = append(b, "}}\n"...)
	return p.flush(b)
}

// Line writes a "match" or "context" line.
func (p *RgJSON) Line(l RgLine) error {
	if err := p.begin(); err != nil {
		return err
	}
	kind := "match"
	if !l.IsMatch() {
		kind = "context"
	} else {
		p.file.MatchedLines += int64(max(l.BlockLines, 1))
		p.file.Matches += int64(len(l.Submatches))
	}
	b := append(p.buf[:0], `{"type":"`...)
	b = append(b, kind...)
	b = append(b, `","data":{"path":`...)
	b = appendData(b, []byte(l.Path))
	b = append(b, `,"lines":`...)
	p.full = append(append(p.full[:0], l.Text...), l.Term...)
	b = appendData(b, p.full)
	b = append(b, `,"line_number":`...)
	if p.NoLineNumber {
		b = append(b, "null"...)
	} else {
		b = strconv.AppendInt(b, int64(l.Number), 10)
	}
	b = append(b, `,"absolute_offset":`...)
	b = strconv.AppendInt(b, l.Offset, 10)
	b = append(b, `,"submatches":[`...)
	for i, s := range l.Submatches {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"match":`...)
		b = appendData(b, l.Text[s.Start:s.End])
		if l.Replaced != nil && len(l.ReplacedSpans) == len(l.Submatches) {
			r := l.ReplacedSpans[i]
			b = append(b, `,"replacement":`...)
			b = appendData(b, l.Replaced[r.Start:r.End])
		}
		b = append(b, `,"start":`...)
		b = strconv.AppendInt(b, int64(s.Start), 10)
		b = append(b, `,"end":`...)
		b = strconv.AppendInt(b, int64(s.End), 10)
		b = append(b, '}')
	}
	b = append(b, "]}}\n"...)
	return p.flush(b)
}

// Tally counts a line for the statistics without printing it (rg --json
// --quiet prints only the summary, counting every match).
func (p *RgJSON) Tally(l RgLine) {
	if l.IsMatch() {
		p.file.MatchedLines += int64(max(l.BlockLines, 1))
		p.file.Matches += int64(len(l.Submatches))
	}
}

// Count adds a file that printed nothing to the summary's matched lines
// and matches (rg --json --quiet counts the lines it selects; its bytes
// and searches the caller's summary counts).
func (p *RgJSON) Count(lines, matches int64) {
	p.total.MatchedLines += lines
	p.total.Matches += matches
	if lines > 0 {
		p.total.SearchesWithMatch++
	}
}

// End closes a file: "end" is written only for a file that printed a
// "begin". bytesSearched is the file's size as searched; binaryOffset is
// the offset of a NUL byte, or -1.
func (p *RgJSON) End(bytesSearched, binaryOffset int64) error {
	p.file.Searches, p.file.BytesSearched = 1, bytesSearched
	if p.file.MatchedLines > 0 {
		p.file.SearchesWithMatch = 1
	}
	p.file.Elapsed = time.Since(p.fileStart)
	if !p.started {
		p.total.add(p.file)
		return nil
	}
	b := append(p.buf[:0], `{"type":"end","data":{"path":`...)
	b = appendData(b, []byte(p.path))
	b = append(b, `,"binary_offset":`...)
	if binaryOffset < 0 {
		b = append(b, "null"...)
	} else {
		b = strconv.AppendInt(b, binaryOffset, 10)
	}
	b = append(b, `,"stats":`...)
	st := p.file
	b = st.appendJSON(b)
	b = append(b, "}}\n"...)
	p.buf = b[:0]
	n, err := p.w.Write(b)
	p.written += int64(n)
	p.total.add(st)
	return err
}

func (s *JSONFileStats) add(o JSONFileStats) {
	s.Elapsed += o.Elapsed
	s.Searches += o.Searches
	s.SearchesWithMatch += o.SearchesWithMatch
	s.BytesSearched += o.BytesSearched
	s.BytesPrinted += o.BytesPrinted
	s.MatchedLines += o.MatchedLines
	s.Matches += o.Matches
}

// appendJSON writes the stats object in rg's field order.
func (s JSONFileStats) appendJSON(b []byte) []byte {
	b = append(b, `{"elapsed":`...)
	b = appendDuration(b, s.Elapsed, false)
	b = append(b, `,"searches":`...)
	b = strconv.AppendInt(b, s.Searches, 10)
	b = append(b, `,"searches_with_match":`...)
	b = strconv.AppendInt(b, s.SearchesWithMatch, 10)
	b = append(b, `,"bytes_searched":`...)
	b = strconv.AppendInt(b, s.BytesSearched, 10)
	b = append(b, `,"bytes_printed":`...)
	b = strconv.AppendInt(b, s.BytesPrinted, 10)
	b = append(b, `,"matched_lines":`...)
	b = strconv.AppendInt(b, s.MatchedLines, 10)
	b = append(b, `,"matches":`...)
	b = strconv.AppendInt(b, s.Matches, 10)
	return append(b, '}')
}

// Summary writes the closing "summary" line; rg writes its keys sorted.
// Searches and bytes searched cover every file searched, including those
// without a match, so the caller passes them.
func (p *RgJSON) Summary(wall time.Duration, searches, bytesSearched int64) error {
	t := p.total
	if searches > t.Searches {
		t.Searches = searches
	}
	if bytesSearched > t.BytesSearched {
		t.BytesSearched = bytesSearched
	}
	b := append(p.buf[:0], `{"data":{"elapsed_total":`...)
	b = appendDuration(b, wall, true)
	b = append(b, `,"stats":{"bytes_printed":`...)
	b = strconv.AppendInt(b, t.BytesPrinted, 10)
	b = append(b, `,"bytes_searched":`...)
	b = strconv.AppendInt(b, t.BytesSearched, 10)
	b = append(b, `,"elapsed":`...)
	b = appendDuration(b, t.Elapsed, true)
	b = append(b, `,"matched_lines":`...)
	b = strconv.AppendInt(b, t.MatchedLines, 10)
	b = append(b, `,"matches":`...)
	b = strconv.AppendInt(b, t.Matches, 10)
	b = append(b, `,"searches":`...)
	b = strconv.AppendInt(b, t.Searches, 10)
	b = append(b, `,"searches_with_match":`...)
	b = strconv.AppendInt(b, t.SearchesWithMatch, 10)
	b = append(b, `}},"type":"summary"}`+"\n"...)
	_, err := p.w.Write(b)
	return err
}

// appendDuration writes rg's {"secs","nanos","human"} (sorted keys in the
// summary).
func appendDuration(b []byte, d time.Duration, sorted bool) []byte {
	secs, nanos := int64(d/time.Second), int64(d%time.Second)
	human := strconv.FormatFloat(d.Seconds(), 'f', 6, 64) + "s"
	if sorted {
		b = append(b, `{"human":"`+human+`","nanos":`...)
		b = strconv.AppendInt(b, nanos, 10)
		b = append(b, `,"secs":`...)
		b = strconv.AppendInt(b, secs, 10)
		return append(b, '}')
	}
	b = append(b, `{"secs":`...)
	b = strconv.AppendInt(b, secs, 10)
	b = append(b, `,"nanos":`...)
	b = strconv.AppendInt(b, nanos, 10)
	b = append(b, `,"human":"`+human+`"}`...)
	return b
}

// appendData writes rg's arbitrary-data object: {"text":"…"} for UTF-8,
// {"bytes":"base64"} otherwise.
func appendData(b, data []byte) []byte {
	if !utf8.Valid(data) {
		b = append(b, `{"bytes":"`...)
		b = base64.StdEncoding.AppendEncode(b, data)
		return append(b, `"}`...)
	}
	b = append(b, `{"text":`...)
	b = appendJSONString(b, data)
	return append(b, '}')
}

// appendJSONString quotes s as serde_json does: only '"', '\\' and
// control characters are escaped (\b \f \n \r \t short, the rest \u00XX).
// The bytes between two escapes are copied as one run: most lines have
// none, and a byte-at-a-time append was an eighth of --json's time.
func appendJSONString(b, s []byte) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for {
		i := 0
		for i < len(s) && s[i] >= 0x20 && s[i] != '"' && s[i] != '\\' {
			i++
		}
		b = append(b, s[:i]...)
		if i == len(s) {
			return append(b, '"')
		}
		c := s[i]
		s = s[i+1:]
		switch c {
		case '"':
			b = append(b, `\"`...)
		case '\\':
			b = append(b, `\\`...)
		case '\b':
			b = append(b, `\b`...)
		case '\f':
			b = append(b, `\f`...)
		case '\n':
			b = append(b, `\n`...)
		case '\r':
			b = append(b, `\r`...)
		case '\t':
			b = append(b, `\t`...)
		default:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
	}
}
