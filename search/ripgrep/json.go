package ripgrep

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/rgkit/rgkit/search"
)

// rgRecord is one line of rg --json output (rg's grep-printer JSON format:
// begin, match, context, end, summary). Only the fields rgkit uses are
// decoded; unknown types and fields are ignored.
type rgRecord struct {
	Type string `json:"type"`
	Data struct {
		Path       rgData `json:"path"`
		Lines      rgData `json:"lines"`
		LineNumber int    `json:"line_number"`
		// AbsoluteOffset is the byte offset of the line in the file.
		AbsoluteOffset int64        `json:"absolute_offset"`
		Submatches     []rgSubmatch `json:"submatches"`
		BinaryOffset   *int64       `json:"binary_offset"`
		Stats          rgStats      `json:"stats"`
	} `json:"data"`
}

// rgData is rg's arbitrary-data object: {"text": "..."} when the bytes are
// valid UTF-8, else {"bytes": "<base64>"}.
type rgData struct {
	Text  *string `json:"text"`
	Bytes *string `json:"bytes"`
}

// raw returns the bytes rg meant, decoding base64 when needed.
func (d rgData) raw() ([]byte, error) {
	switch {
	case d.Text != nil:
		return []byte(*d.Text), nil
	case d.Bytes != nil:
		b, err := base64.StdEncoding.DecodeString(*d.Bytes)
		if err != nil {
			return nil, fmt.Errorf("rg json: bad base64: %w", err)
		}
		return b, nil
	}
	return nil, nil
}

type rgSubmatch struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

type rgStats struct {
	Searches          int64 `json:"searches"`
	SearchesWithMatch int64 `json:"searches_with_match"`
	BytesSearched     int64 `json:"bytes_searched"`
	MatchedLines      int64 `json:"matched_lines"`
	Matches           int64 `json:"matches"`
}

// errRgJSON marks output that is not rg's JSON format.
var errRgJSON = errors.New("rg json: malformed record")

// decodeRgJSON reads rg --json records from r, one per line, and passes each
// to fn. A record may be any length (a whole minified file on one line): the
// reader grows as needed, bounded only by the runner's stdout cap. A line
// that is not a JSON object is an error; fn's error ends decoding and is
// returned.
func decodeRgJSON(r io.Reader, fn func(*rgRecord) error) error {
	br := bufio.NewReaderSize(r, 256<<10)
	var line []byte
	var v rgRecord
	for {
		chunk, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			line = append(line, chunk...)
			continue
		}
		if len(line) > 0 {
			line = append(line, chunk...)
			chunk = line
		}
		if rec := bytes.TrimSpace(chunk); len(rec) > 0 {
			if jerr := parseRgRecord(rec, &v); jerr != nil {
				return fmt.Errorf("%w: %v", errRgJSON, jerr)
			}
			if ferr := fn(&v); ferr != nil {
				return ferr
			}
		}
		line = line[:0]
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// splitRgLines turns the lines of one match or context record into one Line
// per physical line, as the native engine reports them: text without its
// "\n" (and without the '\r' of a "\r\n"), each submatch clipped to the
// line it touches, invalid submatch offsets dropped. first is the record's
// line number. It returns the number of submatches dropped.
func splitRgLines(path string, first int, data []byte, subs []rgSubmatch, kind search.LineKind, emit func(search.Line) error) (dropped int, err error) {
	valid := subs[:0:0]
	for _, s := range subs {
		if s.Start < 0 || s.End < s.Start || s.End > len(data) {
			dropped++
			continue
		}
		valid = append(valid, s)
	}
	slices.SortStableFunc(valid, func(a, b rgSubmatch) int { return a.Start - b.Start })
	n := first
	for ls := 0; ls < len(data) || ls == 0; n++ {
		le := bytes.IndexByte(data[ls:], '\n')
		terminated := le >= 0
		if terminated {
			le += ls
		} else {
			le = len(data)
		}
		text := data[ls:le]
		if terminated && len(text) > 0 && text[len(text)-1] == '\r' {
			text = text[:len(text)-1]
		}
		l := search.Line{Path: path, Number: n, Text: bytes.Clone(text), Kind: kind}
		if kind == search.KindMatch {
			for _, s := range valid {
				a, b := max(s.Start, ls), min(s.End, le)
				if a < b || (s.Start >= ls && s.Start <= le) {
					l.Submatches = append(l.Submatches, search.Span{
						Start: min(a-ls, len(text)),
						End:   min(max(a, b)-ls, len(text)),
					})
				}
			}
			if len(l.Submatches) > 0 {
				l.Column = l.Submatches[0].Start + 1
			}
		}
		if err := emit(l); err != nil {
			return dropped, err
		}
		if !terminated {
			break
		}
		ls = le + 1
		if ls == len(data) {
			break
		}
	}
	return dropped, nil
}
