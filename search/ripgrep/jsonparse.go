package ripgrep

import (
	"bytes"
	"errors"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// parseRgRecord decodes one rg --json record into rec. It is a small
// recursive-descent JSON parser specialised to rg's record shape: the
// fields rgkit uses are decoded in place, everything else is validated and
// skipped. encoding/json's reflection made decoding three times slower than
// the search itself when most lines match; FuzzParseRgRecord checks this
// parser against encoding/json.
//
// Like encoding/json: keys match case-insensitively (ASCII), the last of a
// duplicated key wins, null leaves a field as it was, invalid UTF-8 in a
// string becomes U+FFFD, and a number that is not an integer is an error
// for an integer field.
func parseRgRecord(b []byte, rec *rgRecord) error {
	subs := rec.Data.Submatches[:0]
	*rec = rgRecord{}
	rec.Data.Submatches = subs
	p := &jsonParser{b: b}
	p.ws()
	if p.peek() == 'n' {
		if err := p.literal("null"); err != nil {
			return err
		}
	} else if err := p.object(func(key []byte) error {
		switch {
		case keyIs(key, "type"):
			return p.stringInto(&rec.Type)
		case keyIs(key, "data"):
			return p.nullOr(func() error { return p.object(func(k []byte) error { return p.dataField(k, rec) }) })
		}
		return p.skip()
	}); err != nil {
		return err
	}
	p.ws()
	if p.i != len(p.b) {
		return p.fail("data after the record")
	}
	return nil
}

func (p *jsonParser) dataField(k []byte, rec *rgRecord) error {
	d := &rec.Data
	switch {
	case keyIs(k, "path"):
		return p.nullOr(func() error { return p.rgData(&d.Path) })
	case keyIs(k, "lines"):
		return p.nullOr(func() error { return p.rgData(&d.Lines) })
	case keyIs(k, "line_number"):
		return p.nullOr(func() error { return p.intInto(&d.LineNumber) })
	case keyIs(k, "absolute_offset"):
		return p.nullOr(func() error { return p.int64Into(&d.AbsoluteOffset) })
	case keyIs(k, "submatches"):
		return p.nullOrElse(func() error {
			d.Submatches = d.Submatches[:0]
			return p.array(func() error {
				var s rgSubmatch
				if err := p.nullOr(func() error {
					return p.object(func(k []byte) error {
						switch {
						case keyIs(k, "start"):
							return p.nullOr(func() error { return p.intInto(&s.Start) })
						case keyIs(k, "end"):
							return p.nullOr(func() error { return p.intInto(&s.End) })
						}
						return p.skip()
					})
				}); err != nil {
					return err
				}
				d.Submatches = append(d.Submatches, s)
				return nil
			})
		}, func() { d.Submatches = nil })
	case keyIs(k, "binary_offset"):
		return p.nullOrElse(func() error {
			var v int64
			if err := p.int64Into(&v); err != nil {
				return err
			}
			d.BinaryOffset = &v
			return nil
		}, func() { d.BinaryOffset = nil })
	case keyIs(k, "stats"):
		return p.nullOr(func() error {
			return p.object(func(k []byte) error {
				st := &d.Stats
				for _, f := range []struct {
					name string
					dst  *int64
				}{{"searches", &st.Searches}, {"searches_with_match", &st.SearchesWithMatch},
					{"bytes_searched", &st.BytesSearched}, {"matched_lines", &st.MatchedLines}, {"matches", &st.Matches}} {
					if keyIs(k, f.name) {
						return p.nullOr(func() error { return p.int64Into(f.dst) })
					}
				}
				return p.skip()
			})
		})
	}
	return p.skip()
}

func (p *jsonParser) rgData(d *rgData) error {
	return p.object(func(k []byte) error {
		switch {
		case keyIs(k, "text"):
			return p.nullOrElse(func() error { return p.stringPtr(&d.Text) }, func() {})
		case keyIs(k, "bytes"):
			return p.nullOrElse(func() error { return p.stringPtr(&d.Bytes) }, func() {})
		}
		return p.skip()
	})
}

// keyIs compares a decoded key with an ASCII name, ignoring ASCII case.
func keyIs(key []byte, name string) bool {
	return len(key) == len(name) && bytes.EqualFold(key, []byte(name))
}

// jsonParser is a cursor over one JSON text.
type jsonParser struct {
	b       []byte
	i       int
	scratch []byte
}

var errJSONSyntax = errors.New("rg json: syntax error")

func (p *jsonParser) fail(what string) error {
	return errors.Join(errJSONSyntax, errors.New(what+" at offset "+strconv.Itoa(p.i)))
}

func (p *jsonParser) ws() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonParser) peek() byte {
	if p.i < len(p.b) {
		return p.b[p.i]
	}
	return 0
}

