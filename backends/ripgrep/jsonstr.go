package ripgrep

import (
	"encoding/binary"
	"unicode/utf16"
	"unicode/utf8"
)

// rgStr is a decoded string kept up to a limit: b holds the first bytes,
// n counts them all, tail holds the last four (for the line terminator, or
// the last base64 quantum), after zeros when there are fewer.
type rgStr struct {
	set  bool
	b    []byte
	n    int64
	tail [4]byte
}

func (s *rgStr) reset() { s.set, s.b, s.n, s.tail = false, s.b[:0], 0, [4]byte{} }

// write appends p to s within limit (< 0 = no limit) and counts it.
func (s *rgStr) write(p []byte, limit int) {
	if len(p) == 0 {
		return
	}
	s.n += int64(len(p))
	keep := p
	if room := limit - len(s.b); limit >= 0 && room < len(p) {
		keep = p[:max(room, 0)]
	}
	if len(s.b)+len(keep) > cap(s.b) {
		// Doubling: append's gentler growth for large slices leaves about
		// four times the final size as garbage behind a 50 MB line.
		b := make([]byte, len(s.b), max(2*cap(s.b), len(s.b)+len(keep), 64))
		copy(b, s.b)
		s.b = b
	}
	s.b = append(s.b, keep...)
	if len(p) >= 4 {
		copy(s.tail[:], p[len(p)-4:])
	} else {
		copy(s.tail[:], s.tail[len(p):])
		copy(s.tail[4-len(p):], p)
	}
}

// strPlain marks the bytes a string can hold without a second look.
var strPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// base64Char marks base64's standard alphabet and its padding.
var base64Char = func() (t [256]bool) {
	for _, c := range "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=" {
		t[c] = true
	}
	return t
}()

// plain8 reports whether the eight bytes of w are all strPlain: none is a
// control character, '"', '\\' or a byte >= 0x80. (A borrow can only make
// it answer false after a byte that is not plain, which the byte loop then
// handles.)
func plain8(w uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	zero := func(x uint64) uint64 { return (x - ones) & ^x & highs }
	return (w|(w-0x20*ones)|zero(w^'"'*ones)|zero(w^'\\'*ones))&highs == 0
}

var replacement = []byte(string(utf8.RuneError))

// str decodes a JSON string into dst (reset first), keeping at most limit
// bytes (< 0 = all) and counting the rest. b64 checks the content is base64
// as it streams (the kept part is decoded later).
func (d *rgDecoder) str(dst *rgStr, limit int, b64 bool) error {
	dst.reset()
	if err := d.expect('"'); err != nil {
		return err
	}
	for {
		start := d.i
		for d.i+8 <= d.n && plain8(binary.LittleEndian.Uint64(d.buf[d.i:])) {
			d.i += 8
		}
		for d.i < d.n && strPlain[d.buf[d.i]] {
			d.i++
		}
		// base64 that is kept is checked when it is decoded (rgData.raw);
		// what is only counted is checked here.
		if b64 && limit >= 0 && dst.n+int64(d.i-start) > int64(limit) {
			// (only the counted part: the kept part is checked later,
			// wherever the read buffer happened to split the string)
			from := start + min(max(0, limit-len(dst.b)), d.i-start)
			for _, c := range d.buf[from:d.i] {
				if !base64Char[c] {
					return d.fail("invalid base64 in \"bytes\"")
				}
			}
		}
		dst.write(d.buf[start:d.i], limit)
		if d.i == d.n {
			if !d.fill() {
				return d.eof()
			}
			continue
		}
		switch c := d.buf[d.i]; {
		case c == '"':
			d.i++
			return nil
		case c == '\\':
			if err := d.escape(dst, limit); err != nil {
				return err
			}
		case c < 0x20:
			return d.fail("control character %q in a string", c)
		default: // >= 0x80: one UTF-8 sequence, or U+FFFD for an invalid one
			d.ensure(utf8.UTFMax)
			r, size := utf8.DecodeRune(d.buf[d.i:d.n])
			if r == utf8.RuneError && size == 1 {
				dst.write(replacement, limit)
			} else {
				dst.write(d.buf[d.i:d.i+size], limit)
			}
			d.i += size
			if b64 && limit >= 0 && dst.n > int64(limit) {
				return d.fail("invalid base64 in \"bytes\"")
			}
		}
	}
}

// escape decodes one backslash escape (at d.i) into dst.
func (d *rgDecoder) escape(dst *rgStr, limit int) error {
	if !d.ensure(2) {
		return d.eof()
	}
	e := d.buf[d.i+1]
	var one [1]byte
	switch e {
	case '"', '\\', '/':
		one[0] = e
	case 'b':
		one[0] = '\b'
	case 'f':
		one[0] = '\f'
	case 'n':
		one[0] = '\n'
	case 'r':
		one[0] = '\r'
	case 't':
		one[0] = '\t'
	case 'u':
		r, ok := d.hex4(2)
		if !ok {
			return d.fail("invalid \\u escape")
		}
		d.i += 6
		if utf16.IsSurrogate(r) {
			// A valid pair is one character; anything else makes the
			// first half U+FFFD and leaves what follows to be read on
			// its own (encoding/json's rule).
			if d.ensure(6) && d.buf[d.i] == '\\' && d.buf[d.i+1] == 'u' {
				if r2, ok := d.hex4(2); ok {
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						d.i += 6
						r = dec
					}
				}
			}
			if utf16.IsSurrogate(r) {
				r = utf8.RuneError
			}
		}
		var enc [utf8.UTFMax]byte
		dst.write(enc[:utf8.EncodeRune(enc[:], r)], limit)
		return nil
	default:
		return d.fail("invalid escape \\%c", e)
	}
	d.i += 2
	dst.write(one[:], limit)
	return nil
}

// hex4 reads four hex digits at buf[d.i+skip:].
func (d *rgDecoder) hex4(skip int) (rune, bool) {
	if !d.ensure(skip + 4) {
		return 0, false
	}
	var r rune
	for _, c := range d.buf[d.i+skip : d.i+skip+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
