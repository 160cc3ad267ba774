package ripgrep

import (
	"errors"
	"fmt"
	"io"
)

// rgDecoder reads rg's --json stream token by token and decodes each record
// into one reused rgRecord, never holding more of a record than the caps
// allow: the "lines" text is kept up to rgCaps.text bytes and counted past
// that, submatches are stored up to rgCaps.subs and counted past that, and
// every other string (a submatch's "match" text, unknown fields) is
// validated and dropped as it streams. A 50 MB line of "A" searched for
// "A" is a 2.8 GB record (50 million submatch objects); it costs the
// decoder its read buffer, the kept text and 16,384 spans.
//
// Why a decoder and not rg's plain output (--null --line-number --column
// --byte-offset), decided by measurement on the Go tree for "func" (42 MB
// of JSON, 135k lines): rg 15 spends about the same CPU printing JSON as
// printing plain lines (0.41 against 0.40 CPU-s, medians of 5 runs into a
// file), the plain form has no spans (they would cost a second regex pass
// over every matching line in process), and it is not exact where the
// JSON is: rg ends a last line that has no terminator with one, so "foo\r"
// at the end of a file prints as a CRLF line "foo\r\n" does, and a binary
// file named on the command line prints "binary file matches" instead of
// its lines. The records rg prints most (begin, match, context) take
// fastRecord, a straight scan of rg's own layout, at about 1,100 MB per CPU
// second: 0.04 CPU-s for "func", a tenth of what rg spends writing them
// (BenchmarkDecodeGoTree); the general decoder below, which takes any
// JSON, reads about 340.
//
// It reads through its own buffer (what bufio.Reader would do, with the
// hot string loop running over the buffer's bytes in place) and allocates
// nothing per record once its buffers have grown. Like encoding/json, which
// FuzzDecodeAgainstEncodingJSON checks it against: keys match
// case-insensitively, the last of a duplicated key wins, null leaves a
// field as it was (and clears text/bytes), invalid UTF-8 in a string
// becomes U+FFFD, a lone surrogate escape becomes U+FFFD, and a number that
// is not an integer is an error for an integer field.
type rgDecoder struct {
	r    io.Reader
	buf  []byte
	i, n int
	off  int64 // stream offset of buf[0]
	rerr error // the reader's error once it has returned one

	caps rgCaps
	rec  rgRecord
	// general turns fastRecord off: tests compare the two paths.
	general bool
	key     rgStr // the current object key (kept up to maxKey bytes)
	drop    rgStr // strings that are validated and dropped
	depth   int
}

// rgCaps bounds what one record may hold.
type rgCaps struct {
	// text is the most bytes of a record's "lines" kept; < 0 = all.
	text int
	// subs is the most submatches of a record stored; the rest are counted.
	subs int
}

const (
	maxKey      = 32       // longer keys are no field rgkit reads
	maxPath     = 64 << 10 // a path rg prints is bounded by the OS
	maxDepth    = 10000    // encoding/json's nesting limit
	readBufSize = 256 << 10
)

// errRgJSON marks output that is not rg's JSON format.
var errRgJSON = errors.New("rg json: malformed record")

func newRgDecoder(r io.Reader, caps rgCaps) *rgDecoder {
	return &rgDecoder{r: r, buf: make([]byte, readBufSize), caps: caps}
}

// decodeRgJSON reads rg --json records from r, one per line, and passes each
// to fn (the record is reused: fn must copy what it keeps). Output that is
// not rg's JSON is an error wrapping errRgJSON; fn's error ends decoding and
// is returned.
func decodeRgJSON(r io.Reader, caps rgCaps, fn func(*rgRecord) error) error {
	d := newRgDecoder(r, caps)
	for {
		ok, err := d.next()
		if err != nil || !ok {
			return err
		}
		if err := fn(&d.rec); err != nil {
			return err
		}
	}
}

// fail builds a syntax error at the current position.
func (d *rgDecoder) fail(format string, args ...any) error {
	return fmt.Errorf("%w: %s at byte %d", errRgJSON, fmt.Sprintf(format, args...), d.off+int64(d.i))
}

