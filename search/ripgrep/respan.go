package ripgrep

import (
	"bytes"
	"fmt"
	"regexp/syntax"

	"github.com/rgkit/rgkit/search"
	"github.com/rgkit/rgkit/search/native"
)

// respanner recomputes the spans of one match line rg selected (line with
// its terminator, off its byte offset in the file); it returns nil when it
// has none to offer, and rg's are kept.
type respanner func(line []byte, off int64) []search.Span

// newRespanner decides whether rg's submatch spans can be trusted for q
// (normalised) and, when not, returns the native matcher's:
//   - -w on rg >= 14 (rg gets rg 13's wrapper spelled out; its matches
//     include the non-word characters around the words) and on rg 13 (its
//     -w places some spans a character late, in ways that depend on the
//     translated classes: \S* next to \v);
//   - a pattern holding \b or \B: rg 13 finds each further submatch of a
//     line by searching the rest of the line as if it began the text, so the
//     assertion sees a text start there, and it mis-places repetitions of
//     empty-matching assertion groups.
//
// Lines always come from rg. Multiline records (several lines, matches
// across them) keep rg's spans.
func newRespanner(q search.Query) (respanner, error) {
	if q.Multiline || !(q.Word || hasWordBoundary(q)) {
		return nil, nil
	}
	m, err := native.Compile(native.MatchOptions{
		Pattern: q.Pattern, Fixed: q.Fixed, Word: q.Word, CaseInsensitive: q.Case == search.CaseInsensitive,
	})
	if err != nil {
		return nil, fmt.Errorf("%w: native matcher: %w", search.ErrUnsupported, err)
	}
	if q.Word {
		return func(line []byte, off int64) []search.Span { return wordSpans(m, line, off) }, nil
	}
	return func(line []byte, _ int64) []search.Span { return lineSpans(m, line) }, nil
}

// hasWordBoundary reports whether q's pattern holds \b or \B.
func hasWordBoundary(q search.Query) bool {
	if q.Fixed {
		return false
	}
	re, err := syntax.Parse(q.Pattern, syntax.Perl)
	if err != nil {
		return false
	}
	var walk func(*syntax.Regexp) bool
	walk = func(re *syntax.Regexp) bool {
		if re.Op == syntax.OpWordBoundary || re.Op == syntax.OpNoWordBoundary {
			return true
		}
		for _, s := range re.Sub {
			if walk(s) {
				return true
			}
		}
		return false
	}
	return walk(re)
}

// lineSpans returns the native matcher's spans for one line,
// searched on its own: the line is the whole text, as in a line-by-line
// search.
func lineSpans(m *native.Matcher, line []byte) []search.Span {
	text := bytes.TrimSuffix(line, []byte("\n"))
	var spans []search.Span
	if _, err := m.Search(text, native.SearchOptions{}, func(l native.Line) error {
		if l.Number == 1 {
			for _, s := range l.Submatches {
				spans = append(spans, search.Span{Start: s[0], End: s[1]})
			}
		}
		return nil
	}); err != nil {
		return nil
	}
	return spans
}

// wordSpans returns the native matcher's spans for one line
// (with its terminator) at byte offset off of its file: rg 13's -w spans,
// which depend on whether rg's read buffer began at the line (ripgrep#2574).
// rg's first read is its BOM sniffer's 3 bytes, so in a file under 64 KiB a
// buffer begins at offset 0 and at the last line starting within those 3
// bytes, and at an unterminated last line; larger files have more buffer
// starts, which are not known here, so their spans can differ from the
// native engine's by a character (the lines are right).
func wordSpans(m *native.Matcher, line []byte, off int64) []search.Span {
	text := bytes.TrimSuffix(line, []byte("\n"))
	// An unterminated line (the file's last) always starts a buffer: rg
	// rolls the line it could not finish to the front before its last fill.
	atBufferStart := off == 0 || (off <= 3 && off+int64(len(line)) > 3) || len(text) == len(line)
	var spans []search.Span
	for _, s := range m.WordSpans(text, atBufferStart) {
		spans = append(spans, search.Span{Start: s[0], End: s[1]})
	}
	return spans
}

// fitSpans places respanned spans on an emitted line as the native engine
// does: within its text (a span may cover the '\r' of a "\r\n" end, which
// the text leaves out), and without an empty match at the very end of the
// data (the end of an unterminated last line), which rg drops.
func fitSpans(spans []search.Span, textLen int, endOfData bool) []search.Span {
	out := make([]search.Span, len(spans))
	for i, s := range spans {
		out[i] = search.Span{Start: min(s.Start, textLen), End: min(s.End, textLen)}
	}
	if k := len(out) - 1; k >= 0 && endOfData && out[k].Start == textLen && out[k].End == textLen {
		out = out[:k]
	}
	return out
}
