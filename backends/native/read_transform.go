package native

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/text/transform"

	"github.com/rgkit/rgkit/internal/decompress"
	"github.com/rgkit/rgkit/internal/textenc"
	"github.com/rgkit/rgkit/search"
)

// Preprocessor is rg --pre: a command the user named on the command line,
// run once per file with the file's path as its one argument and the file
// as its stdin; what it prints is searched instead of the file. The
// library never runs one on its own (see docs/design.md, "Security"): only
// a caller that sets Engine.Preprocessor, which rgkit's CLI does for
// --pre and nothing else does, makes the engine start programs.
type Preprocessor struct {
	// Globs limit it to the files they match (rg --pre-glob, with '!' for
	// an exclusion); none: every file.
	Globs []string
	// Run starts the command for the file at path (relative to the
	// query's Root, slash-separated) reading stdin, and returns its output; Close waits for it and
	// reports a failure (an exit status other than 0) as rg words it.
	Run func(ctx context.Context, path string, stdin *os.File) (io.ReadCloser, error)
}

// reading is how a query's files become the bytes searched when it asks
// for more than rg's default (rg -z, -E, --pre); nil when it does not.
type reading struct {
	zip      bool
	nullData bool // rg --null-data: the bytes are permuted (see nullDataByte)
	enc      textenc.Encoding
	pre      *Preprocessor
	// preGlobs matches Preprocessor.Globs; nil: every file.
	preGlobs *overrides
}

// newReading returns the reading q (and the preprocessor, when set) asks
// for, or nil for rg's default.
func newReading(q search.Query, pre *Preprocessor) (*reading, error) {
	enc, err := textenc.Lookup(q.Encoding)
	if err != nil {
		return nil, err
	}
	if !q.SearchZip && enc.Mode == textenc.Auto && pre == nil && !q.NullData {
		return nil, nil
	}
	rd := &reading{zip: q.SearchZip, enc: enc, pre: pre, nullData: q.NullData}
	if pre != nil && len(pre.Globs) > 0 {
		if rd.preGlobs, err = newOverrides(pre.Globs); err != nil {
			return nil, err
		}
	}
	return rd, nil
}

// transforms reports whether the file at path is read through rd
// rather than searched as its bytes.
func (rd *reading) transforms(path string) bool {
	if rd.nullData || rd.runsPre(path) || rd.enc.Mode != textenc.Auto {
		return true
	}
	_, ok := decompress.ForPath(path)
	return rd.zip && ok
}

func (rd *reading) runsPre(path string) bool {
	// rg skips the preprocessor for a file its --pre-glob overrides
	// would ignore (as --glob would leave it out of the walk).
	return rd.pre != nil && rd.preGlobs.match(path, false) != matchIgnore
}

// open returns the data to search for f: the preprocessor's output, else
// the decompressed file (rg -z), transcoded as the encoding says.
func (rd *reading) open(ctx context.Context, src *Source, f File, follow bool) (io.ReadCloser, error) {
	var fh *os.File
	var err error
	if follow && !src.confined {
		fh, err = os.Open(f.Abs)
	} else {
		fh, err = src.root.Open(filepath.FromSlash(f.Path))
	}
	if err != nil {
		return nil, err
	}
	name := f.Path
	var r io.ReadCloser = fh
	closers := []io.Closer{fh}
	switch format, ok := decompress.ForPath(f.Path); {
	case rd.runsPre(f.Path):
		out, err := rd.pre.Run(ctx, name, fh)
		if err != nil {
			fh.Close()
			return nil, err
		}
		r = out
		closers = append([]io.Closer{out}, closers...)
	case rd.zip && ok:
		dec, err := decompress.NewReader(format, fh, name)
		if err != nil {
			fh.Close()
			return nil, err
		}
		r = dec
		closers = append([]io.Closer{dec}, closers...)
	}
	var data io.Reader = rd.decode(r)
	if rd.nullData {
		data = NullDataReader(data)
	}
	return &closeAll{Reader: data, closers: closers}, nil
}

// NullDataReader reads r with the bytes permuted as a search with
// MatchOptions.NullData expects (NUL becomes the line end); UnpermuteLine
// gives its lines back their bytes.
func NullDataReader(r io.Reader) io.Reader { return permutingReader{r} }

type permutingReader struct{ r io.Reader }

func (p permutingReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	for i, c := range b[:n] {
		b[i] = nullDataByte[c]
	}
	return n, err
}

// UnpermuteLine returns l, found in data read through NullDataReader, with
// its text and terminator in the file's own bytes (copies when they
// change).
func UnpermuteLine(l Line) Line {
	l.Text = permuteNullData(l.Text, &nullDataUnbyte)
	if l.Term != "" {
		l.Term = string(permuteNullData([]byte(l.Term), &nullDataUnbyte))
	}
	return l
}