// fill reads more input, keeping buf[i:n]; false at the end of input.
func (d *rgDecoder) fill() bool {
	if d.rerr != nil {
		return false
	}
	if d.i > 0 {
		d.off += int64(d.i)
		d.n = copy(d.buf, d.buf[d.i:d.n])
		d.i = 0
	}
	for d.n < len(d.buf) {
		k, err := d.r.Read(d.buf[d.n:])
		d.n += k
		if err != nil {
			d.rerr = err
			return d.n > d.i
		}
		if k > 0 {
			return true
		}
	}
	return true
}

// ensure makes k bytes available if the input has them.
func (d *rgDecoder) ensure(k int) bool {
	for d.n-d.i < k {
		if !d.fill() {
			return false
		}
	}
	return true
}

// eof is the error for input that ends inside a record: the reader's own
// error, or a truncated record.
func (d *rgDecoder) eof() error {
	if d.rerr != nil && d.rerr != io.EOF {
		return d.rerr
	}
	return d.fail("output ends inside a record")
}

// peek skips whitespace and returns the next byte without consuming it.
func (d *rgDecoder) peek() (byte, error) {
	for {
		for d.i < d.n {
			switch c := d.buf[d.i]; c {
			case ' ', '\t', '\n', '\r':
				d.i++
			default:
				return c, nil
			}
		}
		if !d.fill() {
			return 0, d.eof()
		}
	}
}

func (d *rgDecoder) expect(c byte) error {
	got, err := d.peek()
	if err != nil {
		return err
	}
	if got != c {
		return d.fail("expected %q, found %q", c, got)
	}
	d.i++
	return nil
}

func (d *rgDecoder) literal(s string) error {
	if !d.ensure(len(s)) || string(d.buf[d.i:d.i+len(s)]) != s {
		return d.fail("invalid literal (expected %s)", s)
	}
	d.i += len(s)
	return nil
}

// null consumes a null and reports whether there was one.
func (d *rgDecoder) null() (bool, error) {
	c, err := d.peek()
	if err != nil || c != 'n' {
		return false, err
	}
	return true, d.literal("null")
}

// next decodes the next record into d.rec; false at the end of the stream.
// Each record is one line: only spaces may follow it before the newline.
func (d *rgDecoder) next() (bool, error) {
	for {
		if d.i == d.n && !d.fill() {
			if d.rerr != nil && d.rerr != io.EOF {
				return false, d.rerr
			}
			return false, nil
		}
		if c := d.buf[d.i]; c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			break
		}
		d.i++
	}
	d.rec.reset()
	if d.general || !d.fastRecord() {
		d.rec.reset()
		if err := d.record(); err != nil {
			return false, err
		}
	}
	for {
		for d.i < d.n {
			switch d.buf[d.i] {
			case ' ', '\t', '\r':
				d.i++
				continue
			case '\n':
				d.i++
				return true, nil
			}
			return false, d.fail("data after the record")
		}
		if !d.fill() {
			if d.rerr != nil && d.rerr != io.EOF {
				return false, d.rerr
			}
			return true, nil
		}
	}
}

// list reads open, elements separated by commas, and close; elem
// consumes one element.
func (d *rgDecoder) list(open, close byte, elem func() error) error {
	if err := d.expect(open); err != nil {
		return err
	}
	c, err := d.peek()
	if err != nil {
		return err
	}
	if c == close {
		d.i++
		return nil
	}
	for {
		if err := elem(); err != nil {
			return err
		}
		c, err := d.peek()
		if err != nil {
			return err
		}
		switch c {
		case ',':
			d.i++
		case close:
			d.i++
			return nil
		default:
			return d.fail("expected ',' or %q, found %q", close, c)
		}
	}
}

// object reads an object's members, calling field after each key (in
// d.key) to consume its value.
func (d *rgDecoder) object(field func() error) error {
	return d.list('{', '}', func() error {
		if err := d.str(&d.key, maxKey, false); err != nil {
			return err
		}
		if err := d.expect(':'); err != nil {
			return err
		}
		return field()
	})
}

// keyIs compares the current key with an ASCII field name, ignoring ASCII
// case (a key longer than maxKey matches nothing).
func (d *rgDecoder) keyIs(name string) bool {
	k := d.key.b
	if d.key.n != int64(len(k)) || len(k) != len(name) {
		return false
	}
	for i := range len(k) {
		a, b := k[i], name[i]
		if 'A' <= a && a <= 'Z' {
			a += 'a' - 'A'
		}
		if a != b {
			return false
		}
	}
	return true
}

