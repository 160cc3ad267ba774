package sysgrep

import (
	"bytes"
	"errors"

	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/search"
)

// chunkRecords and chunkBytes bound the records of one file held before
// they are checked and passed on: a file grep reports ten million lines of
// is handled a chunk at a time, never whole.
const (
	chunkRecords = 1024
	chunkBytes   = 256 << 10
)

// grepFile is the file whose records grep is printing.
type grepFile struct {
	arg  string
	file native.File
	buf  native.Buffer
	data []byte // the file's bytes, read at its first record
	// native: the file is searched by the native matcher (it holds what
	// grep cannot see, or grep and the matcher disagreed); grep's records
	// for it are then ignored.
	native  bool
	out     *native.FileOut
	pending []grepRecord // records not yet checked
	count   int          // matched lines passed on
	last    int          // number of the last line passed on
	// at is the offset where line atLine starts: a cursor that only moves
	// forward, as grep's records do.
	at, atLine int
}

type grepRecord struct {
	number  int
	context bool
}

// lineAt moves g's cursor to the start of line n and returns its offset;
// ok is false when the file has no such line.
func (g *grepFile) lineAt(n int) (int, bool) {
	for g.atLine < n {
		i := bytes.IndexByte(g.data[g.at:], '\n')
		if i < 0 {
			return 0, false
		}
		g.at += i + 1
		g.atLine++
	}
	return g.at, g.atLine == n && g.at <= len(g.data)
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

// open starts a file at grep's first record for it: its bytes are read and
// checked for what grep cannot see; any doubt sends it to the native
// matcher at once. g is nil when the file cannot be read.
func (r *grepRun) open(arg string, f native.File) (*grepFile, error) {
	buf, err := r.src.Read(f, r.follow(f))
	if err != nil {
		r.unreadable.Add(1)
		return nil, nil
	}
	g := &grepFile{arg: arg, file: f, buf: buf, data: buf.Data, out: r.fs.Out(f.Path), atLine: 1}
	if hasBOM(g.data) || bytes.IndexByte(g.data, 0) >= 0 {
		return g, r.toNative(g)
	}
	return g, nil
}

// add takes one of grep's records for g.
func (r *grepRun) add(g *grepFile, number int, context bool) error {
	if g.native {
		return nil
	}
	if n := len(g.pending); n > 0 && number <= g.pending[n-1].number {
		return r.toNative(g) // not grep's order: trust nothing
	}
	g.pending = append(g.pending, grepRecord{number: number, context: context})
	if len(g.pending) < chunkRecords {
		return nil
	}
	return r.check(g)
}

// close finishes g once grep has moved past it.
func (r *grepRun) close(g *grepFile) error {
	if g == nil {
		return nil
	}
	defer g.buf.Release()
	defer g.out.Abandon()
	if !g.native {
		if err := r.check(g); err != nil {
			return err
		}
	}
	if g.native {
		return nil // toNative closed it
	}
	count := g.count
	if capAt, capped := search.FileMatchCap(r.q); capped && count >= capAt {
		// grep stopped at the page's cap: count the rest of the file
		// here, so the total stays exact.
		if n, err := r.fs.CountData(g.file.Path, g.data); err == nil {
			count = max(count, n)
		} else {
			r.atLeast.Store(true)
		}
	}
	if count > 0 {
		r.matched.Add(1)
		r.lines.Add(int64(count))
	}
	r.bytes.Add(int64(len(g.data))) // no NUL (open checked): all of it searched
	return g.out.Close(count)
}

// toNative searches g with the native matcher from after the last line
// passed on, and closes it.
func (r *grepRun) toNative(g *grepFile) error {
	g.native = true
	g.pending = nil
	count, err := r.fs.SearchInto(g.out, g.file, g.data, g.last)
	if err != nil {
		return err
	}
	return g.out.Close(count)
}

// check passes on g's pending records as Lines, taking the lines from the
// file and the spans from the Go matcher, which searches the stretch of the
// file from the first record's line to the last one's, once per chunk. Go
// must find exactly the lines grep printed as matches there (a context line
// may match only in the trailing context of -m, where rg prints it as a
// match); when they disagree (a translation gap), or the stretch could read
// as starting with a BOM, the rest of the file goes to the native matcher.
func (r *grepRun) check(g *grepFile) error {
	recs := g.pending
	g.pending = g.pending[:0]
	if len(recs) == 0 {
		return nil
	}
	first, last := recs[0].number, recs[len(recs)-1].number
	start, ok := g.lineAt(first)
	if !ok {
		return r.toNative(g)
	}
	lastStart, ok := g.lineAt(last)
	if !ok {
		return r.toNative(g)
	}
	end := len(g.data)
	if i := bytes.IndexByte(g.data[lastStart:], '\n'); i >= 0 {
		end = lastStart + i + 1
	}
	region := g.data[start:end]
	if hasBOM(region) {
		return r.toNative(g)
	}
	max, _ := search.FileMatchCap(r.q)
	count, i := g.count, 0
	lines := make([]search.Line, 0, len(recs))
	var disagree bool
	at, atLine := start, first // a second cursor, for the context lines
	contextLine := func(rec grepRecord) {
		for ; atLine < rec.number; atLine++ {
			at += bytes.IndexByte(g.data[at:end], '\n') + 1
		}
		ls, le := at, at+bytes.IndexByte(g.data[at:end], '\n')
		if le < ls {
			le = end
		}
		text := bytes.TrimSuffix(g.data[ls:le], []byte{'\r'})
		lines = append(lines, search.Line{Path: g.file.Path, Number: rec.number, Text: text, Kind: search.KindContext})
	}
	_, err := r.m.Search(region, native.SearchOptions{}, func(l native.Line) error {
		n := first - 1 + l.Number
		for i < len(recs) && recs[i].number < n {
			if !recs[i].context {
				disagree = true // grep matched, Go does not
				return errDisagree
			}
			contextLine(recs[i])
			i++
		}
		if i == len(recs) || recs[i].number != n || (recs[i].context && (max == 0 || count < max)) {
			disagree = true // Go matches a line grep did not print, or printed as context
			return errDisagree
		}
		ml := native.ViewLine(g.file.Path, l) // l.Text is in g.data, alive until close
		ml.Number = n
		ml.Offset += int64(start) // l is located in region, which starts there
		lines = append(lines, ml)
		count++
		i++
		return nil
	})
	if disagree || (err != nil && err != errDisagree) {
		return r.toNative(g)
	}
	for ; i < len(recs); i++ {
		if !recs[i].context {
			return r.toNative(g)
		}
		contextLine(recs[i])
	}
	for _, l := range lines {
		if err := g.out.AddLine(l); err != nil {
			return err
		}
		g.last = l.Number
	}
	g.count = count
	return nil
}

// errDisagree ends a check where grep and the Go matcher disagree.
var errDisagree = errors.New("grep and the Go matcher disagree")

// follow says whether a file is opened through a final symlink: when
// following links, or when the user named it (rg follows explicit paths).
func (r *grepRun) follow(f native.File) bool {
	return r.q.FollowSymlinks || r.fs.IsExplicit(f.Path)
}

// nativeFile searches one file with the Go matcher, as the native engine
// would (the files and count modes, where grep only finds the files).
func (r *grepRun) nativeFile(f native.File) error {
	buf, err := r.src.Read(f, r.follow(f))
	if err != nil {
		r.unreadable.Add(1)
		return nil
	}
	defer buf.Release()
	return r.fs.SearchData(f, buf.Data)
}
