package archive

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
)

// maxXZDict caps the LZMA2 dictionary an xz block may ask for. The decoder
// allocates the dictionary up front, so a 200-byte .xz declaring 1.5 GiB
// costs 1.5 GiB of address space (and can kill a 32-bit process).
// xz -9 uses 64 MiB; ripgrep and Debian packages use xz -6 (8 MiB).
const maxXZDict = 64 << 20

// maxXZIndex caps an xz index read into memory.
const maxXZIndex = 1 << 20

var xzHeaderMagic = []byte{0xfd, '7', 'z', 'X', 'Z', 0}

// checkXZ walks the xz file r backwards, stream by stream, through the
// stream footers and indexes, and refuses it before any decoding when a
// block asks for a dictionary over maxXZDict or the indexes declare more
// decompressed bytes than the total cap. It trusts the index for block
// positions; the decoder later checks the index against the real blocks, so
// a lying index is still an error, just a later one.
func (s *selector) checkXZ(r io.ReaderAt, size int64) error {
	var total int64
	blocks := 0
	for pos := size; pos > 0; {
		var err error
		if pos, err = skipXZPadding(r, pos); err != nil {
			return s.corrupt("", err)
		}
		if pos == 0 {
			break
		}
		if pos < 24 {
			return xzCorrupt("file too short for an xz stream")
		}
		footer := make([]byte, 12)
		if _, err := r.ReadAt(footer, pos-12); err != nil {
			return s.corrupt("", err)
		}
		if footer[10] != 'Y' || footer[11] != 'Z' || crc32.ChecksumIEEE(footer[4:10]) != binary.LittleEndian.Uint32(footer) {
			return xzCorrupt("bad stream footer (truncated?)")
		}
		indexSize := (int64(binary.LittleEndian.Uint32(footer[4:8])) + 1) * 4
		indexStart := pos - 12 - indexSize
		if indexStart < 12 || indexSize > maxXZIndex {
			return xzCorrupt("index size out of range")
		}
		index := make([]byte, indexSize)
		if _, err := r.ReadAt(index, indexStart); err != nil {
			return s.corrupt("", err)
		}
		records, err := parseXZIndex(index)
		if err != nil {
			return err
		}
		var blocksSize int64
		for _, rec := range records {
			blocksSize += (rec.unpadded + 3) &^ 3
			total += rec.uncompressed
			if blocksSize < 0 || total < 0 {
				return xzCorrupt("index sizes overflow")
			}
		}
		if total > s.lim.MaxTotal {
			return &Error{Kind: TooLarge, Detail: fmt.Sprintf("xz index declares %d decompressed bytes, over the total cap %d", total, s.lim.MaxTotal)}
		}
		streamStart := indexStart - blocksSize - 12
		if streamStart < 0 {
			return xzCorrupt("index describes more data than the file holds")
		}
		header := make([]byte, 12)
		if _, err := r.ReadAt(header, streamStart); err != nil {
			return s.corrupt("", err)
		}
		if !bytes.Equal(header[:6], xzHeaderMagic) || !bytes.Equal(header[6:8], footer[8:10]) {
			return xzCorrupt("stream header does not match its footer")
		}
		off := streamStart + 12
		for _, rec := range records {
			if blocks++; blocks > s.lim.MaxEntries {
				return &Error{Kind: TooManyEntries, Detail: fmt.Sprintf("more than %d xz blocks", s.lim.MaxEntries)}
			}
			if err := checkXZBlockHeader(r, off); err != nil {
				return err
			}
			off += (rec.unpadded + 3) &^ 3
		}
		pos = streamStart
	}
	return nil
}

// skipXZPadding steps back over stream padding (zero bytes in fours).
func skipXZPadding(r io.ReaderAt, pos int64) (int64, error) {
	var word [4]byte
	for pos >= 4 {
		if _, err := r.ReadAt(word[:], pos-4); err != nil {
			return 0, err
		}
		if word != [4]byte{} {
			break
		}
		pos -= 4
	}
	return pos, nil
}

