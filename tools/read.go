package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rgkit/rgkit/search"
)

// ReadInput are Read's arguments.
type ReadInput struct {
	// FilePath is the file to read, absolute or relative to the root.
	FilePath string `json:"file_path"`
	// Offset is the first line to show, 1-based; 0 means 1.
	Offset int `json:"offset,omitempty"`
	// Limit is how many lines to show; 0 means Limits.ReadLines.
	Limit int `json:"limit,omitempty"`
}

// ReadResult is Read's structured result.
type ReadResult struct {
	// FilePath is the file read, relative to the root.
	FilePath string `json:"file_path"`
	// Content is the lines shown, joined by "\n", without line numbers.
	Content string `json:"content"`
	// StartLine is the number of the first line shown (1-based).
	StartLine int `json:"start_line"`
	// NumLines is how many lines are shown.
	NumLines int `json:"num_lines"`
	// TotalLines is how many lines the file has.
	TotalLines int `json:"total_lines"`
	// CutLines is how many shown lines were cut at Limits.ReadLineChars.
	CutLines int `json:"cut_lines"`
	// Truncated says lines after the shown ones exist; NextOffset reads on.
	Truncated  bool `json:"truncated"`
	NextOffset int  `json:"next_offset,omitempty"`
}

// binarySniff is how much of a file is checked for a NUL byte before any
// line is read; NULs later in the shown lines are caught as they are read.
const binarySniff = 8 << 10

// readNoteReserve keeps room under the output cap for the closing note.
const readNoteReserve = 400

func (w *Workspace) readTool() Tool {
	return makeTool(KindRead, w.names.Read, w.describe(readDescription), "read", w.Read)
}

// Read shows lines of one file as "N\tcontent", opened beneath the held
// root directory so that no symlink swapped in mid-call, and no
// replacement of the root itself, can lead outside it.
func (w *Workspace) Read(ctx context.Context, in ReadInput) (Output, error) {
	name := w.names.Read
	fail := func(err error) (Output, error) {
		return Output{Summary: fmt.Sprintf("%s %s (error)", name, in.FilePath)}, err
	}
	if in.FilePath == "" {
		return fail(&ArgumentError{Tool: name, Param: "file_path", Msg: "is required"})
	}
	if err := nonNegative(name, map[string]int{"offset": in.Offset, "limit": in.Limit}); err != nil {
		return fail(err)
	}
	tgt, err := w.sandbox.Resolve(in.FilePath)
	if err != nil {
		return fail(w.pathHint(err))
	}
	if tgt.Info.IsDir() {
		return fail(fmt.Errorf("%q is a directory, not a file; use %s with path %q to list its files",
			in.FilePath, w.names.Glob, tgt.Rel))
	}
	res, numbered, err := w.readFile(ctx, tgt, in)
	if err != nil {
		return fail(err)
	}
	return Output{Text: w.renderRead(res, numbered), Structured: res, Summary: readSummary(name, res)}, nil
}

