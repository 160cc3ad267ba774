package tools

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
)

// lineReader reads a file line by line holding at most keep bytes of any
// one line, so a 100 MB minified line costs no more memory than a short
// one. "\n" and "\r\n" both end a line (CRLF is one line break); a last
// line without a terminator still counts.
type lineReader struct {
	r    *bufio.Reader
	keep int
}

// rawLine is one line as read: its first bytes and its measurements.
type rawLine struct {
	text  []byte // at most keep bytes, terminator removed
	size  int    // the line's full length in bytes, terminator removed
	nulAt int    // byte offset of the first NUL in the line, -1 if none
}

func newLineReader(r io.Reader, keep int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10), keep: keep}
}

// next returns the next line, or io.EOF when there is none. With hold
// false it measures the line without keeping its text (lines before the
// requested offset).
func (lr *lineReader) next(hold bool) (rawLine, error) {
	l := rawLine{nulAt: -1}
	read := false
	var t0, t1 byte // the line's last two bytes so far; t0 is '\r' before a CRLF
	for {
		chunk, err := lr.r.ReadSlice('\n')
		if len(chunk) > 0 {
			read = true
			if i := bytes.IndexByte(chunk, 0); i >= 0 && l.nulAt < 0 {
				l.nulAt = l.size + i
			}
			if hold && len(l.text) < lr.keep {
				l.text = append(l.text, chunk[:min(len(chunk), lr.keep-len(l.text))]...)
			}
			l.size += len(chunk)
			if len(chunk) >= 2 {
				t0, t1 = chunk[len(chunk)-2], chunk[len(chunk)-1]
			} else {
				t0, t1 = t1, chunk[0]
			}
		}
		switch {
		case err == nil: // chunk ends with '\n'
			l.size--
			if l.size > 0 && t0 == '\r' {
				l.size--
			}
			l.text = l.text[:min(len(l.text), l.size)]
			return l, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if !read {
				return l, io.EOF
			}
			return l, nil
		default:
			return l, err
		}
	}
}

// countRest counts the lines left after the current position, checking
// ctx between chunks so a huge file cannot hold a call hostage.
func (lr *lineReader) countRest(ctx context.Context) (int, error) {
	n := 0
	buf := make([]byte, 256<<10)
	last := byte('\n')
	for {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		k, err := lr.r.Read(buf)
		if k > 0 {
			n += bytes.Count(buf[:k], []byte{'\n'})
			last = buf[k-1]
		}
		if errors.Is(err, io.EOF) {
			if last != '\n' {
				n++
			}
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}