// xzRecord is one index record.
type xzRecord struct{ unpadded, uncompressed int64 }

// parseXZIndex parses an xz index (indicator, count, records, padding, CRC32).
func parseXZIndex(b []byte) ([]xzRecord, error) {
	if len(b) < 8 || b[0] != 0 {
		return nil, xzCorrupt("bad index indicator")
	}
	if crc32.ChecksumIEEE(b[:len(b)-4]) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return nil, xzCorrupt("index CRC mismatch")
	}
	p := 1
	n, err := xzVarint(b, &p)
	if err != nil || n > uint64(len(b)/2) {
		return nil, xzCorrupt("bad index record count")
	}
	records := make([]xzRecord, 0, n)
	for range n {
		unpadded, err1 := xzVarint(b, &p)
		uncompressed, err2 := xzVarint(b, &p)
		if err1 != nil || err2 != nil || unpadded < 5 || unpadded > 1<<62 || uncompressed > 1<<62 {
			return nil, xzCorrupt("bad index record")
		}
		records = append(records, xzRecord{int64(unpadded), int64(uncompressed)})
	}
	return records, nil
}

// checkXZBlockHeader reads the block header at off and checks its LZMA2
// dictionary size.
func checkXZBlockHeader(r io.ReaderAt, off int64) error {
	var first [1]byte
	if _, err := r.ReadAt(first[:], off); err != nil {
		return xzCorrupt("block header out of the file")
	}
	if first[0] == 0 {
		return xzCorrupt("index where a block header should be")
	}
	h := make([]byte, (int(first[0])+1)*4)
	if _, err := r.ReadAt(h, off); err != nil {
		return xzCorrupt("block header out of the file")
	}
	if crc32.ChecksumIEEE(h[:len(h)-4]) != binary.LittleEndian.Uint32(h[len(h)-4:]) {
		return xzCorrupt("block header CRC mismatch")
	}
	body := h[:len(h)-4]
	flags := body[1]
	p := 2
	for _, bit := range []byte{0x40, 0x80} { // compressed, uncompressed size
		if flags&bit != 0 {
			if _, err := xzVarint(body, &p); err != nil {
				return err
			}
		}
	}
	for range int(flags&3) + 1 {
		id, err1 := xzVarint(body, &p)
		propsSize, err2 := xzVarint(body, &p)
		if err1 != nil || err2 != nil || propsSize > uint64(len(body)-p) {
			return xzCorrupt("bad filter flags")
		}
		props := body[p : p+int(propsSize)]
		p += int(propsSize)
		if id != 0x21 { // not LZMA2: the decoder refuses what it cannot do
			continue
		}
		if len(props) != 1 || props[0]&0x3f > 40 {
			return xzCorrupt("bad LZMA2 properties")
		}
		if dict := lzma2Dict(props[0] & 0x3f); dict > maxXZDict {
			return &Error{Kind: TooLarge, Detail: fmt.Sprintf("xz block asks for a %d MiB dictionary, over the %d MiB cap", dict>>20, maxXZDict>>20)}
		}
	}
	return nil
}

// lzma2Dict decodes an LZMA2 dictionary-size byte (0..40).
func lzma2Dict(bits byte) int64 {
	if bits == 40 {
		return 1<<32 - 1
	}
	return int64(2|bits&1) << (bits/2 + 11)
}

// xzVarint reads a multibyte integer (7 bits per byte, at most 9 bytes).
func xzVarint(b []byte, p *int) (uint64, error) {
	var v uint64
	for i := 0; i < 9; i++ {
		if *p >= len(b) {
			return 0, xzCorrupt("truncated integer")
		}
		c := b[*p]
		*p++
		v |= uint64(c&0x7f) << (7 * i)
		if c&0x80 == 0 {
			if c == 0 && i > 0 {
				return 0, xzCorrupt("non-minimal integer")
			}
			return v, nil
		}
	}
	return 0, xzCorrupt("integer too long")
}

func xzCorrupt(detail string) error {
	return &Error{Kind: Corrupt, Detail: "xz: " + detail}
}
