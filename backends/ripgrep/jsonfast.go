package ripgrep

import (
	"bytes"
	"encoding/binary"
	"unicode/utf8"
)

// Records as rg prints them. rg's JSON printer writes each record with
// serde_json's compact form and its fields in one order; these are the
// byte runs between the values of a begin, match or context record.
const (
	fastBegin      = `{"type":"begin","data":{"path":{"text":`
	fastMatch      = `{"type":"match","data":{"path":{"text":`
	fastContext    = `{"type":"context","data":{"path":{"text":`
	fastLines      = `},"lines":{"text":`
	fastLineNumber = `},"line_number":`
	fastOffset     = `,"absolute_offset":`
	fastSubs       = `,"submatches":[`
	fastSubMatch   = `{"match":{"text":`
	fastSubStart   = `},"start":`
	fastSubEnd     = `,"end":`
)

// fastRecord decodes the record at d.i when the whole of it is in the
// buffer and it is a begin, match or context record laid out exactly as rg
// prints it: its fields in rg's order, no whitespace, "text" data (valid
// UTF-8, no \u escape). Such a record is read in one straight scan, with no
// dispatch per token. Anything else (end and summary records, "bytes"
// data, a \u escape, a record longer than the buffer, input that is not
// rg's) makes it report false with d.i unmoved, and the general decoder
// reads the record instead, from scratch: the fast path only takes input
// whose meaning is not in doubt, and gives it the general decoder's answer
// (TestFastRecordIsTheGeneralDecoder).
func (d *rgDecoder) fastRecord() bool {
	end := d.recordEnd()
	if end < 0 {
		return false
	}
	buf, i := d.buf[:end], d.i
	rec := &d.rec
	switch {
	case hasAt(buf, i, fastMatch):
		rec.Type, i = typeMatch, i+len(fastMatch)
	case hasAt(buf, i, fastContext):
		rec.Type, i = typeContext, i+len(fastContext)
	case hasAt(buf, i, fastBegin):
		rec.Type, i = typeBegin, i+len(fastBegin)
		if i = fastStr(buf, i, &rec.Data.Path.Text, maxPath); i < 0 || rec.Data.Path.Text.n > maxPath || !hasAt(buf, i, "}}}") {
			return false
		}
		d.i = i + 3
		return true
	default:
		return false
	}
	data := &rec.Data
	if i = fastStr(buf, i, &data.Path.Text, maxPath); i < 0 || data.Path.Text.n > maxPath || !hasAt(buf, i, fastLines) {
		return false
	}
	if i = fastStr(buf, i+len(fastLines), &data.Lines.Text, d.caps.text); i < 0 || !hasAt(buf, i, fastLineNumber) {
		return false
	}
	var n int64
	if n, i = fastInt(buf, i+len(fastLineNumber)); i < 0 || !hasAt(buf, i, fastOffset) {
		return false
	}
	data.LineNumber = int(n)
	if data.AbsoluteOffset, i = fastInt(buf, i+len(fastOffset)); i < 0 || !hasAt(buf, i, fastSubs) {
		return false
	}
	i += len(fastSubs)
	if i < len(buf) && buf[i] == ']' {
		i++
	} else {
		for {
			if !hasAt(buf, i, fastSubMatch) {
				return false
			}
			// The match's text is not read: decoded and dropped.
			if i = fastStr(buf, i+len(fastSubMatch), &d.drop, 0); i < 0 || !hasAt(buf, i, fastSubStart) {
				return false
			}
			var s rgSubmatch
			if n, i = fastInt(buf, i+len(fastSubStart)); i < 0 || !hasAt(buf, i, fastSubEnd) {
				return false
			}
			s.Start = int(n)
			if n, i = fastInt(buf, i+len(fastSubEnd)); i < 0 || !hasAt(buf, i, "}") {
				return false
			}
			s.End = int(n)
			if d.caps.subs < 0 || len(data.Submatches) < d.caps.subs {
				data.Submatches = append(data.Submatches, s)
			} else {
				data.MoreSubmatches++
			}
			i++
			if i < len(buf) && buf[i] == ',' {
				i++
				continue
			}
			if i < len(buf) && buf[i] == ']' {
				i++
				break
			}
			return false
		}
	}
	if !hasAt(buf, i, "}}") {
		return false
	}
	d.i = i + 2
	return true
}

