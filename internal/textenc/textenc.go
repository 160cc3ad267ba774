// Package textenc reads rg's -E/--encoding labels: the WHATWG Encoding
// Standard's labels (rg looks them up with encoding_rs, x/text's htmlindex
// reads the same table), plus rg's own "auto" and "none". The search
// contract validates a Query's Encoding with it, the native engine decodes
// with it and the command line parser words its error from it.
package textenc

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/transform"
)

// Mode is what an encoding label asks for.
type Mode int

const (
	// Auto: no label, or "auto": only a byte-order mark (UTF-8, UTF-16LE,
	// UTF-16BE) changes how a file is read (rg's default).
	Auto Mode = iota
	// None: "none": the bytes are searched as they are, a BOM included.
	None
	// Label: a WHATWG label; a BOM still overrides it, as in rg.
	Label
)

// Encoding is a looked-up label.
type Encoding struct {
	Mode Mode
	// Name is the encoding's WHATWG name ("utf-16le", "windows-1252"); set
	// for Label.
	Name string
	// Enc decodes it to UTF-8; nil for Auto, None and UTF-8 (whose bytes
	// rg passes through unchecked).
	Enc encoding.Encoding
}

// UnknownError is a label that names no encoding. Its message is rg's.
type UnknownError struct{ Label string }

func (e *UnknownError) Error() string {
	return fmt.Sprintf("grep config error: unknown encoding: %s", e.Label)
}

// ErrUnknown matches every *UnknownError.
var ErrUnknown = errors.New("unknown encoding")

// Is lets errors.Is(err, ErrUnknown) match.
func (e *UnknownError) Is(target error) bool { return target == ErrUnknown }

// Lookup reads a label as rg does: "" and "auto" are Auto, "none" is None
// (both exact, as rg compares them), anything else a WHATWG label matched
// without regard to case or surrounding ASCII white space. The labels of
// the "replacement" encoding (iso-2022-kr, hz-gb-2312, ...) are unknown to
// rg, as to encoding_rs's for_label_no_replacement.
func Lookup(label string) (Encoding, error) {
	switch label {
	case "", "auto":
		return Encoding{Mode: Auto}, nil
	case "none":
		return Encoding{Mode: None}, nil
	}
	e, err := htmlindex.Get(label)
	if err != nil || e == encoding.Replacement || strings.EqualFold(strings.TrimSpace(label), "replacement") {
		return Encoding{}, &UnknownError{Label: label}
	}
	name, err := htmlindex.Name(e)
	if err != nil {
		return Encoding{}, &UnknownError{Label: label}
	}
	out := Encoding{Mode: Label, Name: name}
	switch name {
	case "utf-8":
	case "windows-1252":
		out.Enc = windows1252{}
	case "shift_jis":
		out.Enc = doubleByte{base: e, kind: shiftJIS}
	case "big5":
		out.Enc = doubleByte{base: e, kind: big5}
	default:
		out.Enc = e
	}
	return out, nil
}

// windows1252 is the WHATWG windows-1252 (rg's latin1, iso-8859-1, ascii,
// ...) as encoding_rs decodes it: x/text reads the five bytes its table
// leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) as U+FFFD, where the
// standard, and rg, reads them as the C1 controls of the same number.
type windows1252 struct{}

func (windows1252) NewDecoder() *encoding.Decoder {
	return &encoding.Decoder{Transformer: windows1252Decoder{}}
}

func (windows1252) NewEncoder() *encoding.Encoder { return charmap.Windows1252.NewEncoder() }

// windows1252Decoder decodes byte by byte (each byte is one character).
type windows1252Decoder struct{ transform.NopResetter }

func (windows1252Decoder) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	for nSrc < len(src) {
		b := src[nSrc]
		if b < utf8.RuneSelf {
			if nDst >= len(dst) {
				return nDst, nSrc, transform.ErrShortDst
			}
			dst[nDst] = b
			nDst++
			nSrc++
			continue
		}
		r := charmap.Windows1252.DecodeByte(b)
		if r == utf8.RuneError {
			r = rune(b) // an undefined byte: its C1 control
		}
		if nDst+utf8.RuneLen(r) > len(dst) {
			return nDst, nSrc, transform.ErrShortDst
		}
		nDst += utf8.EncodeRune(dst[nDst:], r)
		nSrc++
	}
	return nDst, nSrc, nil
}
