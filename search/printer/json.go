package printer

import (
	"encoding/json"
	"errors"
	"io"
	"unicode/utf8"

	"github.com/rgkit/rgkit/search"
)

// JSON prints one JSON object per line:
//
//	{"type":"match","path":"a.go","line":3,"column":5,"text":"x := foo()","submatches":[{"start":5,"end":8}]}
//	{"type":"context","path":"a.go","line":4,"text":"}"}
//	{"type":"file","path":"a.go"}            (files-with-matches mode)
//	{"type":"count","path":"a.go","count":2} (count mode)
//	{"type":"summary","backend":"ripgrep","matches":1,"files":1,"truncated":false,"partial":false,...}
//
// The summary is written by the caller, after the search, with Summary.
// Columns and submatch offsets are bytes into the raw line. "text" and
// "path" are always strings; when the raw bytes are not valid UTF-8 the
// string is lossy (invalid bytes become U+FFFD) and "bytes" / "path_bytes"
// carry the exact bytes in base64, the way rg --json does, so offsets can
// be applied to them. A line cut by MaxColumns has "cut": the bytes removed.
type JSON struct {
	enc   *json.Encoder
	mode  search.OutputMode
	lines int // matching lines printed
	files int // files printed
	count int // sum of the counts printed
}

// NewJSON returns a JSON Lines printer for results of the given mode.
func NewJSON(w io.Writer, mode search.OutputMode) *JSON {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return &JSON{enc: enc, mode: mode}
}

type jsonSpan struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

type jsonLine struct {
	Type       string     `json:"type"`
	Path       string     `json:"path"`
	PathBytes  []byte     `json:"path_bytes,omitempty"`
	Line       int        `json:"line,omitempty"`
	Column     int        `json:"column,omitempty"`
	Text       *string    `json:"text,omitempty"`
	Bytes      []byte     `json:"bytes,omitempty"`
	Submatches []jsonSpan `json:"submatches,omitempty"`
	Cut        int        `json:"cut,omitempty"`
	Count      *int       `json:"count,omitempty"`
}

// Begin implements search.Sink.
func (p *JSON) Begin(path string) error { return nil }

// Line implements search.Sink.
func (p *JSON) Line(l search.Line) error {
	rec := jsonLine{Type: "context", Line: l.Number, Cut: l.Cut}
	setPath(&rec, l.Path)
	text := string(l.Text)
	rec.Text = &text
	if !utf8.Valid(l.Text) {
		rec.Bytes = l.Text
	}
	if l.Kind == search.KindMatch {
		rec.Type = "match"
		rec.Column = l.Column
		rec.Submatches = make([]jsonSpan, len(l.Submatches))
		for i, s := range l.Submatches {
			rec.Submatches[i] = jsonSpan{s.Start, s.End}
		}
		p.lines++
	}
	return p.enc.Encode(rec)
}

// End implements search.Sink.
func (p *JSON) End(s search.FileSummary) error {
	p.files++
	var rec jsonLine
	switch p.mode {
	case search.ModeFilesWithMatches:
		rec.Type = "file"
	case search.ModeCount:
		rec.Type = "count"
		n := s.MatchedLines
		rec.Count = &n
		p.count += n
	default:
		return nil
	}
	setPath(&rec, s.Path)
	return p.enc.Encode(rec)
}

func setPath(rec *jsonLine, path string) {
	rec.Path = path
	if !utf8.ValidString(path) {
		rec.PathBytes = []byte(path)
	}
}

type jsonSkip struct {
	Backend string `json:"backend"`
	Reason  string `json:"reason"`
}

type jsonStats struct {
	FilesSearched int64 `json:"files_searched"`
	FilesMatched  int64 `json:"files_matched"`
	MatchedLines  int64 `json:"matched_lines"`
	BytesSearched int64 `json:"bytes_searched"`
	Binary        int64 `json:"binary"`
	Unreadable    int64 `json:"unreadable"`
	TooLarge      int64 `json:"too_large"`
	ElapsedMS     int64 `json:"elapsed_ms"`
}

type jsonSummary struct {
	Type        string     `json:"type"`
	Backend     string     `json:"backend"`
	Matches     int        `json:"matches"`
	Files       int        `json:"files"`
	Truncated   bool       `json:"truncated"`
	TruncatedBy string     `json:"truncated_by,omitempty"`
	Partial     bool       `json:"partial"`
	Error       string     `json:"error,omitempty"`
	Skipped     []jsonSkip `json:"skipped,omitempty"`
	Warnings    []string   `json:"warnings,omitempty"`
	Stats       jsonStats  `json:"stats"`
}

// Summary writes the closing {"type":"summary"} object for res. "matches"
// counts what was printed: matching lines in content mode, the sum of the
// counts in count mode, files in files mode. "files" counts files printed.
// "truncated_by" is "limit" or "bytes"; "error" is set when err is not nil.
func (p *JSON) Summary(res search.Result, err error) error {
	s := jsonSummary{
		Type:     "summary",
		Backend:  res.Backend,
		Files:    p.files,
		Partial:  res.Partial,
		Warnings: res.Warnings,
		Stats: jsonStats{
			FilesSearched: res.Stats.FilesSearched,
			FilesMatched:  res.Stats.FilesMatched,
			MatchedLines:  res.Stats.MatchedLines,
			BytesSearched: res.Stats.BytesSearched,
			Binary:        res.Stats.Binary,
			Unreadable:    res.Stats.Unreadable,
			TooLarge:      res.Stats.TooLarge,
			ElapsedMS:     res.Stats.Elapsed.Milliseconds(),
		},
	}
	switch p.mode {
	case search.ModeContent:
		s.Matches = p.lines
	case search.ModeCount:
		s.Matches = p.count
	default:
		s.Matches = p.files
	}
	switch res.Truncated {
	case search.TruncatedLimit:
		s.Truncated, s.TruncatedBy = true, "limit"
	case search.TruncatedBytes:
		s.Truncated, s.TruncatedBy = true, "bytes"
	}
	for _, sk := range res.Skipped {
		s.Skipped = append(s.Skipped, jsonSkip{Backend: sk.Backend, Reason: errString(sk.Reason)})
	}
	if err != nil && !errors.Is(err, search.ErrStop) {
		s.Error = err.Error()
	}
	return p.enc.Encode(s)
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
