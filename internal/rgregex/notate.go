package rgregex

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ParseErrorMessage is rg's message for a pattern its parser refuses:
// "regex parse error:", the pattern with a line of carets under each
// span (byte ranges of pattern), and "error: " msg. A pattern of several
// lines is numbered between two rules of '~', and a span that crosses
// lines is named by its lines and columns instead. Columns count
// characters, as rg's do.
func ParseErrorMessage(pattern string, spans [][2]int, msg string) string {
	type pos struct{ line, col int }
	at := func(off int) pos {
		off = min(max(off, 0), len(pattern))
		before := pattern[:off]
		ls := strings.LastIndexByte(before, '\n') + 1
		return pos{strings.Count(before, "\n") + 1, utf8.RuneCountInString(before[ls:]) + 1}
	}
	type span struct{ start, end pos }
	sorted := slices.Clone(spans)
	slices.SortFunc(sorted, func(a, b [2]int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return a[1] - b[1]
	})
	lines := rustLines(pattern)
	lineCount := len(lines)
	if strings.HasSuffix(pattern, "\n") {
		lineCount++
	}
	width := 0
	if lineCount > 1 {
		width = len(strconv.Itoa(lineCount))
	}
	byLine := make([][]span, lineCount)
	var multi []span
	for _, sp := range sorted {
		s := span{at(sp[0]), at(sp[1])}
		if s.start.line == s.end.line {
			byLine[s.start.line-1] = append(byLine[s.start.line-1], s)
		} else {
			multi = append(multi, s)
		}
	}
	var b strings.Builder
	b.WriteString("regex parse error:\n")
	divider := strings.Repeat("~", 79)
	if width > 0 {
		b.WriteString(divider + "\n")
	}
	for i, line := range lines {
		if width > 0 {
			fmt.Fprintf(&b, "%*d: ", width, i+1)
		} else {
			b.WriteString("    ")
		}
		b.WriteString(line + "\n")
		if len(byLine[i]) == 0 {
			continue
		}
		pad := 4
		if width > 0 {
			pad = 2 + width
		}
		b.WriteString(strings.Repeat(" ", pad))
		col := 0
		for _, s := range byLine[i] {
			for ; col < s.start.col-1; col++ {
				b.WriteByte(' ')
			}
			n := max(1, s.end.col-s.start.col)
			b.WriteString(strings.Repeat("^", n))
			col += n
		}
		b.WriteByte('\n')
	}
	if width > 0 {
		b.WriteString(divider + "\n")
		for _, s := range multi {
			fmt.Fprintf(&b, "on line %d (column %d) through line %d (column %d)\n", s.start.line, s.start.col, s.end.line, s.end.col-1)
		}
	}
	b.WriteString("error: " + msg)
	return b.String()
}

// rustLines splits s as Rust's str::lines: at each '\n', a '\r' before it
// dropped, no empty line after a final '\n'.
func rustLines(s string) []string {
	if s == "" {
		return nil
	}
	ended := strings.HasSuffix(s, "\n")
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		if i < len(lines)-1 || ended { // (a '\r' of its own stays)
			lines[i] = strings.TrimSuffix(l, "\r")
		}
	}
	return lines
}
