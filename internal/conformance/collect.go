package conformance

import (
	"fmt"
	"hash/fnv"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/rgkit/rgkit/search"
)

// Collector is a Sink that records everything an engine emits, keyed by
// path, so files may arrive in any order (even interleaved from several
// goroutines). It also records breaches of the engine contract in
// search/sink.go: a line outside Begin/End, lines out of order, a column
// that is not the first submatch, lines in a non-content mode.
type Collector struct {
	Mode search.OutputMode
	// DropSpans leaves columns and submatches out of Render, keeping which
	// lines matched and their text.
	DropSpans bool

	mu         sync.Mutex
	files      map[string]*fileRecord
	violations []string
}

type fileRecord struct {
	begun, ended bool
	lines        []search.Line
	matched      int
}

func (c *Collector) violate(format string, args ...any) {
	c.violations = append(c.violations, fmt.Sprintf(format, args...))
}

// Begin implements search.Sink.
func (c *Collector) Begin(path string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.files == nil {
		c.files = map[string]*fileRecord{}
	}
	if f, ok := c.files[path]; ok && f.begun {
		c.violate("%q: Begin twice", path)
	}
	c.files[path] = &fileRecord{begun: true}
	return nil
}

// Line implements search.Sink.
func (c *Collector) Line(l search.Line) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	f := c.files[l.Path]
	switch {
	case f == nil || !f.begun:
		c.violate("%q:%d: Line before Begin", l.Path, l.Number)
		if c.files == nil {
			c.files = map[string]*fileRecord{}
		}
		f = &fileRecord{begun: true}
		c.files[l.Path] = f
	case f.ended:
		c.violate("%q:%d: Line after End", l.Path, l.Number)
	}
	if c.Mode != search.ModeContent {
		c.violate("%q:%d: Line in a non-content mode", l.Path, l.Number)
	}
	if n := len(f.lines); n > 0 && f.lines[n-1].Number >= l.Number {
		c.violate("%q:%d: line after line %d", l.Path, l.Number, f.lines[n-1].Number)
	}
	if l.Kind == search.KindMatch && len(l.Submatches) > 0 && l.Column != l.Submatches[0].Start+1 {
		c.violate("%q:%d: column %d, first submatch starts at byte %d", l.Path, l.Number, l.Column, l.Submatches[0].Start)
	}
	for _, s := range l.Submatches {
		if s.Start < 0 || s.End < s.Start || s.End > len(l.Text) {
			c.violate("%q:%d: submatch %v outside a %d-byte line", l.Path, l.Number, s, len(l.Text))
		}
	}
	l.Text = append([]byte(nil), l.Text...)
	l.Submatches = append([]search.Span(nil), l.Submatches...)
	f.lines = append(f.lines, l)
	return nil
}

// End implements search.Sink.
func (c *Collector) End(s search.FileSummary) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	f := c.files[s.Path]
	if f == nil || !f.begun {
		c.violate("%q: End before Begin", s.Path)
		if c.files == nil {
			c.files = map[string]*fileRecord{}
		}
		f = &fileRecord{begun: true}
		c.files[s.Path] = f
	}
	if f.ended {
		c.violate("%q: End twice", s.Path)
	}
	f.ended = true
	f.matched = s.MatchedLines
	return nil
}

// Violations returns the contract breaches seen, in order.
func (c *Collector) Violations() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.violations...)
}

// Render returns the normalised output: one self-contained text line per
// file summary and per output line, sorted by path then line number, so two
// engines agree exactly when their renderings are equal. Long texts are
// shown by length and hash.
func (c *Collector) Render() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	paths := make([]string, 0, len(c.files))
	for p := range c.files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var out []string
	for _, p := range paths {
		f := c.files[p]
		qp := strconv.Quote(p)
		end := "no End"
		switch {
		case f.ended && c.Mode == search.ModeFilesWithMatches:
			// The count is not part of the files-mode contract: an
			// engine may stop reading at the first match.
			end = "end"
		case f.ended:
			end = "matched=" + strconv.Itoa(f.matched)
		}
		out = append(out, qp+" "+end)
		for _, l := range f.lines {
			if c.DropSpans {
				l.Column, l.Submatches = 0, nil
			}
			out = append(out, qp+" "+renderLine(l))
		}
	}
	return out
}

// Files returns the paths that received a Begin, sorted.
func (c *Collector) Files() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := []string{}
	for p := range c.files {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// MatchLines returns the KindMatch line numbers of one file.
func (c *Collector) MatchLines(path string) []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := []int{}
	if f := c.files[path]; f != nil {
		for _, l := range f.lines {
			if l.Kind == search.KindMatch {
				out = append(out, l.Number)
			}
		}
	}
	return out
}

func renderLine(l search.Line) string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(l.Number))
	if l.Kind == search.KindMatch {
		fmt.Fprintf(&b, " match col=%d", l.Column)
	} else {
		b.WriteString(" ctx")
	}
	b.WriteByte(' ')
	b.WriteString(renderText(l.Text))
	if len(l.Submatches) > 0 {
		b.WriteString(" [")
		for i, s := range l.Submatches {
			if i > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "%d-%d", s.Start, s.End)
		}
		b.WriteByte(']')
	}
	if l.Cut > 0 {
		fmt.Fprintf(&b, " cut=%d", l.Cut)
	}
	return b.String()
}

func renderText(t []byte) string {
	if len(t) <= 120 {
		return strconv.Quote(string(t))
	}
	h := fnv.New64a()
	h.Write(t)
	return fmt.Sprintf("%s...(%d bytes, fnv %016x)", strconv.Quote(string(t[:40])), len(t), h.Sum64())
}

// Diff compares two renderings as multisets of lines and returns the lines
// only in want ("- ") and only in got ("+ "), sorted: the exact difference
// between two engines, independent of anything they agree on.
func Diff(want, got []string) []string {
	count := map[string]int{}
	for _, l := range want {
		count[l]++
	}
	for _, l := range got {
		count[l]--
	}
	var out []string
	for l, n := range count {
		for ; n > 0; n-- {
			out = append(out, "- "+l)
		}
		for ; n < 0; n++ {
			out = append(out, "+ "+l)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i][2:] != out[j][2:] {
			return out[i][2:] < out[j][2:]
		}
		return out[i] < out[j]
	})
	return out
}

// counts returns each file's MatchedLines as collected.
func (c *Collector) counts() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]int, len(c.files))
	for p, f := range c.files {
		out[p] = f.matched
	}
	return out
}