func (p *jsonParser) expect(c byte) error {
	p.ws()
	if p.peek() != c {
		return p.fail("expected " + strconv.QuoteRune(rune(c)))
	}
	p.i++
	return nil
}

func (p *jsonParser) literal(s string) error {
	if !bytes.HasPrefix(p.b[p.i:], []byte(s)) {
		return p.fail("bad literal")
	}
	p.i += len(s)
	return nil
}

// nullOr runs parse unless the value is null (which leaves the field alone).
func (p *jsonParser) nullOr(parse func() error) error {
	return p.nullOrElse(parse, func() {})
}

func (p *jsonParser) nullOrElse(parse func() error, onNull func()) error {
	p.ws()
	if p.peek() == 'n' {
		if err := p.literal("null"); err != nil {
			return err
		}
		onNull()
		return nil
	}
	return parse()
}

// object parses {"key": value, ...}; field is called with the decoded key
// and must consume the value.
func (p *jsonParser) object(field func(key []byte) error) error {
	if err := p.expect('{'); err != nil {
		return err
	}
	p.ws()
	if p.peek() == '}' {
		p.i++
		return nil
	}
	for {
		p.ws()
		key, err := p.str()
		if err != nil {
			return err
		}
		// key may alias the scratch buffer: field compares it before it
		// parses the value, so no copy is needed.
		if err := p.expect(':'); err != nil {
			return err
		}
		if err := field(key); err != nil {
			return err
		}
		p.ws()
		switch p.peek() {
		case ',':
			p.i++
		case '}':
			p.i++
			return nil
		default:
			return p.fail("expected ',' or '}'")
		}
	}
}

func (p *jsonParser) array(elem func() error) error {
	if err := p.expect('['); err != nil {
		return err
	}
	p.ws()
	if p.peek() == ']' {
		p.i++
		return nil
	}
	for {
		if err := elem(); err != nil {
			return err
		}
		p.ws()
		switch p.peek() {
		case ',':
			p.i++
		case ']':
			p.i++
			return nil
		default:
			return p.fail("expected ',' or ']'")
		}
	}
}

func (p *jsonParser) stringInto(dst *string) error {
	return p.nullOr(func() error {
		s, err := p.str()
		if err != nil {
			return err
		}
		*dst = string(s)
		return nil
	})
}

func (p *jsonParser) stringPtr(dst **string) error {
	s, err := p.str()
	if err != nil {
		return err
	}
	v := string(s)
	*dst = &v
	return nil
}

// str decodes a JSON string. The result may alias the input or the
// parser's scratch buffer: copy it before the next call.
func (p *jsonParser) str() ([]byte, error) {
	p.ws()
	if p.peek() != '"' {
		return nil, p.fail("expected a string")
	}
	p.i++
	start := p.i
	high := false
	for p.i < len(p.b) {
		c := p.b[p.i]
		if strPlain[c] {
			p.i++
			continue
		}
		switch {
		case c == '"':
			s := p.b[start:p.i]
			p.i++
			if high && !utf8.Valid(s) {
				return p.repairUTF8(s), nil
			}
			return s, nil
		case c == '\\':
			return p.strSlow(start)
		case c < 0x20:
			return nil, p.fail("control character in string")
		}
		high = true // a byte >= 0x80
		p.i++
	}
	return nil, p.fail("unterminated string")
}

// strPlain marks the bytes str can pass over without a second look.
var strPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

