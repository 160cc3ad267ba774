package ripgrep

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"slices"

	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/search"
)

// rgRecord is one line of rg --json output (rg's grep-printer JSON format:
// begin, match, context, end, summary), as rgDecoder fills it. Only the
// fields rgkit uses are decoded; unknown types and fields are ignored.
type rgRecord struct {
	Type rgType
	Data struct {
		Path       rgData
		Lines      rgData
		LineNumber int
		// AbsoluteOffset is the byte offset of the line in the file.
		AbsoluteOffset int64
		// Submatches are the first rgCaps.subs submatches; MoreSubmatches
		// counts the rest.
		Submatches      []rgSubmatch
		MoreSubmatches  int
		BinaryOffset    int64
		HasBinaryOffset bool
		Stats           rgStats
	}
}

// rgType is a record's "type".
type rgType int

const (
	typeOther rgType = iota
	typeBegin
	typeMatch
	typeContext
	typeEnd
	typeSummary
)

// reset clears rec for the next record, keeping its buffers.
func (rec *rgRecord) reset() {
	d := &rec.Data
	path, lines, subs := d.Path, d.Lines, d.Submatches[:0]
	path.Text.reset()
	path.Bytes.reset()
	lines.Text.reset()
	lines.Bytes.reset()
	*rec = rgRecord{}
	d.Path, d.Lines, d.Submatches = path, lines, subs
}

// rgData is rg's arbitrary-data object: {"text": "..."} when the bytes are
// valid UTF-8, else {"bytes": "<base64>"}.
type rgData struct {
	Text  rgStr
	Bytes rgStr
	dec   []byte // Bytes decoded (reused)
}

// rgText is the bytes rg meant, as far as they were kept: kept is a prefix
// of them, total their length, and tail their last (up to) two bytes.
type rgText struct {
	kept  []byte
	total int
	tail  [2]byte
}

// raw returns the bytes rg meant, decoding base64 when needed. The result
// aliases d's buffers.
func (d *rgData) raw() (rgText, error) {
	switch {
	case d.Text.set:
		s := &d.Text
		return rgText{kept: s.b, total: int(s.n), tail: [2]byte{s.tail[2], s.tail[3]}}, nil
	case d.Bytes.set:
		s := &d.Bytes
		if s.n%4 != 0 {
			return rgText{}, fmt.Errorf("%w: base64 of a length that is not a multiple of 4", errRgJSON)
		}
		full := s.n == int64(len(s.b))
		enc := s.b
		if !full {
			enc = enc[:len(enc)/4*4]
		}
		var err error
		d.dec, err = decode64(d.dec, enc)
		if err != nil {
			return rgText{}, err
		}
		t := rgText{kept: d.dec, total: len(d.dec)}
		if full {
			if n := len(d.dec); n >= 2 {
				t.tail = [2]byte{d.dec[n-2], d.dec[n-1]}
			} else if n == 1 {
				t.tail[1] = d.dec[0]
			}
			return t, nil
		}
		pad := 0
		for _, c := range s.tail[2:] {
			if c == '=' {
				pad++
			}
		}
		t.total = int(s.n/4*3) - pad
		last, err := decode64(nil, s.tail[:])
		if err != nil {
			return rgText{}, err
		}
		for _, c := range last {
			t.tail = [2]byte{t.tail[1], c}
		}
		return t, nil
	}
	return rgText{}, nil
}

func decode64(dst, src []byte) ([]byte, error) {
	dst = slices.Grow(dst[:0], base64.StdEncoding.DecodedLen(len(src)))[:base64.StdEncoding.DecodedLen(len(src))]
	n, err := base64.StdEncoding.Decode(dst, src)
	if err != nil {
		return nil, fmt.Errorf("%w: invalid base64 in \"bytes\": %v", errRgJSON, err)
	}
	return dst[:n], nil
}

type rgSubmatch struct {
	Start int
	End   int
}

type rgStats struct {
	Searches          int64
	SearchesWithMatch int64
	BytesSearched     int64
	MatchedLines      int64
	Matches           int64
}

// rgSplitter turns records into Lines, keeping the buffer their
// Submatches are built in: a slice per line was most of the engine's
// allocations.
type rgSplitter struct {
	spans []search.Span
}

