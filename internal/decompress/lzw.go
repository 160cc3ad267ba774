package decompress

import (
	"bufio"
	"errors"
	"io"
)

// lzwReader decodes Unix compress (.Z) data, the format rg hands to
// `uncompress -c`: LZW with codes of 9 up to maxbits bits packed low bit
// first, a clear code (256) in block mode, and compress's quirk of
// writing codes in groups of eight: when the code width grows, or after a
// clear, the rest of the current group (width × 8 bits) is padding.
// Go's compress/lzw reads the GIF/TIFF variant, which has neither.
type lzwReader struct {
	r       *bufio.Reader
	bits    uint64 // pending input bits, low first
	nbits   uint
	group   uint // bits read since the code width last changed
	width   uint // current code width
	maxBits uint
	block   bool
	maxCode int // the largest code the current width can hold
	free    int // next table entry
	old     int // previous code, -1 at the start
	fin     byte
	prefix  []uint16
	suffix  []byte
	stack   []byte // a decoded string, reversed
	out     []byte // decoded, not yet read
	err     error
}

const lzwClear = 256

var errLZWCorrupt = errors.New("corrupt input")

func newLZWReader(r *bufio.Reader) (*lzwReader, error) {
	hdr := make([]byte, 3)
	if _, err := io.ReadFull(r, hdr); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	if hdr[0] != 0x1f || hdr[1] != 0x9d {
		return nil, errors.New("not in compress format")
	}
	maxBits := uint(hdr[2] & 0x1f)
	if maxBits < 9 || maxBits > 16 {
		return nil, errors.New("compressed with more than 16 bits")
	}
	z := &lzwReader{r: r, width: 9, maxBits: maxBits, block: hdr[2]&0x80 != 0, old: -1,
		prefix: make([]uint16, 1<<maxBits), suffix: make([]byte, 1<<maxBits)}
	z.maxCode = 1<<9 - 1
	z.free = 256
	if z.block {
		z.free = 257
	}
	for i := range 256 {
		z.suffix[i] = byte(i)
	}
	return z, nil
}

// code reads the next code; ok is false at the end of the input.
func (z *lzwReader) code() (int, bool, error) {
	for z.nbits < z.width {
		b, err := z.r.ReadByte()
		if err == io.EOF {
			return 0, false, nil // trailing bits short of a code are padding
		}
		if err != nil {
			return 0, false, err
		}
		z.bits |= uint64(b) << z.nbits
		z.nbits += 8
	}
	c := int(z.bits & (1<<z.width - 1))
	z.bits >>= z.width
	z.nbits -= z.width
	z.group += z.width
	return c, true, nil
}

// skipGroup drops the padding up to the end of the current group of
// eight codes.
func (z *lzwReader) skipGroup() error {
	g := z.width * 8
	for skip := (g - z.group%g) % g; skip > 0; {
		if z.nbits == 0 {
			b, err := z.r.ReadByte()
			if err == io.EOF {
				break
			}
			if err != nil {
				return err
			}
			z.bits, z.nbits = uint64(b), 8
		}
		n := min(skip, z.nbits)
		z.bits >>= n
		z.nbits -= n
		skip -= n
	}
	z.group = 0
	return nil
}

func (z *lzwReader) Read(p []byte) (int, error) {
	for len(z.out) == 0 && z.err == nil {
		z.err = z.step()
	}
	n := copy(p, z.out)
	z.out = z.out[n:]
	if len(z.out) == 0 && z.err != nil {
		return n, z.err
	}
	return n, nil
}

// step decodes one code into z.out.
func (z *lzwReader) step() error {
	if z.free > z.maxCode && z.width < z.maxBits {
		if err := z.skipGroup(); err != nil {
			return err
		}
		z.width++
		z.maxCode = 1<<z.width - 1
		if z.width == z.maxBits {
			z.maxCode = 1 << z.width
		}
	}
	c, ok, err := z.code()
	if err != nil {
		return err
	}
	if !ok {
		return io.EOF
	}
	if z.old < 0 {
		if c >= 256 {
			return errLZWCorrupt
		}
		z.old, z.fin = c, byte(c)
		z.out = append(z.out[:0], byte(c))
		return nil
	}
	if c == lzwClear && z.block {
		if err := z.skipGroup(); err != nil {
			return err
		}
		z.free = 256
		z.width = 9
		z.maxCode = 1<<9 - 1
		return nil
	}
	in := c
	z.stack = z.stack[:0]
	if c >= z.free {
		if c > z.free {
			return errLZWCorrupt
		}
		z.stack = append(z.stack, z.fin)
		c = z.old
	}
	for c >= 256 {
		z.stack = append(z.stack, z.suffix[c])
		c = int(z.prefix[c])
	}
	z.fin = z.suffix[c]
	z.stack = append(z.stack, z.fin)
	z.out = z.out[:0]
	for i := len(z.stack) - 1; i >= 0; i-- {
		z.out = append(z.out, z.stack[i])
	}
	if z.free < 1<<z.maxBits {
		z.prefix[z.free] = uint16(z.old)
		z.suffix[z.free] = z.fin
		z.free++
	}
	z.old = in
	return nil
}
