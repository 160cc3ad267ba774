package ripgrep

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/rgkit/rgkit/search"
)

// plainArgs has rg print one line per record: the path ended by a NUL,
// the line number and the byte offset each followed by ':' (a match) or
// '-' (context), the line as the file has it; no separator between
// context groups; the --stats block after a blank line. Where many lines
// print, this is a third the bytes of rg's --json and has no escapes to
// undo: `func` over GOROOT/src is 42 MB of JSON, 16 MB of it.
var plainArgs = []string{"--no-heading", "--with-filename", "--line-number", "--byte-offset",
	"--null", "--color=never", "--no-context-separator", "--stats"}

// plainOutput reports whether q's lines read from rg's plain output are
// the lines its --json gives, once no match positions are wanted: content
// mode; a match is one line (with --multiline a JSON record holds the
// lines of a match, and -c counts matches); no column cap (the JSON
// reader keeps a capped prefix of each line); and a walk of the root
// directory only, since a file named on the command line that turns out
// binary has its lines replaced by a notice in rg's plain output, where
// its JSON has them.
func plainOutput(q search.Query, countMatches bool) bool {
	if q.Mode != search.ModeContent || q.Multiline || countMatches || q.MaxColumns > 0 || len(q.Paths) > 0 {
		return false
	}
	fi, err := os.Stat(q.Root)
	return err == nil && fi.IsDir()
}

// Binary notices rg prints in its plain output, after "PATH: ", in place of
// a line: a file found by the walk stops at its first NUL after a match;
// a named one is searched whole and printed as this notice.
var (
	noticeStopped = []byte(`WARNING: stopped searching binary file after match (found "\0" byte around offset `)
	noticeMatches = []byte(`binary file matches (found "\0" byte around offset `)
)

// plainFile is the file whose lines consumePlain is reading.
type plainFile struct {
	raw    []byte // its path as rg printed it
	count  int64  // matching lines so far
	binary bool   // a binary notice came
	size   int64  // its size, once needed (-1 before)
}

// consumePlain reads rg's output of plainArgs: records into the sink, the
// --stats block into run.stats. Paths may hold any byte but NUL, a
// newline too; line texts any byte but a newline.
func (run *rgRun) consumePlain(r io.Reader) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var (
		f       *plainFile
		acc     []byte // a line longer than br's buffer
		pending []byte // the start of a path holding a newline
		// notice is a line shaped as the open file's binary notice. It is
		// one unless a path holding a newline started with it: told
		// apart at the next record, by which of the two paths exists.
		notice []byte
	)
	closeFile := func() error {
		if f == nil {
			return nil
		}
		err := run.endFile(f.count, f.binary)
		f = nil
		return err
	}
	for {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			acc = append(acc[:0], line...)
			for err == bufio.ErrBufferFull {
				line, err = br.ReadSlice('\n')
				acc = append(acc, line...)
			}
			line = acc
		}
		if err != nil && err != io.EOF {
			return err
		}
		if len(line) == 0 { // the end, without a --stats block (rg was stopped)
			if notice != nil {
				f.binary = true
			}
			return closeFile()
		}
		if line[len(line)-1] != '\n' {
			return fmt.Errorf("rg: truncated output %q", clip(line))
		}
		nul := bytes.IndexByte(line, 0)
		switch {
		case nul < 0 && len(pending) == 0 && len(line) == 1:
			// The blank line before the --stats block.
			if notice != nil {
				f.binary = true
			}
			if err := closeFile(); err != nil {
				return err
			}
			return run.plainStats(br)
		case nul < 0 && len(pending) == 0 && notice == nil && f != nil && isNotice(line[:len(line)-1], f.raw):
			notice = append([]byte(nil), line[:len(line)-1]...)
			continue
		case nul < 0:
			pending = append(pending, line...) // a path holding a newline
			continue
		}
		path := line[:nul]
		if len(pending) > 0 {
			pending = append(pending, path...)
			path, pending = pending, pending[:0]
		}
		if notice != nil {
			// A notice, unless it is the start of this record's path.
			whole := slices.Concat(notice, []byte("\n"), path)
			switch wholeErr, partErr := lstat(whole), lstat(path); {
			case !filepath.IsAbs(string(path)):
				path = whole // rg prints the paths it is given, absolute
			case wholeErr == nil && partErr == nil:
				return fmt.Errorf("rg: output that reads two ways: %q and %q both name files", whole, path)
			case wholeErr == nil:
				path = whole
			default:
				f.binary = true
			}
			notice = nil
		}
		if f == nil || !bytes.Equal(path, f.raw) {
			if err := closeFile(); err != nil {
				return err
			}
			f = &plainFile{raw: append([]byte(nil), path...), size: -1}
			run.open = run.rel(f.raw)
			run.emitted = true
			if err := run.sinkCall(run.sink.Begin(run.open)); err != nil {
				return err
			}
		}
		if err := run.plainLine(f, line[nul+1:len(line)-1]); err != nil {
			return err
		}
	}
}

