// Package decompress is rg -z in process: which files rg decompresses (by
// the name's extension, as rg's default decompression globs say) and a
// streaming reader of each format, so a file is searched as it is
// inflated and never held whole (a decompression bomb costs time, not
// memory). rg runs gzip, bzip2, xz, lz4, zstd, brotli or uncompress as a
// child process; rgkit decodes with Go libraries instead, so it needs none
// of those tools, and words a corrupt file's error as the tool would.
package decompress

import (
	"bufio"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
	"github.com/ulikunitz/xz"
	"github.com/ulikunitz/xz/lzma"
)

// Format is a compression format rg -z knows.
type Format int

const (
	Gzip Format = iota + 1
	Bzip2
	XZ
	LZMA
	LZ4
	Brotli
	Zstd
	Compress // Unix compress (.Z)
)

// suffixes are rg's default decompression globs (*.gz, *.tgz, ...),
// matched case-sensitively against the file name as rg's globs are.
var suffixes = []struct {
	suffix string
	format Format
}{
	{".gz", Gzip}, {".tgz", Gzip},
	{".bz2", Bzip2}, {".tbz2", Bzip2},
	{".xz", XZ}, {".txz", XZ},
	{".lz4", LZ4},
	{".lzma", LZMA},
	{".br", Brotli},
	{".zst", Zstd}, {".zstd", Zstd},
	{".Z", Compress},
}

// ForPath returns the format rg -z decompresses the file at path with, by
// its name alone (rg never looks at the contents). A .br file has a
// format only in a program that links the brotli decoder (see
// RegisterBrotli); elsewhere it is searched as it is, as rg searches it
// when no brotli tool is installed.
func ForPath(path string) (Format, bool) {
	for _, s := range suffixes {
		if strings.HasSuffix(path, s.suffix) {
			if s.format == Brotli && brotliReader == nil {
				return 0, false
			}
			return s.format, true
		}
	}
	return 0, false
}

// brotliReader decodes brotli; nil until RegisterBrotli.
var brotliReader func(io.Reader) io.Reader

// RegisterBrotli links a brotli decoder (package
// internal/decompress/brotli does it when imported). It is not linked by
// default because the brotli library imports net/http, which the pure-Go
// rg and the native engine must not link; rgkit's own binary links it.
// Call it from an init function only.
func RegisterBrotli(newReader func(io.Reader) io.Reader) { brotliReader = newReader }

// tool is the program rg runs for f: its error messages are worded as
// that program's.
func (f Format) tool() string {
	switch f {
	case Gzip:
		return "gzip"
	case Bzip2:
		return "bzip2"
	case XZ, LZMA:
		return "xz"
	case LZ4:
		return "lz4"
	case Brotli:
		return "brotli"
	case Zstd:
		return "zstd"
	}
	return "uncompress"
}

// Error is a file that could not be decompressed. Its message is what the
// tool rg runs would print for the usual causes (a file not in the format,
// one cut short), framed as rg frames a child's stderr.
type Error struct {
	Path   string // as the user sees it (the tool is given this path)
	Format Format
	Header bool  // the data did not start as the format does
	Err    error // the decoder's error
}

func (e *Error) Unwrap() error { return e.Err }

// Error is rg's framing of the tool's stderr: a line of 79 dashes above
// and below it.
func (e *Error) Error() string {
	div := strings.Repeat("-", 79)
	return "\n" + div + "\n" + e.toolMessage() + "\n" + div
}

// toolMessage is what the decompressing tool says about the file.
func (e *Error) toolMessage() string {
	p := e.Path
	eof := errors.Is(e.Err, io.ErrUnexpectedEOF) || errors.Is(e.Err, io.EOF)
	short := errors.Is(e.Err, errShortMagic)
	switch e.Format {
	case Gzip, Compress:
		eof = eof || short
		switch {
		case e.Header && !eof:
			return "gzip: " + p + ": not in gzip format"
		case eof:
			return "gzip: " + p + ": unexpected end of file"
		case errors.Is(e.Err, gzip.ErrChecksum):
			return "gzip: " + p + ": invalid compressed data--crc error"
		}
		return "gzip: " + p + ": invalid compressed data--format violated"
	case Bzip2:
		eof = eof || short
		switch {
		case e.Header && !eof:
			return "bzip2: " + p + " is not a bzip2 file."
		case eof:
			return "bzip2: Compressed file ends unexpectedly;\n\tperhaps it is corrupted?  *Possible* reason follows.\nbzip2: Success\n\tInput file = " + p +
				", output file = (stdout)\n\nIt is possible that the compressed file(s) have become corrupted.\nYou can use the -tvv option to test integrity of such files.\n\n" +
				"You can use the `bzip2recover' program to attempt to recover\ndata from undamaged sections of corrupted files."
		}
		return "bzip2: Data integrity error when decompressing.\n\tInput file = " + p + ", output file = (stdout)"
	case XZ, LZMA:
		switch {
		case e.Header:
			return "xz: " + p + ": File format not recognized"
		case eof:
			return "xz: " + p + ": Unexpected end of input"
		}
		return "xz: " + p + ": Compressed data is corrupt"
	case LZ4:
		if short {
			return "Error 40 : Unrecognized header : Magic Number unreadable"
		}
		if e.Header {
			return "Error 44 : Unrecognized header : file cannot be decoded"
		}
		if eof {
			return "Error 68 : Unfinished stream"
		}
		return "Error 66 : Decompression error : " + e.Err.Error()
	case Zstd:
		switch {
		case short:
			return "zstd: " + p + ": unknown header"
		case e.Header && eof:
			return "zstd: " + p + ": unexpected end of file"
		case e.Header:
			return "zstd: " + p + ": unsupported format"
		case eof:
			return p + " : Read error (39) : premature end"
		}
		return "zstd: " + p + ": " + e.Err.Error()
	}
	return fmt.Sprintf("%s: %s: %v", e.Format.tool(), p, e.Err)
}