func (p *jsonParser) repairUTF8(s []byte) []byte {
	out := make([]byte, 0, len(s)+8)
	for len(s) > 0 {
		r, n := utf8.DecodeRune(s)
		if r == utf8.RuneError && n == 1 {
			out = utf8.AppendRune(out, utf8.RuneError)
		} else {
			out = append(out, s[:n]...)
		}
		s = s[n:]
	}
	return out
}

// strSlow decodes a string with escapes, from start (just after the quote).
func (p *jsonParser) strSlow(start int) ([]byte, error) {
	out := append(p.scratch[:0], p.b[start:p.i]...)
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			p.i++
			p.scratch = out
			if !utf8.Valid(out) {
				return p.repairUTF8(out), nil
			}
			return out, nil
		case c < 0x20:
			return nil, p.fail("control character in string")
		case c != '\\':
			out = append(out, c)
			p.i++
			continue
		}
		if p.i+1 >= len(p.b) {
			return nil, p.fail("unterminated escape")
		}
		e := p.b[p.i+1]
		p.i += 2
		switch e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := p.hex4()
			if !ok {
				return nil, p.fail("bad \\u escape")
			}
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if bytes.HasPrefix(p.b[p.i:], []byte(`\u`)) {
					save := p.i
					p.i += 2
					if v, ok := p.hex4(); ok {
						r2 = v
					} else {
						p.i = save
					}
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						out = utf8.AppendRune(out, dec)
						continue
					}
					p.i = save
				}
				r = utf8.RuneError
			}
			out = utf8.AppendRune(out, r)
		default:
			return nil, p.fail("bad escape")
		}
	}
	return nil, p.fail("unterminated string")
}

func (p *jsonParser) hex4() (rune, bool) {
	if p.i+4 > len(p.b) {
		return 0, false
	}
	var r rune
	for _, c := range p.b[p.i : p.i+4] {
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
	p.i += 4
	return r, true
}

// number returns the text of a JSON number and whether it is an integer.
func (p *jsonParser) number() ([]byte, bool, error) {
	p.ws()
	start := p.i
	if p.peek() == '-' {
		p.i++
	}
	digits := func() int {
		n := 0
		for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	switch {
	case p.peek() == '0':
		p.i++
	case digits() == 0:
		return nil, false, p.fail("bad number")
	}
	integer := true
	if p.peek() == '.' {
		p.i++
		integer = false
		if digits() == 0 {
			return nil, false, p.fail("bad number")
		}
	}
	if c := p.peek(); c == 'e' || c == 'E' {
		p.i++
		integer = false
		if c := p.peek(); c == '+' || c == '-' {
			p.i++
		}
		if digits() == 0 {
			return nil, false, p.fail("bad number")
		}
	}
	return p.b[start:p.i], integer, nil
}

func (p *jsonParser) int64Into(dst *int64) error {
	text, integer, err := p.number()
	if err != nil {
		return err
	}
	if !integer {
		return p.fail("not an integer")
	}
	neg := text[0] == '-'
	if neg {
		text = text[1:]
	}
	var v uint64
	for _, c := range text {
		if v > (1<<63)/10 {
			return p.fail("integer out of range")
		}
		v = v*10 + uint64(c-'0')
	}
	switch {
	case !neg && v > 1<<63-1, neg && v > 1<<63:
		return p.fail("integer out of range")
	case neg:
		*dst = -int64(v)
	default:
		*dst = int64(v)
	}
	return nil
}

func (p *jsonParser) intInto(dst *int) error {
	var v int64
	if err := p.int64Into(&v); err != nil {
		return err
	}
	if int64(int(v)) != v {
		return p.fail("integer out of range")
	}
	*dst = int(v)
	return nil
}

// skip validates and skips any JSON value.
func (p *jsonParser) skip() error {
	p.ws()
	switch c := p.peek(); {
	case c == '{':
		return p.object(func([]byte) error { return p.skip() })
	case c == '[':
		return p.array(p.skip)
	case c == '"':
		_, err := p.str()
		return err
	case c == 't':
		return p.literal("true")
	case c == 'f':
		return p.literal("false")
	case c == 'n':
		return p.literal("null")
	default:
		_, _, err := p.number()
		return err
	}
}