func lstat(path []byte) error {
	_, err := os.Lstat(string(path))
	return err
}

// plainLine sends one record's line: rest is "NUMBER:OFFSET:TEXT" for a
// match, with '-' for a line of context.
func (run *rgRun) plainLine(f *plainFile, rest []byte) error {
	number, sep, rest, ok := plainField(rest)
	off, sep2, text, ok2 := plainField(rest)
	if !ok || !ok2 || sep != sep2 {
		return fmt.Errorf("rg: unexpected output for %s: %q", run.open, clip(rest))
	}
	kind := search.KindMatch
	if sep == '-' {
		kind = search.KindContext
	} else {
		f.count++
	}
	if n := len(text); n > 0 && text[n-1] == '\r' {
		// rg ends every line it prints with "\n"; a "\r" before it is the
		// file's "\r\n", or the file's last byte when its last line has no
		// terminator (which rg's JSON keeps in the text).
		if f.size < 0 {
			if fi, err := os.Stat(string(f.raw)); err == nil {
				f.size = fi.Size()
			}
		}
		if off+int64(n) != f.size {
			text = text[:n-1]
		}
	}
	return run.sinkCall(run.sink.Line(search.Line{Path: run.open, Number: int(number), Text: text, Kind: kind}))
}

// plainField reads a decimal number and the ':' or '-' after it.
func plainField(b []byte) (n int64, sep byte, rest []byte, ok bool) {
	i := 0
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	if i == 0 || i >= len(b) || (b[i] != ':' && b[i] != '-') {
		return 0, 0, nil, false
	}
	n, err := strconv.ParseInt(string(b[:i]), 10, 64)
	return n, b[i], b[i+1:], err == nil
}

// isNotice reports whether line is rg's binary notice for the file at raw.
func isNotice(line, raw []byte) bool {
	rest, ok := bytes.CutPrefix(line, raw)
	if !ok {
		return false
	}
	if rest, ok = bytes.CutPrefix(rest, []byte(": ")); !ok {
		return false
	}
	if r, ok := bytes.CutPrefix(rest, noticeStopped); ok {
		rest = r
	} else if rest, ok = bytes.CutPrefix(rest, noticeMatches); !ok {
		return false
	}
	digits, ok := bytes.CutSuffix(rest, []byte(")"))
	if !ok || len(digits) == 0 {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// plainStats reads the --stats block: the files and bytes searched. Each
// of its lines is a number and words; anything else (a record after it)
// fails the search rather than go unread.
func (run *rgRun) plainStats(br *bufio.Reader) error {
	for {
		line, err := br.ReadSlice('\n')
		if t := bytes.TrimSpace(line); len(t) > 0 {
			n, what, ok := bytes.Cut(t, []byte(" "))
			v, perr := strconv.ParseInt(string(n), 10, 64)
			if perr != nil {
				_, perr = strconv.ParseFloat(string(n), 64) // "0.012 seconds"
			}
			if !ok || perr != nil || bytes.IndexByte(t, 0) >= 0 {
				return fmt.Errorf("rg: unexpected output after its statistics: %q", clip(line))
			}
			switch string(what) {
			case "files searched":
				run.stats.FilesSearched = v
			case "bytes searched":
				run.stats.BytesSearched = v
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// clip shortens b for an error message.
func clip(b []byte) []byte {
	if len(b) > 80 {
		return b[:80]
	}
	return b
}
