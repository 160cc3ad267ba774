package textenc

import (
	"sync"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/transform"
)

// doubleByte is Shift_JIS or Big5 decoded as the WHATWG Encoding Standard
// says, and as encoding_rs (rg's decoder) does: after a lead byte, a byte
// that makes no character with it is an error (U+FFFD) and, when it is
// ASCII, is read again as a character of its own. x/text swallows it, so
// "\x86q" read as Shift_JIS lost its "q" ("�uations" for "Æquations" in
// UTF-8 text read with -E sjis). The characters themselves are x/text's:
// each lead and trail pair is decoded once with it into a table.
type doubleByte struct {
	base encoding.Encoding
	kind dbKind
}

type dbKind int8

const (
	shiftJIS dbKind = iota
	big5
)

func (e doubleByte) NewDecoder() *encoding.Decoder {
	return &encoding.Decoder{Transformer: &dbDecoder{kind: e.kind, table: dbTable(e.kind, e.base)}}
}

func (e doubleByte) NewEncoder() *encoding.Encoder { return e.base.NewEncoder() }

// dbPairs is a pair table: the text of the pair at pointer p (see
// pointer), "" when the pair makes no character.
type dbPairs []string

var dbTables [2]struct {
	once  sync.Once
	pairs dbPairs
}

// dbTable builds kind's pair table once, from x/text's decoder.
func dbTable(kind dbKind, base encoding.Encoding) dbPairs {
	t := &dbTables[kind]
	t.once.Do(func() {
		t.pairs = make(dbPairs, 126*191)
		dec := base.NewDecoder()
		for lead := 0x81; lead <= 0xFE; lead++ {
			for trail := 0x40; trail <= 0xFE; trail++ {
				p, ok := pointer(kind, byte(lead), byte(trail))
				if !ok {
					continue
				}
				out, err := dec.Bytes([]byte{byte(lead), byte(trail)})
				if err == nil && len(out) > 0 && !containsFFFD(out) {
					t.pairs[p] = string(out)
				}
			}
		}
	})
	return t.pairs
}

func containsFFFD(b []byte) bool {
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError {
			return true
		}
		b = b[n:]
	}
	return false
}

// isLead reports a byte that starts a pair.
func isLead(kind dbKind, b byte) bool {
	if kind == shiftJIS {
		return (b >= 0x81 && b <= 0x9F) || (b >= 0xE0 && b <= 0xFC)
	}
	return b >= 0x81 && b <= 0xFE
}

// pointer is the standard's index pointer of a lead and trail byte; false
// when the trail byte is outside the encoding's trail ranges.
func pointer(kind dbKind, lead, trail byte) (int, bool) {
	if !isLead(kind, lead) {
		return 0, false
	}
	if kind == shiftJIS {
		if !(trail >= 0x40 && trail <= 0x7E || trail >= 0x80 && trail <= 0xFC) {
			return 0, false
		}
		offset, leadOffset := 0x41, 0xC1
		if trail < 0x7F {
			offset = 0x40
		}
		if lead < 0xA0 {
			leadOffset = 0x81
		}
		return (int(lead)-leadOffset)*188 + int(trail) - offset, true
	}
	if !(trail >= 0x40 && trail <= 0x7E || trail >= 0xA1 && trail <= 0xFE) {
		return 0, false
	}
	offset := 0x62
	if trail < 0x7F {
		offset = 0x40
	}
	return (int(lead)-0x81)*157 + int(trail) - offset, true
}

// dbDecoder decodes byte by byte, holding a lead byte across calls.
type dbDecoder struct {
	kind  dbKind
	table dbPairs
	lead  byte // 0: none
}

func (d *dbDecoder) Reset() { d.lead = 0 }

const replacement = "\uFFFD"

func (d *dbDecoder) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	put := func(s string) bool {
		if nDst+len(s) > len(dst) {
			return false
		}
		nDst += copy(dst[nDst:], s)
		return true
	}
	for nSrc < len(src) {
		b := src[nSrc]
		if d.lead != 0 {
			text := ""
			if p, ok := pointer(d.kind, d.lead, b); ok {
				if d.kind == shiftJIS && p >= 8836 && p <= 10715 {
					text = string(rune(0xE000 - 8836 + p)) // the standard's private use range
				} else if p < len(d.table) {
					text = d.table[p]
				}
			}
			if text == "" {
				text = replacement
			}
			if !put(text) {
				return nDst, nSrc, transform.ErrShortDst
			}
			d.lead = 0
			if text == replacement && b < utf8.RuneSelf {
				continue // an ASCII byte is read again, on its own
			}
			nSrc++
			continue
		}
		var text string
		switch {
		case b < utf8.RuneSelf || (d.kind == shiftJIS && b == 0x80):
			text = string(rune(b))
		case d.kind == shiftJIS && b >= 0xA1 && b <= 0xDF:
			text = string(rune(0xFF61 + int(b) - 0xA1)) // halfwidth katakana
		case isLead(d.kind, b):
			d.lead = b
			nSrc++
			continue
		default:
			text = replacement
		}
		if !put(text) {
			return nDst, nSrc, transform.ErrShortDst
		}
		nSrc++
	}
	if atEOF && d.lead != 0 {
		if !put(replacement) {
			return nDst, nSrc, transform.ErrShortDst
		}
		d.lead = 0
	}
	return nDst, nSrc, nil
}