// split turns the lines of one match or context record into one Line
// per physical line, as the native engine reports them: text without its
// "\n" (and without the '\r' of a "\r\n"), each submatch clipped to the
// line it touches, invalid submatch offsets dropped. first is the record's
// line number; more counts submatches the decoder did not store (they
// follow the stored ones, and go to the line of the last stored one).
//
// When the text was not kept whole (a column cap, maxCols, applies: see
// rgCapsFor) the record is one line, which is cut as search.CutLine cuts
// it, with Cut counting every byte not shown. Line texts alias data: the
// sink copies what it keeps, and so do their Submatches, which are s's
// buffer. It returns the number of submatches dropped.
func (s *rgSplitter) split(path string, first int, data rgText, subs []rgSubmatch, more, maxCols int, kind search.LineKind, emit func(search.Line) error) (dropped int, err error) {
	// subs is the decoder's buffer, rewritten for each record: the valid
	// ones are compacted in place.
	valid := subs[:0]
	for _, m := range subs {
		if m.Start < 0 || m.End < m.Start || m.End > data.total {
			dropped++
			continue
		}
		valid = append(valid, m)
	}
	if !slices.IsSortedFunc(valid, func(a, b rgSubmatch) int { return a.Start - b.Start }) {
		slices.SortStableFunc(valid, func(a, b rgSubmatch) int { return a.Start - b.Start })
	}
	if len(data.kept) < data.total {
		return dropped, emit(cutRgLine(path, first, data, valid, more, maxCols, kind))
	}
	text := data.kept
	moreAt := 0 // the line start that gets the uncounted submatches
	if len(valid) > 0 {
		moreAt = valid[len(valid)-1].Start
	}
	n := first
	for ls := 0; ls < len(text) || ls == 0; n++ {
		le := bytes.IndexByte(text[ls:], '\n')
		terminated := le >= 0
		if terminated {
			le += ls
		} else {
			le = len(text)
		}
		line := text[ls:le]
		if terminated && len(line) > 0 && line[len(line)-1] == '\r' {
			line = line[:len(line)-1]
		}
		l := search.Line{Path: path, Number: n, Text: line, Kind: kind}
		if kind == search.KindMatch {
			spans := s.spans[:0]
			for _, m := range valid {
				a, b := max(m.Start, ls), min(m.End, le)
				if a < b || (m.Start >= ls && m.Start <= le) {
					if len(spans) == 0 && m.Start < ls {
						l.Continued = true // (the match began on an earlier line)
					}
					spans = append(spans, search.Span{
						Start: min(a-ls, len(line)),
						End:   min(max(a, b)-ls, len(line)),
					})
				}
			}
			if s.spans = spans; len(spans) > 0 {
				l.Submatches = spans
				l.Column = spans[0].Start + 1
			}
			if moreAt >= ls && (moreAt <= le || !terminated) {
				l.MoreSubmatches, more = more, 0
			}
		}
		if err := emit(l); err != nil {
			return dropped, err
		}
		if !terminated {
			break
		}
		ls = le + 1
		if ls == len(text) {
			break
		}
	}
	return dropped, nil
}

// cutRgLine is split for a one-line record whose text was kept only
// up to the column cap.
func cutRgLine(path string, number int, data rgText, subs []rgSubmatch, more, maxCols int, kind search.LineKind) search.Line {
	content := data.total
	if data.tail[1] == '\n' {
		content--
		if data.tail[0] == '\r' {
			content--
		}
	}
	text := data.kept[:min(len(data.kept), content)]
	l := search.Line{Path: path, Number: number, Text: text, Kind: kind}
	if kind == search.KindMatch {
		for _, s := range subs {
			if s.Start >= len(text) {
				more++
				continue
			}
			l.Submatches = append(l.Submatches, search.Span{Start: s.Start, End: min(s.End, len(text))})
		}
		if len(subs) > 0 {
			// The first match's column, even when it starts past the cut.
			l.Column = subs[0].Start + 1
		}
		l.MoreSubmatches = more
	}
	l = search.CutLine(l, maxCols)
	l.Cut += content - len(text)
	return l
}

// rgCapsFor is what the decoder keeps of each record for q: the whole
// line, unless a column cap applies to a one-line record (then one byte
// more than the cap, so search.CutLine finds the same UTF-8 boundary), and
// as many submatches as the native engine stores.
func rgCapsFor(q search.Query) rgCaps {
	c := rgCaps{text: -1, subs: native.MaxSubmatches}
	if q.MaxColumns > 0 && !q.Multiline {
		c.text = q.MaxColumns + 1
	}
	return c
}