// recordEnd is the index in d.buf of the newline that ends the record at
// d.i, reading more input when the buffer ends first; -1 when the record
// does not fit in the buffer or the input ends inside it.
func (d *rgDecoder) recordEnd() int {
	searched := d.i
	for {
		if k := bytes.IndexByte(d.buf[searched:d.n], '\n'); k >= 0 {
			return searched + k
		}
		if d.i == 0 && d.n == len(d.buf) {
			return -1 // longer than the buffer
		}
		done := d.n - d.i // fill keeps buf[i:n], moved to the front
		if !d.fill() {
			return -1
		}
		searched = d.i + done
	}
}

func hasAt(buf []byte, i int, s string) bool {
	return len(buf)-i >= len(s) && string(buf[i:i+len(s)]) == s
}

// fastStr decodes the JSON string at buf[i] into dst as the general
// decoder's str would with this limit, and returns the index after it; -1
// for a string it leaves to the general decoder (a \u escape, invalid
// UTF-8, anything malformed). The whole string is decoded (it is within
// the read buffer), then cut to the limit.
func fastStr(buf []byte, i int, dst *rgStr, limit int) int {
	if i >= len(buf) || buf[i] != '"' {
		return -1
	}
	i++
	b := dst.b[:0]
	for {
		start := i
		for i+8 <= len(buf) && plain8(binary.LittleEndian.Uint64(buf[i:])) {
			i += 8
		}
		for i < len(buf) && strPlain[buf[i]] {
			i++
		}
		b = append(b, buf[start:i]...)
		if i >= len(buf) {
			return -1
		}
		switch c := buf[i]; {
		case c == '"':
			dst.setWhole(b, limit)
			return i + 1
		case c == '\\':
			if i+1 >= len(buf) {
				return -1
			}
			e := unescape[buf[i+1]]
			if e == 0 {
				return -1 // \u, or not an escape
			}
			b = append(b, e)
			i += 2
		case c < 0x20:
			return -1
		default:
			r, size := utf8.DecodeRune(buf[i:])
			if r == utf8.RuneError && size == 1 {
				return -1
			}
			b = append(b, buf[i:i+size]...)
			i += size
		}
	}
}

// unescape maps the byte after a backslash to what it stands for; 0 for
// \u (left to the general decoder) and for what is no escape.
var unescape = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// fastInt reads a non-negative integer of at most 18 digits (no leading
// zero) at buf[i]; -1 for anything else, which the general decoder reads.
func fastInt(buf []byte, i int) (int64, int) {
	start := i
	var v int64
	for i < len(buf) && buf[i] >= '0' && buf[i] <= '9' && i-start < 18 {
		v = v*10 + int64(buf[i]-'0')
		i++
	}
	switch {
	case i == start, i < len(buf) && buf[i] >= '0' && buf[i] <= '9', buf[start] == '0' && i-start > 1:
		return 0, -1
	case int64(int(v)) != v:
		return 0, -1
	}
	return v, i
}

// setWhole makes s the decoded string b, kept up to limit (< 0 = all), as
// writing it to s after a reset would.
func (s *rgStr) setWhole(b []byte, limit int) {
	s.n = int64(len(b))
	s.tail = [4]byte{}
	copy(s.tail[max(4-len(b), 0):], b[max(len(b)-4, 0):])
	if limit >= 0 && len(b) > limit {
		b = b[:limit]
	}
	s.b, s.set = b, true
}
