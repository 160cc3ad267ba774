package tools

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rgkit/rgkit/search"
)

// noteReserve keeps room under the output cap for the notes around the
// entries (partial, truncation, totals).
const noteReserve = 600

// renderGrep is the text a model sees. Entries are added whole until the
// output cap would be passed; the result is then cut to the entries shown,
// so the structured result holds exactly what the text shows.
func (w *Workspace) renderGrep(in GrepInput, q search.Query, r *GrepResult) string {
	var b strings.Builder
	if r.Partial {
		fmt.Fprintf(&b, "[Partial results: %s. Files not yet searched may also match; narrow the search with path, glob or type.]\n", r.PartialReason)
	}
	if r.entries() == 0 {
		b.WriteString(w.noMatches(in, r))
		return b.String()
	}
	lineNumbers := in.LineNumbers == nil || *in.LineNumbers
	separators := q.Before > 0 || q.After > 0
	budget := w.limits.MaxOutputChars - noteReserve - b.Len()
	var body strings.Builder
	shown := 0
	prevFile, prevLine := "", 0
	for i := range r.entries() {
		var e string
		switch r.Mode {
		case GrepContent:
			if shown == 0 {
				r.fitContext(&r.Matches[i], budget, lineNumbers)
			}
			m := r.Matches[i]
			first := m.Line
			if len(m.Before) > 0 {
				first = m.Before[0].Line
			}
			if separators && shown > 0 && (m.File != prevFile || first > prevLine+1) {
				e = "--\n"
			}
			e += renderMatch(m, lineNumbers)
			prevFile, prevLine = m.File, m.Line
			if n := len(m.After); n > 0 {
				prevLine = m.After[n-1].Line
			}
		case GrepCount:
			e = r.Counts[i].File + ":" + strconv.Itoa(r.Counts[i].Count) + "\n"
		default:
			e = r.Files[i] + "\n"
		}
		if body.Len()+len(e) > budget && shown > 0 {
			r.keep(shown)
			r.cut(CapOutput, shown)
			break
		}
		body.WriteString(e)
		shown++
	}
	b.WriteString(body.String())
	b.WriteString(w.grepNotes(r))
	return b.String()
}

// fitContext trims the context lines of a match that alone would pass the
// output budget (say -C 200 in a file of long lines), dropping from the
// side with more lines, so that at least the match itself is shown.
func (r *GrepResult) fitContext(m *GrepMatch, budget int, lineNumbers bool) {
	size := func(c ContextLine) int {
		return len(renderMatch(GrepMatch{File: m.File, Line: c.Line, Text: c.Text, Cut: c.Cut}, lineNumbers))
	}
	total := len(renderMatch(*m, lineNumbers))
	if total <= budget {
		return
	}
	for total > budget && len(m.Before)+len(m.After) > 0 {
		if len(m.Before) >= len(m.After) {
			total -= size(m.Before[0])
			m.Before = m.Before[1:]
		} else {
			total -= size(m.After[len(m.After)-1])
			m.After = m.After[:len(m.After)-1]
		}
	}
	r.Warnings = append(r.Warnings, fmt.Sprintf("context around %s:%d was trimmed to fit the output cap; ask for fewer -A/-B/-C lines", m.File, m.Line))
}

// renderMatch renders a match and its context like rg: "path:N:text" for
// the match, "path-N-text" for context.
func renderMatch(m GrepMatch, lineNumbers bool) string {
	var b strings.Builder
	line := func(n int, text string, cut int, sep byte) {
		b.WriteString(m.File)
		b.WriteByte(sep)
		if lineNumbers {
			b.WriteString(strconv.Itoa(n))
			b.WriteByte(sep)
		}
		b.WriteString(text)
		if cut > 0 {
			b.WriteString(search.CutMarker(cut))
		}
		b.WriteByte('\n')
	}
	for _, c := range m.Before {
		line(c.Line, c.Text, c.Cut, '-')
	}
	line(m.Line, m.Text, m.Cut, ':')
	for _, c := range m.After {
		line(c.Line, c.Text, c.Cut, '-')
	}
	return b.String()
}

// grepNotes says what was left out and how to get it.
func (w *Workspace) grepNotes(r *GrepResult) string {
	var b strings.Builder
	unit, total := "files", r.TotalFiles
	if r.Mode == GrepContent {
		unit, total = "matching lines", r.TotalMatches
	}
	n := r.entries()
	span := fmt.Sprintf("%s %d-%d", unit, r.Offset+1, r.Offset+n)
	if total > 0 && !r.Partial && r.TruncatedBy != CapMemory {
		span += fmt.Sprintf(" of %d", total)
	}
	switch r.TruncatedBy {
	case CapHeadLimit:
		fmt.Fprintf(&b, "[Showing %s (head_limit). Use offset=%d for the next page, or narrow the search with path, glob or type.]\n", span, r.NextOffset)
	case CapOutput:
		fmt.Fprintf(&b, "[Output cut at %d characters: showing %s. Use offset=%d for the next page, or narrow the search with path, glob or type.]\n",
			w.limits.MaxOutputChars, span, r.NextOffset)
	case CapMemory:
		fmt.Fprintf(&b, "[Showing %s: the search found more than fits in memory and stopped collecting. Narrow the search with path, glob or type.]\n", span)
	}
	if r.Mode == GrepCount && !r.Truncated {
		fmt.Fprintf(&b, "[%s in %s]\n", plural(r.TotalMatches, "matching line", "matching lines"), plural(r.TotalFiles, "file", "files"))
	}
	if cut := r.cutLines(); cut > 0 {
		fmt.Fprintf(&b, "[%d line(s) longer than %d bytes were cut; use %s with offset near the line number to see them.]\n",
			cut, w.limits.MaxColumns, w.names.Read)
	}
	for _, warn := range r.Warnings {
		if !strings.Contains(r.PartialReason, warn) {
			fmt.Fprintf(&b, "[Warning: %s]\n", warn)
		}
	}
	return b.String()
}

func (r *GrepResult) cutLines() int {
	n := 0
	for _, m := range r.Matches {
		if m.Cut > 0 {
			n++
		}
		for _, c := range m.Before {
			if c.Cut > 0 {
				n++
			}
		}
		for _, c := range m.After {
			if c.Cut > 0 {
				n++
			}
		}
	}
	return n
}

// noMatches says plainly that the search ran and found nothing, and where
// it looked, so it cannot be mistaken for a failure (or a failure for it).
func (w *Workspace) noMatches(in GrepInput, r *GrepResult) string {
	var scope []string
	if in.Path != "" {
		scope = append(scope, fmt.Sprintf("path %q", in.Path))
	}
	if in.Glob != "" {
		scope = append(scope, fmt.Sprintf("glob %q", in.Glob))
	}
	if in.Type != "" {
		scope = append(scope, fmt.Sprintf("type %q", in.Type))
	}
	where := ""
	if len(scope) > 0 {
		where = " in " + strings.Join(scope, ", ")
	}
	if in.Offset > 0 && (r.TotalFiles > 0 || r.TotalMatches > 0) {
		return fmt.Sprintf("No more matches for pattern %q%s after offset %d.\n", in.Pattern, where, in.Offset)
	}
	if r.Partial {
		return fmt.Sprintf("No matches found for pattern %q%s before the search stopped; this is not a complete answer.\n", in.Pattern, where)
	}
	return fmt.Sprintf("No matches found for pattern %q%s (%s were not searched).\n", in.Pattern, where, strings.ToLower(w.skipped(true)[:1])+w.skipped(true)[1:])
}