// MaxZstdWindow is the largest zstd window decoded, the zstd tool's own
// default limit (--memory=128MB): a frame asking for more is refused
// instead of allocating it.
const MaxZstdWindow = 128 << 20

// NewReader returns a reader of r's decompressed bytes in format f. path
// names the file in errors. Errors, from NewReader or from Read, are
// *Error. Close releases the decoder (not r).
func NewReader(f Format, r io.Reader, path string) (io.ReadCloser, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	fail := func(header bool, err error) error { return &Error{Path: path, Format: f, Header: header, Err: err} }
	var (
		dec   io.Reader
		close func()
		err   error
	)
	switch f {
	case Gzip:
		var z *gzip.Reader
		if err = checkMagic(br, "\x1f\x8b", false); err == nil {
			z, err = gzip.NewReader(br)
		}
		if err == nil {
			dec, close = z, func() { z.Close() }
		}
	case Bzip2:
		// compress/bzip2 reads its header lazily: check the magic here.
		err = checkMagic(br, "BZh", true)
		dec = bzip2.NewReader(br)
	case XZ:
		dec, err = xz.NewReader(br)
	case LZMA:
		dec, err = lzma.NewReader(br)
	case LZ4:
		err = checkMagic(br, "\x04\x22\x4d\x18", false)
		dec = lz4.NewReader(br)
		if head, _ := br.Peek(1); len(head) == 0 {
			err, dec = nil, br // the lz4 tool reads an empty file as empty
		}
	case Brotli:
		if brotliReader == nil {
			return nil, fmt.Errorf("decompress: no brotli decoder linked")
		}
		dec = brotliReader(br)
	case Zstd:
		var z *zstd.Decoder
		if z, err = zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true), zstd.WithDecoderMaxWindow(MaxZstdWindow)); err == nil {
			dec, close = z, z.Close
			err = checkMagic(br, "\x28\xb5\x2f\xfd", false)
		}
	case Compress:
		dec, err = newLZWReader(br)
	default:
		return nil, fmt.Errorf("decompress: unknown format %d", f)
	}
	if err != nil {
		if close != nil {
			close()
		}
		return nil, fail(true, err)
	}
	return &reader{r: dec, close: close, fail: fail}, nil
}

// errMagic is data that does not start as its format does; errShortMagic
// a file, not empty, shorter than the format's magic number.
var (
	errMagic      = errors.New("not in the format")
	errShortMagic = errors.New("too short for the magic number")
)

// checkMagic reports data that does not start with magic (the decoders
// that read their header lazily would otherwise fail later, or not at
// all), an empty file as cut short, and a shorter one as errShortMagic,
// or as errMagic when mismatchFirst and its bytes already differ (the
// tools tell these apart).
func checkMagic(br *bufio.Reader, magic string, mismatchFirst bool) error {
	head, err := br.Peek(len(magic))
	switch {
	case len(head) == 0 && err == io.EOF:
		return io.ErrUnexpectedEOF
	case !strings.HasPrefix(magic, string(head)) && (len(head) == len(magic) || mismatchFirst):
		return errMagic
	case len(head) < len(magic) && err == io.EOF:
		return errShortMagic
	case len(head) < len(magic):
		return err
	}
	return nil
}

// reader wraps a decoder's errors as *Error.
type reader struct {
	r     io.Reader
	close func()
	fail  func(bool, error) error
}

func (r *reader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if err != nil && err != io.EOF {
		err = r.fail(false, err)
	}
	return n, err
}

func (r *reader) Close() error {
	if r.close != nil {
		r.close()
	}
	return nil
}