// readFile opens the target beneath the root held open since the start and
// collects the asked lines, both plain (the result's Content) and numbered
// (the text for the model).
func (w *Workspace) readFile(ctx context.Context, tgt Target, in ReadInput) (*ReadResult, string, error) {
	f, err := w.sandbox.OpenFile(tgt.Rel, readOpenFlags)
	if err != nil {
		return nil, "", fmt.Errorf("cannot open %q: %w", in.FilePath, err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil {
		return nil, "", err
	} else if !fi.Mode().IsRegular() {
		return nil, "", &PathError{Path: in.FilePath, Kind: PathNotRegular, Mode: fi.Mode(), Root: w.sandbox.Root()}
	}

	start := max(in.Offset, 1)
	limit := in.Limit
	if limit == 0 {
		limit = w.limits.ReadLines
	}
	maxChars := w.limits.ReadLineChars
	lr := newLineReader(f, maxChars*utf8.UTFMax)
	if head, _ := lr.r.Peek(binarySniff); len(head) > 0 {
		if i := strings.IndexByte(string(head), 0); i >= 0 {
			return nil, "", binaryError(in.FilePath, i)
		}
	}

	res := &ReadResult{FilePath: tgt.Rel, StartLine: start}
	budget := w.limits.MaxOutputChars - readNoteReserve
	var content, numbered strings.Builder
	used, offsetBytes := 0, int64(0)
	n := 0 // lines read so far
	for {
		if n%1024 == 0 && ctx.Err() != nil {
			return nil, "", ctx.Err()
		}
		hold := n+1 >= start
		l, err := lr.next(hold)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, "", fmt.Errorf("reading %q: %w", in.FilePath, err)
		}
		if l.nulAt >= 0 {
			return nil, "", binaryError(in.FilePath, int(offsetBytes)+l.nulAt)
		}
		offsetBytes += int64(l.size) + 1
		n++
		if !hold {
			continue
		}
		text, cut := cutChars(l.text, maxChars, l.size)
		line := formatReadLine(n, text, cut)
		if used+len(line) > budget && res.NumLines > 0 {
			res.Truncated = true
			n-- // this line is not shown; count it with the rest
			break
		}
		used += len(line)
		numbered.WriteString(line)
		if res.NumLines > 0 {
			content.WriteByte('\n')
		}
		content.WriteString(text)
		if cut > 0 {
			res.CutLines++
		}
		res.NumLines++
		if res.NumLines == limit {
			break
		}
	}
	rest, err := lr.countRest(ctx)
	if err != nil {
		return nil, "", err
	}
	if res.Truncated {
		rest++
	}
	res.TotalLines = n + rest
	res.Content = content.String()
	if res.TotalLines > 0 && start > res.TotalLines {
		return nil, "", fmt.Errorf("offset %d is past the end of %q, which has %d lines; use an offset from 1 to %d",
			start, in.FilePath, res.TotalLines, res.TotalLines)
	}
	if last := start + res.NumLines - 1; last < res.TotalLines {
		res.Truncated = true
		res.NextOffset = last + 1
	}
	return res, numbered.String(), nil
}

func binaryError(path string, at int) error {
	return fmt.Errorf("%q is a binary file (NUL byte at byte %d); %s", path, at+1,
		"Read shows text files only")
}

// cutChars keeps the first max characters of a line whose full length is
// size bytes, and says how many bytes were left out.
func cutChars(text []byte, max, size int) (string, int) {
	chars, i := 0, 0
	for i < len(text) && chars < max {
		_, w := utf8.DecodeRune(text[i:])
		i += w
		chars++
	}
	return string(text[:i]), size - i
}

func formatReadLine(n int, text string, cut int) string {
	s := strconv.Itoa(n) + "\t" + text
	if cut > 0 {
		s += search.CutMarker(cut)
	}
	return s + "\n"
}

// renderRead is the text a model sees: the numbered lines, then a note
// when anything was left out.
func (w *Workspace) renderRead(r *ReadResult, numbered string) string {
	if r.TotalLines == 0 {
		return fmt.Sprintf("[%s is empty: 0 lines]\n", r.FilePath)
	}
	var b strings.Builder
	b.WriteString(numbered)
	if r.Truncated {
		fmt.Fprintf(&b, "[Showing lines %d-%d of %d. Continue with offset=%d.]\n",
			r.StartLine, r.StartLine+r.NumLines-1, r.TotalLines, r.NextOffset)
	}
	if r.CutLines > 0 {
		fmt.Fprintf(&b, "[%d line(s) longer than %d characters were cut; the marker says how many bytes are not shown.]\n",
			r.CutLines, w.limits.ReadLineChars)
	}
	return b.String()
}

func readSummary(name string, r *ReadResult) string {
	if r.NumLines == 0 {
		return fmt.Sprintf("%s %s (empty)", name, r.FilePath)
	}
	return fmt.Sprintf("%s %s:%d-%d", name, r.FilePath, r.StartLine, r.StartLine+r.NumLines-1)
}
