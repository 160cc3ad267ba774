package native

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/transform"
)

// decodeBOM applies rg's default encoding rule: a UTF-16 byte-order mark
// means the file is transcoded to UTF-8 (line numbers, columns and Bytes then
// refer to the UTF-8 text, as in rg's output), and a UTF-8 mark is dropped.
// Other data is searched as is. peek is how many bytes rg's first read
// returns (its BOM sniffer hands back the 3 sniffed bytes on their own),
// which binaryCut needs to place the NUL rule exactly.
func decodeBOM(data []byte) ([]byte, int) {
	switch {
	case bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}):
		return data[3:], 0
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}):
		return utf16ToUTF8(data[2:], false), 0
	case bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		return utf16ToUTF8(data[2:], true), 0
	}
	return data, 3
}

// utf16ToUTF8 transcodes UTF-16, replacing unpaired surrogates and a
// trailing odd byte with U+FFFD as encoding_rs (rg's decoder) does.
func utf16ToUTF8(b []byte, bigEndian bool) []byte {
	out := make([]byte, 0, len(b)+len(b)/2)
	unit := func(i int) rune {
		if bigEndian {
			return rune(b[i])<<8 | rune(b[i+1])
		}
		return rune(b[i+1])<<8 | rune(b[i])
	}
	i := 0
	for ; i+1 < len(b); i += 2 {
		r := unit(i)
		switch {
		case utf16.IsSurrogate(r) && r < 0xDC00 && i+3 < len(b):
			r2 := unit(i + 2)
			if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
				out = utf8.AppendRune(out, dec)
				i += 2
				continue
			}
			out = utf8.AppendRune(out, utf8.RuneError)
		case utf16.IsSurrogate(r):
			out = utf8.AppendRune(out, utf8.RuneError)
		default:
			out = utf8.AppendRune(out, r)
		}
	}
	if i < len(b) {
		out = utf8.AppendRune(out, utf8.RuneError)
	}
	return out
}

// utf16Decoder is a streaming UTF-16 to UTF-8 transformer with
// encoding_rs's replacement rules (an unpaired surrogate, or an odd byte
// at the end, becomes U+FFFD). Text that is mostly ASCII, as source code
// and logs are, goes a code unit at a time through a tight loop: x/text's
// general decoder made rg -E utf-16le four times slower than rg.
type utf16Decoder struct{ bigEndian bool }

func (d utf16Decoder) Reset() {}

func (d utf16Decoder) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	hi, lo := 1, 0
	if d.bigEndian {
		hi, lo = 0, 1
	}
	for nSrc+1 < len(src) {
		if src[nSrc+hi] == 0 && src[nSrc+lo] < utf8.RuneSelf {
			if nDst >= len(dst) {
				return nDst, nSrc, transform.ErrShortDst
			}
			dst[nDst] = src[nSrc+lo]
			nDst++
			nSrc += 2
			continue
		}
		r := rune(src[nSrc+hi])<<8 | rune(src[nSrc+lo])
		size := 2
		switch {
		case r >= 0xD800 && r < 0xDC00:
			if nSrc+3 >= len(src) && !atEOF {
				return nDst, nSrc, transform.ErrShortSrc // the pair may go on in the next chunk
			}
			r = utf8.RuneError
			if nSrc+3 < len(src) {
				r2 := rune(src[nSrc+2+hi])<<8 | rune(src[nSrc+2+lo])
				if r2 >= 0xDC00 && r2 < 0xE000 {
					r, size = utf16.DecodeRune(rune(src[nSrc+hi])<<8|rune(src[nSrc+lo]), r2), 4
				}
			}
		case r >= 0xDC00 && r < 0xE000:
			r = utf8.RuneError
		}
		if nDst+utf8.RuneLen(r) > len(dst) {
			return nDst, nSrc, transform.ErrShortDst
		}
		nDst += utf8.EncodeRune(dst[nDst:], r)
		nSrc += size
	}
	if nSrc < len(src) {
		if !atEOF {
			return nDst, nSrc, transform.ErrShortSrc
		}
		if nDst+3 > len(dst) {
			return nDst, nSrc, transform.ErrShortDst
		}
		nDst += utf8.EncodeRune(dst[nDst:], utf8.RuneError)
		nSrc++
	}
	return nDst, nSrc, nil
}

// utf8Replacer is rg -E utf-8: the bytes pass as they are, except that
// each maximal part of an invalid sequence becomes one U+FFFD, as
// encoding_rs (the WHATWG decoder) makes it: "\xe2\x82" (a sequence cut
// short) is one, "\xed\xa0\x80" (a surrogate) three, "\xc0\xaf" two.
// (Without -E, and with a UTF-8 byte-order mark, rg passes invalid bytes
// through unchanged.)
type utf8Replacer struct{}

func (utf8Replacer) Reset() {}

func (utf8Replacer) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	for nSrc < len(src) {
		c := src[nSrc]
		if c < utf8.RuneSelf {
			if nDst >= len(dst) {
				return nDst, nSrc, transform.ErrShortDst
			}
			dst[nDst] = c
			nDst++
			nSrc++
			continue
		}
		if !utf8.FullRune(src[nSrc:]) && !atEOF {
			return nDst, nSrc, transform.ErrShortSrc // the sequence may go on in the next chunk
		}
		r, size := utf8.DecodeRune(src[nSrc:])
		if r == utf8.RuneError && size == 1 {
			size = invalidUTF8Prefix(src[nSrc:])
		} else {
			r = -1 // valid (a genuine U+FFFD too): copied as it is
		}
		if r == -1 {
			if nDst+size > len(dst) {
				return nDst, nSrc, transform.ErrShortDst
			}
			nDst += copy(dst[nDst:], src[nSrc:nSrc+size])
		} else {
			if nDst+3 > len(dst) {
				return nDst, nSrc, transform.ErrShortDst
			}
			nDst += utf8.EncodeRune(dst[nDst:], utf8.RuneError)
		}
		nSrc += size
	}
	return nDst, nSrc, nil
}

// invalidUTF8Prefix is the length of the maximal part of an invalid UTF-8
// sequence at the start of b (at least 1): its lead byte and the
// continuation bytes that could still have made it valid.
func invalidUTF8Prefix(b []byte) int {
	lo, hi, need := byte(0x80), byte(0xBF), 0
	switch c := b[0]; {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c >= 0xE0 && c <= 0xEF:
		need = 2
		if c == 0xE0 {
			lo = 0xA0
		} else if c == 0xED {
			hi = 0x9F
		}
	case c >= 0xF0 && c <= 0xF4:
		need = 3
		if c == 0xF0 {
			lo = 0x90
		} else if c == 0xF4 {
			hi = 0x8F
		}
	}
	n := 1
	for ; n <= need && n < len(b); n++ {
		if b[n] < lo || b[n] > hi {
			break
		}
		lo, hi = 0x80, 0xBF
	}
	return n
}