func (d *rgDecoder) record() error {
	if isNull, err := d.null(); err != nil || isNull {
		return err
	}
	return d.object(d.topField)
}

func (d *rgDecoder) topField() error {
	switch {
	case d.keyIs("type"):
		if isNull, err := d.null(); err != nil || isNull {
			return err
		}
		if err := d.str(&d.key, maxKey, false); err != nil {
			return err
		}
		d.rec.Type = typeOf(&d.key)
		return nil
	case d.keyIs("data"):
		if isNull, err := d.null(); err != nil || isNull {
			return err
		}
		return d.object(d.dataField)
	}
	return d.skip()
}

// typeOf names a record type; rg's types are lower case and compared
// exactly, as the engine did with encoding/json's string.
func typeOf(s *rgStr) rgType {
	if s.n != int64(len(s.b)) {
		return typeOther
	}
	switch string(s.b) {
	case "begin":
		return typeBegin
	case "match":
		return typeMatch
	case "context":
		return typeContext
	case "end":
		return typeEnd
	case "summary":
		return typeSummary
	}
	return typeOther
}

func (d *rgDecoder) dataField() error {
	data := &d.rec.Data
	if isNull, err := d.null(); err != nil || isNull {
		switch {
		case err != nil:
		case d.keyIs("submatches"):
			data.Submatches, data.MoreSubmatches = data.Submatches[:0], 0
		case d.keyIs("binary_offset"):
			data.HasBinaryOffset = false
		}
		return err
	}
	switch {
	case d.keyIs("path"):
		return d.rgData(&data.Path, maxPath, true)
	case d.keyIs("lines"):
		limit := d.caps.text
		return d.rgData(&data.Lines, limit, false)
	case d.keyIs("line_number"):
		return d.intIntoInt(&data.LineNumber)
	case d.keyIs("absolute_offset"):
		return d.intInto(&data.AbsoluteOffset)
	case d.keyIs("binary_offset"):
		v, err := d.int()
		if err == nil {
			data.BinaryOffset, data.HasBinaryOffset = v, true
		}
		return err
	case d.keyIs("submatches"):
		return d.submatches()
	case d.keyIs("stats"):
		return d.object(d.statsField)
	}
	return d.skip()
}

func (d *rgDecoder) statsField() error {
	st := &d.rec.Data.Stats
	var dst *int64
	switch {
	case d.keyIs("searches"):
		dst = &st.Searches
	case d.keyIs("searches_with_match"):
		dst = &st.SearchesWithMatch
	case d.keyIs("bytes_searched"):
		dst = &st.BytesSearched
	case d.keyIs("matched_lines"):
		dst = &st.MatchedLines
	case d.keyIs("matches"):
		dst = &st.Matches
	default:
		return d.skip()
	}
	return d.intInto(dst)
}

// intInto reads an integer into *dst; null leaves it as it was.
func (d *rgDecoder) intInto(dst *int64) error {
	if isNull, err := d.null(); err != nil || isNull {
		return err
	}
	v, err := d.int()
	if err == nil {
		*dst = v
	}
	return err
}

// intIntoInt is intInto for an int.
func (d *rgDecoder) intIntoInt(dst *int) error {
	v := int64(*dst)
	if err := d.intInto(&v); err != nil {
		return err
	}
	if *dst = int(v); int64(*dst) != v {
		return d.fail("integer out of range")
	}
	return nil
}

// rgData reads {"text": ...} or {"bytes": ...} into dst. A string longer
// than limit is kept up to limit (text) or the base64 that decodes to it
// (bytes); strict refuses it instead (a path).
func (d *rgDecoder) rgData(dst *rgData, limit int, strict bool) error {
	return d.object(func() error {
		var s *rgStr
		switch {
		case d.keyIs("text"):
			s = &dst.Text
		case d.keyIs("bytes"):
			s = &dst.Bytes
		default:
			return d.skip()
		}
		if isNull, err := d.null(); err != nil || isNull {
			s.set = false
			return err
		}
		keep := limit
		if s == &dst.Bytes && limit >= 0 {
			keep = (limit+2)/3*4 + 4 // the base64 that decodes to limit bytes
		}
		if err := d.str(s, keep, s == &dst.Bytes); err != nil {
			return err
		}
		if strict && s.n > int64(len(s.b)) {
			return d.fail("a path longer than %d bytes", limit)
		}
		s.set = true
		return nil
	})
}

