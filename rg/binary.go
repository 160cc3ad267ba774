package rg

import (
	"bytes"
	"io"
	"os"

	"github.com/rgkit/rgkit/backends/native"
)

// A file named on the command line that holds a NUL byte is searched to
// its end, and rg says "binary file matches (found "\0" byte around
// offset N)" instead of printing the lines it finds from where it noticed
// the NUL:
//   - mapped (at most ten paths, all of them files): a NUL in the first
//     64 KiB is noticed at once, and no line is printed; a later one only
//     when a line about to be printed holds it, so the lines before print
//     (and a NUL on a line never printed goes unnoticed);
//   - read in buffer fills (more paths, or a directory among them): the
//     lines of the fills before the one that brings the NUL in print.

// namedBinaryPeek is how much of a mapped file rg checks for a NUL before
// it searches (grep-searcher's buffer capacity).
const namedBinaryPeek = 64 << 10

// peekNUL is the offset of the first NUL in the first namedBinaryPeek
// bytes of the file at path, -1 none (or unreadable).
func peekNUL(path string) int64 {
	f, err := os.Open(path)
	if err != nil {
		return -1
	}
	defer f.Close()
	buf := make([]byte, namedBinaryPeek)
	n, _ := io.ReadFull(f, buf)
	return int64(bytes.IndexByte(buf[:n], 0))
}

// maxReadStopPrefix bounds the bytes read to replay rg's buffer fills up
// to a late NUL; past it no line of the file is printed, only the note.
const maxReadStopPrefix = 64 << 20

// namedBinary sets how s prints a named file whose first NUL is at nul:
// s.binaryOff is set when no line prints, else s.lateNUL or s.readStop
// says where lines stop.
func (s *rgSink) namedBinary(nul int64) {
	s.binaryOff, s.lateNUL, s.readStop, s.binaryDone = -1, false, -1, false
	switch {
	case nul < 0:
	case s.run.mapped && nul >= namedBinaryPeek:
		s.lateNUL = true
	case s.run.mapped:
		s.binaryOff = nul
	default:
		if stop := readStop(s.abs, nul); stop > 0 {
			s.readStop, s.firstNUL = stop, nul
		} else {
			s.binaryOff = nul
		}
	}
}

// binaryFrom reports whether the line at off, with text, is where rg
// notices the file's NUL: it and what follows are not printed, the note
// is (s.binaryOff is then set).
func (s *rgSink) binaryFrom(off int64, text []byte) bool {
	switch {
	case s.lateNUL:
		if i := bytes.IndexByte(text, 0); i >= 0 {
			s.binaryOff, s.lateNUL = off+int64(i), false
			return true
		}
	case s.readStop >= 0 && off >= s.readStop:
		s.binaryOff, s.readStop = s.firstNUL, -1
		return true
	}
	return false
}

// noticeReadNUL is, at the end of a file rg searches past NULs, where it
// read a NUL no printed line held: rg saw it when its buffer filled (a
// stream's window, or a file's fill past s.readStop), so its note follows
// the lines printed, unless -m stopped the reading before.
func (s *rgSink) noticeReadNUL() {
	r := s.run
	if st := s.t.stream; st != nil && r.std != nil {
		s.binaryOff = st.binaryOff
	}
	if s.readStop < 0 || (r.o.MaxCount != nil && s.lines >= int64(*r.o.MaxCount)) {
		return
	}
	s.binaryOff, s.readStop = s.firstNUL, -1
}

// namedBinaryDecoded is namedBinary for a file the search reads through a
// decoder (-z's decompression, -E's or a byte-order mark's transcoding),
// which open opens: rg never maps such a file, and looks for the NUL in
// the decoded bytes, which it reads in buffer fills. The fills are
// replayed as a file's (64 KiB each; a pipe from a decompressor can hand
// rg less at a time, which moves a late NUL's cut, never one in the first
// fill). The file is decoded once more here, as far as its first NUL.
func (s *rgSink) namedBinaryDecoded(open func() (io.ReadCloser, error)) {
	f, err := open()
	if err != nil {
		return // (the search reports it)
	}
	defer f.Close()
	stop, nul, _ := decodedReadStop(f)
	switch {
	case nul < 0:
	case stop > 0:
		s.readStop, s.firstNUL = stop, nul
	default:
		s.binaryOff = nul
	}
}

// decodedReadStop reads a decoded stream as far as its first NUL (nul,
// -1: none) and returns where rg's reads of it stop: the end of the
// complete lines its fills brought before the one with the NUL (0: none),
// and how many of those lines there are.
func decodedReadStop(f io.Reader) (stop, nul int64, lines int) {
	head, nul, first := readToNUL(f, maxReadStopPrefix)
	if nul < 0 {
		return 0, -1, 0
	}
	end := native.ReadStopAfter(head, int(nul), first)
	return int64(end), nul, bytes.Count(head[:end], []byte{'\n'})
}

// startsWithBOM says whether the file at path starts with a byte-order
// mark (UTF-8, UTF-16LE or UTF-16BE), which has rg read it through a
// decoder rather than map it.
func startsWithBOM(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var head [3]byte
	n, _ := io.ReadFull(f, head[:])
	mark, _ := byteOrderMark(head[:n])
	return mark > 0
}

// byteOrderMark is the length of the byte-order mark head starts with (0:
// none), and whether it is a UTF-16 one.
func byteOrderMark(head []byte) (n int, utf16 bool) {
	switch {
	case bytes.HasPrefix(head, []byte{0xEF, 0xBB, 0xBF}):
		return 3, false
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}), bytes.HasPrefix(head, []byte{0xFE, 0xFF}):
		return 2, true
	}
	return 0, false
}

// readCloser reads one thing and closes another (a decoder and its file).
type readCloser struct {
	io.Reader
	io.Closer
}

// readToNUL reads r up to and including its first NUL byte, at most limit
// bytes, and returns what it read, the NUL's offset (-1: none) and how
// much r's first read gave (rg's first read of a decoded stream is the
// few bytes its decoder peeked at, see ReadStopAfter).
func readToNUL(r io.Reader, limit int64) ([]byte, int64, int) {
	var head []byte
	buf := make([]byte, 64<<10)
	first := -1
	for int64(len(head)) < limit {
		n, err := r.Read(buf)
		if first < 0 && n > 0 {
			first = n
		}
		if i := bytes.IndexByte(buf[:n], 0); i >= 0 {
			head = append(head, buf[:i+1]...)
			return head, int64(len(head) - 1), max(first, 0)
		}
		head = append(head, buf[:n]...)
		if err != nil {
			break
		}
	}
	return nil, -1, 0
}

// readStop replays rg's buffer fills over the file at path up to its NUL
// at nul: the offset its printed lines end at (0: none print).
func readStop(path string, nul int64) int64 {
	if nul > maxReadStopPrefix {
		return 0
	}
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	data := make([]byte, nul+1)
	if _, err := io.ReadFull(f, data); err != nil {
		return 0
	}
	return int64(native.ReadStop(data, int(nul)))
}
