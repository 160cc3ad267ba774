package native

import "bytes"

// rgBufferSize is grep-searcher's initial buffer capacity
// (DEFAULT_BUFFER_CAPACITY, 64 KiB).
const rgBufferSize = 64 << 10

// binaryCut applies rg's rule for binary data in a recursive search, and
// returns how much of data is searched. Without a NUL byte, everything.
// With one, rg reads the file in buffer fills; it searches the complete
// lines of each fill, and quits as soon as a fill brings in a NUL, without
// searching that fill. So a match on the line before a NUL is reported only
// when the NUL arrived in a later fill. This replays rg's fills: a first
// read of peek bytes (the BOM sniffer's), then reads filling a 64 KiB
// buffer that rolls the unfinished line to its front and grows (by twice
// its size) when one line fills it. rg keeps -B context lines in the buffer
// too; that shifts fills by a few lines and is not replayed.
func binaryCut(data []byte, peek, nul int) (int, bool) {
	if nul < 0 {
		return len(data), false
	}
	f := rgFills{data: data, capacity: rgBufferSize, peek: peek, nul: nul}
	for f.next() {
	}
	return f.searched, true
}

// rgFills replays rg's buffer fills over data (see binaryCut).
type rgFills struct {
	data     []byte
	capacity int
	end      int // the bytes read so far
	searched int // the end of the complete lines read so far
	peek     int // the first read's size (0: none)
	nul      int // a read that brings in data[nul] ends the fills; -1 none
}

// next reads one fill: the bytes up to and including a line end, the
// lines before searched then being searched. It is false once a read
// brought in the NUL (searched is then where rg stopped) or nothing is
// left.
func (f *rgFills) next() bool {
	for {
		if f.end-f.searched >= f.capacity {
			f.capacity *= 3
		}
		want := f.capacity - (f.end - f.searched)
		if f.peek > 0 {
			want, f.peek = min(want, f.peek), 0
		}
		newEnd := min(f.end+want, len(f.data))
		if f.nul >= 0 && f.nul < newEnd {
			return false
		}
		if i := bytes.LastIndexByte(f.data[f.end:newEnd], '\n'); i >= 0 {
			f.searched, f.end = f.end+i+1, newEnd
			return true
		}
		f.end = newEnd
		if newEnd == len(f.data) {
			// The last line, without a line end.
			done := f.searched == newEnd
			f.searched = newEnd
			return !done
		}
	}
}

// convertNUL returns data with every NUL turned into '\n' (a copy; data is
// not modified), and whether there was one: rg's binary "convert" mode.
func convertNUL(data []byte) ([]byte, bool) {
	i := bytes.IndexByte(data, 0)
	if i < 0 {
		return data, false
	}
	out := bytes.Clone(data)
	for i >= 0 {
		out[i] = '\n'
		j := bytes.IndexByte(out[i+1:], 0)
		if j < 0 {
			break
		}
		i += j + 1
	}
	return out, true
}

// multilineBinaryCut is rg's binary rule in multiline mode, where it reads
// the whole file at once and looks for a NUL in the first 64 KiB only: a NUL
// there means the file is skipped (nothing searched); a later NUL is
// searched through like any byte, and the file is not binary.
func multilineBinaryCut(data []byte) (int, bool) {
	if bytes.IndexByte(data[:min(len(data), rgBufferSize)], 0) >= 0 {
		return 0, true
	}
	return len(data), false
}

// indexNUL is the offset of data's first NUL, or -1; with release set it
// looks at one window at a time and releases each it has looked at.
func indexNUL(data []byte, release func(int)) int {
	if release == nil || len(data) <= 2*releaseWindow {
		return bytes.IndexByte(data, 0)
	}
	for at := 0; at < len(data); at += releaseWindow {
		end := min(at+releaseWindow, len(data))
		if i := bytes.IndexByte(data[at:end], 0); i >= 0 {
			return at + i
		}
		release(end)
	}
	return -1
}

// FillEnd is where the complete lines of rg's buffer fill that holds
// offset off end, for a file rg reads whose data begins with head: its
// first read is the byte-order-mark sniffer's few bytes, then fills of
// 64 KiB roll the unfinished line over (see binaryCut). head need hold
// the file's start only as far as the answer matters: past its end it is
// taken for the file's.
func FillEnd(head []byte, off int) int {
	_, peek := decodeBOM(head[:min(len(head), 3)])
	f := rgFills{data: head, capacity: rgBufferSize, peek: peek, nul: -1}
	for f.searched <= off && f.next() {
	}
	return f.searched
}

// ReadStop is how much of data (a file's contents whose first NUL byte
// is at nul) rg searches when it reads the file in buffer fills rather
// than mapping it, in the mode where it searches past NULs (a file named
// among more than ten paths, or beside a directory): the complete lines
// of the fills before the one that brings the NUL in. It prints their
// matches, then its note that the file is binary.
func ReadStop(data []byte, nul int) int {
	_, peek := decodeBOM(data[:min(len(data), 3)])
	return ReadStopAfter(data, nul, peek)
}

// ReadStopAfter is ReadStop for a stream rg reads through its decoder
// (-z, -E), whose first read brought first bytes: the decoded text of the
// few bytes its byte-order-mark sniffer peeked at.
func ReadStopAfter(data []byte, nul, first int) int {
	end, _ := binaryCut(data, first, nul)
	return end
}