func (d *rgDecoder) submatches() error {
	data := &d.rec.Data
	data.Submatches, data.MoreSubmatches = data.Submatches[:0], 0
	return d.list('[', ']', func() error {
		var s rgSubmatch
		isNull, err := d.null()
		if err != nil {
			return err
		}
		if !isNull {
			if err := d.object(func() error {
				var dst *int
				switch {
				case d.keyIs("start"):
					dst = &s.Start
				case d.keyIs("end"):
					dst = &s.End
				default:
					return d.skip()
				}
				return d.intIntoInt(dst)
			}); err != nil {
				return err
			}
		}
		if d.caps.subs < 0 || len(data.Submatches) < d.caps.subs {
			data.Submatches = append(data.Submatches, s)
		} else {
			data.MoreSubmatches++
		}
		return nil
	})
}

// skip validates and drops any JSON value.
func (d *rgDecoder) skip() error {
	c, err := d.peek()
	if err != nil {
		return err
	}
	switch c {
	case '{', '[':
		if d.depth++; d.depth > maxDepth {
			return d.fail("nesting deeper than %d", maxDepth)
		}
		defer func() { d.depth-- }()
		if c == '{' {
			return d.object(d.skip)
		}
		return d.list('[', ']', d.skip)
	case '"':
		return d.str(&d.drop, 0, false)
	case 't':
		return d.literal("true")
	case 'f':
		return d.literal("false")
	case 'n':
		return d.literal("null")
	}
	_, _, err = d.number()
	return err
}

// int reads a JSON number that must be an integer fitting an int64.
func (d *rgDecoder) int() (int64, error) {
	v, kind, err := d.number()
	switch {
	case err != nil:
		return 0, err
	case kind == numFraction:
		return 0, d.fail("a number that is not an integer where rg prints one")
	case kind == numOverflow:
		return 0, d.fail("integer out of range")
	}
	return v, nil
}

type numKind int

const (
	numInt numKind = iota
	numOverflow
	numFraction
)

// number reads a JSON number; v is its value when it is an integer.
func (d *rgDecoder) number() (v int64, kind numKind, err error) {
	c, err := d.peek()
	if err != nil {
		return 0, 0, err
	}
	neg := c == '-'
	if neg {
		d.i++
	}
	var u uint64
	overflow := false
	digits := 0
	for {
		if d.i == d.n && !d.fill() {
			break
		}
		c := d.buf[d.i]
		if c < '0' || c > '9' {
			break
		}
		if digits == 1 && u == 0 {
			return 0, 0, d.fail("invalid number (leading zero)")
		}
		if u > (1<<63)/10 {
			overflow = true
		}
		u = u*10 + uint64(c-'0')
		digits++
		d.i++
	}
	if digits == 0 {
		return 0, 0, d.fail("invalid value")
	}
	integer := true
	more := func() (byte, bool) {
		if d.i == d.n && !d.fill() {
			return 0, false
		}
		return d.buf[d.i], true
	}
	fracDigits := func() error {
		n := 0
		for c, ok := more(); ok && c >= '0' && c <= '9'; c, ok = more() {
			d.i++
			n++
		}
		if n == 0 {
			return d.fail("invalid number")
		}
		return nil
	}
	if c, ok := more(); ok && c == '.' {
		d.i++
		integer = false
		if err := fracDigits(); err != nil {
			return 0, 0, err
		}
	}
	if c, ok := more(); ok && (c == 'e' || c == 'E') {
		d.i++
		integer = false
		if c, ok := more(); ok && (c == '+' || c == '-') {
			d.i++
		}
		if err := fracDigits(); err != nil {
			return 0, 0, err
		}
	}
	switch {
	case !integer:
		return 0, numFraction, nil
	case overflow || (!neg && u > 1<<63-1) || (neg && u > 1<<63):
		return 0, numOverflow, nil
	case neg:
		return -int64(u), numInt, nil
	}
	return int64(u), numInt, nil
}
