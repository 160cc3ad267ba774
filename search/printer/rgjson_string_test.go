package printer

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestJSONStringEscapesAsSerde: appendJSONString escapes exactly what
// serde_json (rg's JSON writer) escapes: '"' and '\\' with a backslash,
// \b \f \n \r \t short, every other control character as \u00XX, and
// nothing else (not DEL, not '/', not bytes past ASCII); the result is a
// JSON string that reads back as the input.
func TestJSONStringEscapesAsSerde(t *testing.T) {
	t.Parallel()
	short := map[byte]string{'"': `\"`, '\\': `\\`, '\b': `\b`, '\f': `\f`, '\n': `\n`, '\r': `\r`, '\t': `\t`}
	want := func(s string) string {
		var b strings.Builder
		b.WriteByte('"')
		for i := 0; i < len(s); i++ {
			c := s[i]
			switch e, ok := short[c]; {
			case ok:
				b.WriteString(e)
			case c < 0x20:
				fmt.Fprintf(&b, `\u%04x`, c)
			default:
				b.WriteByte(c)
			}
		}
		b.WriteByte('"')
		return b.String()
	}
	t.Run("every byte", func(t *testing.T) {
		for c := range 256 {
			for _, s := range []string{string([]byte{byte(c)}), "a" + string([]byte{byte(c)}) + "bc", string([]byte{byte(c), byte(c)})} {
				if got := string(appendJSONString(nil, []byte(s))); got != want(s) {
					t.Errorf("appendJSONString(%q) = %s, want %s", s, got, want(s))
				}
			}
		}
	})
	t.Run("random text reads back", func(t *testing.T) {
		alphabet := []rune("ab \t\n\r\"\\/\x00\x01\x1f\x7fé€😀")
		r := rand.New(rand.NewPCG(1, 2))
		for range 2000 {
			rs := make([]rune, r.IntN(40))
			for i := range rs {
				rs[i] = alphabet[r.IntN(len(alphabet))]
			}
			s := string(rs)
			got := appendJSONString([]byte("x"), []byte(s))[1:] // appends to what is there
			if string(got) != want(s) {
				t.Fatalf("appendJSONString(%q) = %s, want %s", s, got, want(s))
			}
			var back string
			if err := json.Unmarshal(got, &back); err != nil || back != s {
				t.Fatalf("%s reads back as %q (%v), want %q", got, back, err, s)
			}
		}
	})
}
