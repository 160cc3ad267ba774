package textenc

import (
	"bytes"
	"io"
	"testing"
	"testing/iotest"

	"golang.org/x/text/transform"
)

// TestDoubleByteDecodesAsTheStandard: Shift_JIS and Big5 decode as the
// WHATWG standard (and encoding_rs, rg's decoder) says, read whole and one
// byte at a time: a lead byte with a trail that makes no character is one
// U+FFFD, and an ASCII trail is read again on its own (x/text swallowed
// it).
func TestDoubleByteDecodesAsTheStandard(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ label, in, want string }{
		{"sjis", "\x82\xa0", "あ"},
		{"sjis", "\x86q", "\uFFFDq"},                    // no character: 'q' is read again
		{"sjis", "\xc3\x86quations", "ﾃ\uFFFDquations"}, // UTF-8 "Æquations" read as Shift_JIS
		{"sjis", "\x81\x0a", "\uFFFD\n"},
		{"sjis", "\x85\x80", "\uFFFD"}, // a non-ASCII trail goes with the error
		{"sjis", "\xf0\x40", "\ue000"}, // the standard's private use range
		{"sjis", "\xb1", "ｱ"},          // halfwidth katakana
		{"sjis", "\x80\xa0\xfd", "\u0080\uFFFD\uFFFD"},
		{"sjis", "a\x82", "a\uFFFD"}, // a lead byte at the end
		{"big5", "\xa4\x40", "一"},
		{"big5", "\x81A", "\uFFFDA"},
		{"big5", "\xa4\x7f", "\uFFFD\x7f"},
		{"big5", "\x88\x62", "\u00CA\u0304"}, // one pair, two characters
		{"big5", "\xff", "\uFFFD"},
	} {
		t.Run(tt.label+" "+tt.in, func(t *testing.T) {
			t.Parallel()
			e, err := Lookup(tt.label)
			if err != nil {
				t.Fatal(err)
			}
			whole, _, err := transform.Bytes(e.Enc.NewDecoder(), []byte(tt.in))
			if err != nil || string(whole) != tt.want {
				t.Errorf("decoded %q, %v; want %q", whole, err, tt.want)
			}
			bytewise, err := io.ReadAll(e.Enc.NewDecoder().Reader(iotest.OneByteReader(bytes.NewReader([]byte(tt.in)))))
			if err != nil || string(bytewise) != tt.want {
				t.Errorf("decoded a byte at a time %q, %v; want %q", bytewise, err, tt.want)
			}
		})
	}
}
