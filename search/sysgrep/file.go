package sysgrep

import (
	"bytes"
	"errors"
	"path/filepath"
	"slices"

	"github.com/rgkit/rgkit/search"
	"github.com/rgkit/rgkit/search/native"
)

// grepFile is one file's records from grep's output.
type grepFile struct {
	arg     string
	file    native.File
	records []grepRecord
}

type grepRecord struct {
	number  int
	context bool
	text    []byte // the line as grep printed it (a CRLF line keeps its '\r')
}

// hasBOM reports whether data starts with a UTF-8 or UTF-16 byte-order mark,
// which rg strips or transcodes.
func hasBOM(data []byte) bool {
	for _, b := range bomFixed {
		if bytes.HasPrefix(data, []byte(b)) {
			return true
		}
	}
	return false
}

// finish turns one file's grep records into Lines, after checking the file
// for what grep cannot see; any doubt sends the file to the native matcher.
func (r *grepRun) finish(g *grepFile) error {
	buf, err := r.src.Read(g.file, r.follow(g.file))
	if err != nil {
		r.unreadable.Add(1)
		return nil
	}
	defer buf.Release()
	data := buf.Data
	// Confined, grep's printed lines are not trusted: grep opened the file
	// by its path, which a swapped directory can lead outside, so the
	// lines shown are the ones found in the bytes read beneath the root.
	if r.q.Confine != nil || hasBOM(data) || bytes.IndexByte(data, 0) >= 0 {
		return r.nativeFile(g.file, data)
	}
	lastLine := 0 // the number of a final line without '\n', if any
	if len(data) > 0 && data[len(data)-1] != '\n' {
		lastLine = bytes.Count(data, []byte{'\n'}) + 1
	}
	lines, count, ok := r.grepLines(g, lastLine)
	if !ok {
		return r.nativeFile(g.file, data)
	}
	if count == 0 && len(lines) == 0 {
		return nil
	}
	r.matched.Add(1)
	r.lines.Add(int64(count))
	return r.push(g.file.Path, lines, count)
}

// grepLines converts records, computing spans with the Go matcher. All the
// file's reported lines are matched in one buffer, one per line, as they
// end in the file (with '\n', or without for a final line that has none),
// so the matcher runs once per file, not once per line. ok is false when
// grep and the Go matcher disagree on a line (a translation gap), or a line
// could read as a BOM to the matcher.
func (r *grepRun) grepLines(g *grepFile, lastLine int) (lines []search.Line, count int, ok bool) {
	var buf []byte
	for _, rec := range g.records {
		if hasBOM(rec.text) {
			return nil, 0, false
		}
		buf = append(buf, rec.text...)
		if rec.number != lastLine {
			buf = append(buf, '\n')
		}
	}
	matched := make([]*search.Line, len(g.records))
	if _, err := r.m.Search(buf, native.SearchOptions{}, func(l native.Line) error {
		if i := l.Number - 1; !l.Context && i >= 0 && i < len(matched) {
			ml := native.SearchLine(g.file.Path, l)
			matched[i] = &ml
		}
		return nil
	}); err != nil {
		return nil, 0, false
	}
	max := r.q.MaxCountPerFile
	for i, rec := range g.records {
		got := matched[i]
		switch {
		case !rec.context && got == nil:
			return nil, 0, false // grep matched, Go does not
		case rec.context && got != nil && (max == 0 || count < max):
			return nil, 0, false // Go matches a line grep only showed as context
		case got != nil:
			// A match, or (after the last counted match of -m) a matching
			// line in the trailing context, which rg prints as a match.
			got.Number = rec.number
			lines = append(lines, *got)
			count++
		default:
			text := bytes.TrimSuffix(rec.text, []byte{'\r'})
			lines = append(lines, search.Line{Path: g.file.Path, Number: rec.number, Text: slices.Clone(text), Kind: search.KindContext})
		}
	}
	return lines, count, true
}

// follow says whether a file is opened through a final symlink: when
// following links, or when the user named it (rg follows explicit paths).
func (r *grepRun) follow(f native.File) bool {
	return r.q.FollowSymlinks || r.explicit(f)
}

// explicit reports whether the user named the file itself in Paths.
func (r *grepRun) explicit(f native.File) bool {
	for _, p := range r.q.Paths {
		if filepath.ToSlash(p) == f.Path {
			return true
		}
	}
	return false
}

// nativeFile searches one file with the Go matcher (data = its bytes, or nil
// to read them), as the native engine would.
func (r *grepRun) nativeFile(f native.File, data []byte) error {
	if data == nil {
		buf, err := r.src.Read(f, r.follow(f))
		if err != nil {
			r.unreadable.Add(1)
			return nil
		}
		defer buf.Release()
		data = buf.Data
	}
	opts := native.SearchOptionsFor(r.q)
	opts.BinaryConvert = r.explicit(f) // rg searches past NULs in a file it was given by name
	var lines []search.Line
	res, err := r.m.Search(data, opts, func(l native.Line) error {
		lines = append(lines, native.SearchLine(f.Path, l))
		return nil
	})
	if err != nil {
		return err
	}
	if res.Binary {
		r.binary.Add(1)
	}
	if res.MatchedLines == 0 && len(lines) == 0 {
		return nil
	}
	r.matched.Add(1)
	r.lines.Add(int64(res.MatchedLines))
	return r.push(f.Path, lines, res.MatchedLines)
}

// push sends one file's results to the sink; ErrStop ends the search
// without an error.
func (r *grepRun) push(path string, lines []search.Line, count int) error {
	r.sinkMu.Lock()
	defer r.sinkMu.Unlock()
	if r.ctx.Err() != nil {
		return r.ctx.Err()
	}
	err := r.sink.Begin(path)
	for i := 0; err == nil && i < len(lines); i++ {
		err = r.sink.Line(lines[i])
	}
	if err == nil {
		err = r.sink.End(search.FileSummary{Path: path, MatchedLines: count})
	}
	if errors.Is(err, search.ErrStop) {
		r.stopped.Store(true)
		r.cancel()
		return nil
	}
	return err
}