// decode applies rg's encoding rules to r: a byte-order mark (UTF-8,
// UTF-16LE, UTF-16BE) is dropped; a UTF-16 one says how the rest is
// read, whatever the encoding asked for, and after a UTF-8 one the rest
// is read in the encoding asked for (UTF-8 under "auto"), as rg 15 does.
// Without one the asked encoding transcodes to UTF-8 (invalid sequences
// become U+FFFD, as encoding_rs makes them, for an asked UTF-8 too), and
// "auto" passes the bytes through unchecked. "none" reads the raw bytes,
// a byte-order mark included.
func (rd *reading) decode(r io.Reader) io.Reader {
	if rd.enc.Mode == textenc.None {
		return r
	}
	br := bufio.NewReaderSize(r, 64<<10)
	head, err := br.Peek(3)
	if err != nil && !errors.Is(err, io.EOF) {
		// Peek hands the error over once: keep it for the search.
		return io.MultiReader(bytes.NewReader(head), errReader{err})
	}
	switch {
	case bytes.HasPrefix(head, []byte{0xEF, 0xBB, 0xBF}):
		br.Discard(3)
		return rd.transcode(br)
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}):
		br.Discard(2)
		return transform.NewReader(br, utf16Decoder{})
	case bytes.HasPrefix(head, []byte{0xFE, 0xFF}):
		br.Discard(2)
		return transform.NewReader(br, utf16Decoder{bigEndian: true})
	}
	switch rd.enc.Name {
	case "utf-16le", "utf-16be":
		return rd.transcode(br)
	}
	// rg's decoder hands the three bytes it peeked at for a mark over as
	// a read of their own (decoded, for an asked encoding), so a line that
	// ends in them is searched before a NUL that the next read brings, as
	// in a file (see binaryCut's peek).
	first := bytes.Clone(head)
	br.Discard(len(first))
	return rd.transcode(io.MultiReader(bytes.NewReader(first), br))
}

// transcode reads src in the encoding asked for, to UTF-8 (an asked UTF-8
// with invalid sequences as U+FFFD); under "auto" src passes through.
func (rd *reading) transcode(src io.Reader) io.Reader {
	switch {
	case rd.enc.Name == "utf-16le":
		return transform.NewReader(src, utf16Decoder{})
	case rd.enc.Name == "utf-16be":
		return transform.NewReader(src, utf16Decoder{bigEndian: true})
	case rd.enc.Name == "utf-8":
		return transform.NewReader(src, utf8Replacer{})
	case rd.enc.Enc != nil:
		return transform.NewReader(src, rd.enc.Enc.NewDecoder())
	}
	return src
}

// errReader fails every read with err.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// DecodeReader applies rg -E's rules for encoding (a Query.Encoding) to
// r, a stream searched with SearchOptions.Decoded: a label transcodes
// (see decode for byte-order marks), "none" reads the bytes as they are,
// and "" or "auto" reads them as they are but for a byte-order mark
// (dropped; a UTF-16 one has the rest transcoded).
func DecodeReader(r io.Reader, encoding string) (io.Reader, error) {
	enc, err := textenc.Lookup(encoding)
	if err != nil {
		return r, err
	}
	return (&reading{enc: enc}).decode(r), nil
}

// closeAll closes its closers in order (the preprocessor or decoder, then
// the file), returning the first error.
type closeAll struct {
	io.Reader
	closers []io.Closer
}

func (c *closeAll) Close() error {
	var first error
	for _, cl := range c.closers {
		if err := cl.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// OpenAsSearched returns what opens a file (at abs; rel, its path as the
// search names it, whose name says how it is compressed) as a search for
// q by e reads it: the --pre command's output, the decompressed text
// (-z), transcoded (-E), with its bytes permuted for --null-data (see
// NullDataReader; permuted says so). Any other file is read as the
// search reads it by default: a byte-order mark says how (UTF-16 is
// transcoded, a UTF-8 mark dropped). The reading is set up once, for
// every file opened.
func (e *Engine) OpenAsSearched(q search.Query) (func(ctx context.Context, abs, rel string) (r io.ReadCloser, permuted bool, err error), error) {
	rd, err := newReading(q, e.Preprocessor)
	if err != nil {
		return nil, err
	}
	auto := &reading{enc: textenc.Encoding{Mode: textenc.Auto}}
	return func(ctx context.Context, abs, rel string) (io.ReadCloser, bool, error) {
		if rd == nil || !rd.transforms(rel) {
			f, err := os.Open(abs)
			if err != nil {
				return nil, false, err
			}
			return &closeAll{Reader: auto.decode(f), closers: []io.Closer{f}}, false, nil
		}
		r, err := rd.open(ctx, &Source{}, File{Path: rel, Abs: abs}, true)
		return r, rd.nullData, err
	}, nil
}
