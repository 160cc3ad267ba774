package ripgrep

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/search"
)

// refRecord is rg's record shape as encoding/json decodes it: the
// reference the streaming decoder must agree with.
type refRecord struct {
	Type string `json:"type"`
	Data struct {
		Path           refData `json:"path"`
		Lines          refData `json:"lines"`
		LineNumber     int     `json:"line_number"`
		AbsoluteOffset int64   `json:"absolute_offset"`
		Submatches     []struct {
			Start int `json:"start"`
			End   int `json:"end"`
		} `json:"submatches"`
		BinaryOffset *int64 `json:"binary_offset"`
		Stats        struct {
			Searches          int64 `json:"searches"`
			SearchesWithMatch int64 `json:"searches_with_match"`
			BytesSearched     int64 `json:"bytes_searched"`
			MatchedLines      int64 `json:"matched_lines"`
			Matches           int64 `json:"matches"`
		} `json:"stats"`
	} `json:"data"`
}

type refData struct {
	Text  *string `json:"text"`
	Bytes *string `json:"bytes"`
}

// flat is what both decoders are compared on.
type flat struct {
	Type                  rgType
	PathText, PathBytes   *string
	LinesText, LinesBytes *string
	LineNumber            int
	AbsoluteOffset        int64
	Submatches            []rgSubmatch
	BinaryOffset          *int64
	Stats                 rgStats
}

func strPtr(s rgStr) *string {
	if !s.set {
		return nil
	}
	v := string(s.b)
	return &v
}

func flatMine(r *rgRecord) flat {
	f := flat{Type: r.Type, PathText: strPtr(r.Data.Path.Text), PathBytes: strPtr(r.Data.Path.Bytes),
		LinesText: strPtr(r.Data.Lines.Text), LinesBytes: strPtr(r.Data.Lines.Bytes),
		LineNumber: r.Data.LineNumber, AbsoluteOffset: r.Data.AbsoluteOffset, Stats: r.Data.Stats}
	f.Submatches = append([]rgSubmatch{}, r.Data.Submatches...)
	if r.Data.HasBinaryOffset {
		v := r.Data.BinaryOffset
		f.BinaryOffset = &v
	}
	return f
}

func flatRef(r *refRecord) flat {
	t := rgStr{b: []byte(r.Type), n: int64(len(r.Type))}
	f := flat{Type: typeOf(&t), PathText: r.Data.Path.Text, PathBytes: r.Data.Path.Bytes,
		LinesText: r.Data.Lines.Text, LinesBytes: r.Data.Lines.Bytes,
		LineNumber: r.Data.LineNumber, AbsoluteOffset: r.Data.AbsoluteOffset,
		BinaryOffset: r.Data.BinaryOffset, Stats: rgStats(r.Data.Stats)}
	f.Submatches = []rgSubmatch{}
	for _, s := range r.Data.Submatches {
		f.Submatches = append(f.Submatches, rgSubmatch{s.Start, s.End})
	}
	return f
}

// decodeOne decodes data as exactly one record with no caps.
func decodeOne(data []byte) (flat, error) {
	d := newRgDecoder(bytes.NewReader(data), rgCaps{text: -1, subs: -1})
	ok, err := d.next()
	if err != nil {
		return flat{}, err
	}
	if !ok {
		return flat{}, errors.New("no record")
	}
	f := flatMine(&d.rec)
	if more, err := d.next(); more || err != nil {
		return flat{}, fmt.Errorf("more than one record (%v)", err)
	}
	return f, nil
}

// compareWithEncodingJSON fails when the two decoders disagree on data:
// one accepting what the other refuses, or different fields.
func compareWithEncodingJSON(t *testing.T, data []byte) {
	t.Helper()
	mine, errMine := decodeOne(data)
	var ref refRecord
	errRef := json.Unmarshal(data, &ref)
	if foldsSpecially(data) {
		return
	}
	switch {
	case errMine != nil && errRef != nil:
		return
	case errMine != nil:
		t.Fatalf("the decoder refused what encoding/json accepts: %v\n%q", errMine, data)
	case errRef != nil:
		// encoding/json reports a mismatched type but the decoder must
		// refuse it too (rg never prints one).
		t.Fatalf("the decoder accepted what encoding/json refuses (%v)\n%q", errRef, data)
	}
	if want := flatRef(&ref); !reflect.DeepEqual(mine, want) {
		t.Fatalf("decoded differently\n mine %+v\n json %+v\ninput %q", mine, want, data)
	}
}

// randomRecord builds a record shaped like rg's, with the awkward parts
// rg can print (escapes, surrogate pairs, control characters, invalid
// UTF-8 as base64, big offsets) and some rg never prints (unknown fields,
// nulls, duplicated keys, odd case, whitespace).
func randomRecord(r *rand.Rand) []byte {
	var b bytes.Buffer
	str := func() string { return randomJSONString(r) }
	data := func() string {
		if r.IntN(3) == 0 {
			raw := make([]byte, r.IntN(10))
			for i := range raw {
				raw[i] = byte(r.IntN(256))
			}
			return `{"bytes":"` + base64.StdEncoding.EncodeToString(raw) + `"}`
		}
		return `{"text":` + str() + `}`
	}
	num := func() string {
		switch r.IntN(6) {
		case 0:
			return "null"
		case 1:
			return fmt.Sprint(r.Int64())
		case 2:
			return fmt.Sprint(-r.IntN(100))
		}
		return fmt.Sprint(r.IntN(100000))
	}
	ws := func() string { return []string{"", "", "", " ", "\t", " \r "}[r.IntN(6)] }
	key := func(k string) string {
		if r.IntN(10) == 0 {
			k = strings.ToUpper(k[:1]) + k[1:]
		}
		return ws() + `"` + k + `"` + ws() + ":" + ws()
	}
	typ := []string{"begin", "match", "context", "end", "summary", "other"}[r.IntN(6)]
	fmt.Fprintf(&b, `{%s"%s",%s{`, key("type"), typ, key("data"))
	var fields []string
	fields = append(fields, key("path")+data())
	if r.IntN(2) == 0 {
		fields = append(fields, key("lines")+data(), key("line_number")+num(), key("absolute_offset")+num())
		var subs []string
		for range r.IntN(5) {
			subs = append(subs, fmt.Sprintf(`{"match":%s,"start":%s,"end":%s}`, data(), num(), num()))
		}
		if r.IntN(8) == 0 {
			subs = append(subs, "null")
		}
		fields = append(fields, key("submatches")+"["+strings.Join(subs, ","+ws())+"]")
	}
	if r.IntN(3) == 0 {
		fields = append(fields, key("binary_offset")+num(),
			key("stats")+fmt.Sprintf(`{"elapsed":{"secs":0,"nanos":%s,"human":"0.1s"},"searches":%s,"searches_with_match":%s,"bytes_searched":%s,"bytes_printed":1,"matched_lines":%s,"matches":%s}`,
				num(), num(), num(), num(), num(), num()))
	}
	if r.IntN(5) == 0 {
		fields = append(fields, key("unknown")+`[1,{"a":[true,false,null,-0.5e+3]},"x"]`)
	}
	if r.IntN(10) == 0 { // a duplicated key: the last wins
		fields = append(fields, key("line_number")+num())
	}
	r.Shuffle(len(fields), func(i, j int) { fields[i], fields[j] = fields[j], fields[i] })
	b.WriteString(strings.Join(fields, ","))
	b.WriteString("}}")
	return b.Bytes()
}

// randomJSONString is a quoted JSON string with the awkward parts rg can
// print: escapes, control characters, non-ASCII, and sometimes every
// character as a \u escape (surrogate pairs for astral ones).
func randomJSONString(r *rand.Rand) string {
	var s []rune
	for range r.IntN(12) {
		switch r.IntN(8) {
		case 0:
			s = append(s, rune(r.IntN(0x20)))
		case 1:
			s = append(s, []rune("\"\\/\u00e9\u2028\U0001F600\uFFFD")[r.IntN(7)])
		case 2:
			s = append(s, rune(0x80+r.IntN(0x2000)))
		default:
			s = append(s, rune('a'+r.IntN(26)))
		}
	}
	q, _ := json.Marshal(string(s))
	if r.IntN(4) == 0 { // escape everything by hand, as \uXXXX (pairs for astral)
		var e strings.Builder
		e.WriteByte('"')
		for _, c := range string(s) {
			if c > 0xFFFF {
				c -= 0x10000
				fmt.Fprintf(&e, `\u%04x\u%04X`, 0xD800+(c>>10), 0xDC00+(c&0x3FF))
			} else {
				fmt.Fprintf(&e, `\u%04x`, c)
			}
		}
		e.WriteByte('"')
		return e.String()
	}
	return string(q)
}

// TestDecodeAgreesWithEncodingJSONOnRandomRecords decodes random rg-shaped
// records both ways (5,000; see randomCases).
func TestDecodeAgreesWithEncodingJSONOnRandomRecords(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(11, 13))
	for range randomCases(5_000) {
		compareWithEncodingJSON(t, randomRecord(r))
	}
}

// randomCases is how many random cases a test of n by default runs: 40
// times more under RGKIT_TEST_FULL=1 (CI), a fifth with -short.
func randomCases(n int) int {
	switch {
	case testtool.Full():
		return n * 40
	case testing.Short():
		return n / 5
	}
	return n
}

// FuzzDecodeAgainstEncodingJSON: any input is decoded as encoding/json
// decodes it, or refused by both.
func FuzzDecodeAgainstEncodingJSON(f *testing.F) {
	for _, name := range []string{"content.jsonl", "multiline.jsonl"} {
		data, err := os.ReadFile(filepath.Join("testdata", "rg-json", name))
		if err != nil {
			f.Fatal(err)
		}
		for _, l := range bytes.Split(data, []byte("\n")) {
			f.Add(l)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		f.Add(randomRecord(r))
	}
	for _, s := range []string{
		`null`, `{}`, `{"type":null,"data":null}`, `{"TYPE":"match","Data":{"Line_Number":7}}`,
		`{"type":"match","data":{"lines":{"text":"a\u00e9\ud83d\ude00\ud800x\"\\\/\b\f\n\r\t"},"submatches":[null,{"start":1,"end":2,"match":{"text":"x"}}]}}`,
		`{"data":{"lines":{"text":"\ud800\ud800\udc00\udc00\ud83d"}}}`,
		`{"type":"end","data":{"binary_offset":12,"stats":{"matched_lines":3,"elapsed":{"secs":0}}}}`,
		`{"type":"x","type":"y","data":{"line_number":1.5}}`, `{"data":{"line_number":1e2}}`,
		`{"data":{"submatches":[]}}`, `{"data":{"path":{"bytes":"Zm9v"}}} `, "{\"type\":\"\xff\"}",
		`{"data":{"path":{"text":"a","text":null}}}`, `{"data":{"x":123456789012345678901234567890}}`,
		`{"data":{"line_number":9223372036854775808}}`, `{"data":{"line_number":-9223372036854775808}}`,
		`{"data":{"line_number":01}}`, `{"data":{"x":[[[[]]]]}}`, `{"a":1}{"b":2}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(compareWithEncodingJSON)
}

func TestDecodeErrorsSayWhatIsWrong(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{`error: something`, `expected '{', found 'e' at byte 0`},
		{`{"type":"match"`, `output ends inside a record`},
		{`{"type":"match","data":{"lines":{"text":"a\qb"}}}`, `invalid escape \q`},
		{`{"type":"match","data":{"lines":{"text":"\u12G4"}}}`, `invalid \u escape`},
		{"{\"type\":\"a\x01\"}", `control character`},
		{`{"type":"match"} x`, `data after the record`},
		{`{"data":{"line_number":1.5}}`, `not an integer`},
		{`{"data":{"line_number":99999999999999999999}}`, `out of range`},
		{`{"type":"match","data":{"lines":{"bytes":"Zm9!"}}}`, `invalid base64`},
		{`{"type":"match","data":{"lines":{"bytes":"Zm9vYmFyYmF6!m9v"}}}`, `invalid base64`}, // past the cap
		{`{"type":"match","data":{"lines":{"bytes":"Zm9vY"}}}`, `not a multiple of 4`},
		{strings.Repeat("[", 5), `expected '{', found '['`},
		{`{"data":{"x":[1,]}}`, `invalid value`},
		{`{"data":{"x":` + strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1) + `}}`, `nesting deeper`},
	} {
		t.Run(c.in[:min(len(c.in), 40)], func(t *testing.T) {
			run := &rgRun{q: search.Query{Root: "."}, sink: search.Discard}
			err := decodeRgJSON(strings.NewReader(c.in), rgCaps{text: 2, subs: -1}, run.record)
			if !errors.Is(err, errRgJSON) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want errRgJSON saying %q", err, c.want)
			}
		})
	}
}

// chunkReader returns at most n bytes per Read, so tokens straddle reads.
type chunkReader struct {
	r io.Reader
	n int
}

func (c *chunkReader) Read(p []byte) (int, error) { return c.r.Read(p[:min(len(p), c.n)]) }

func TestDecodeTokensSplitAcrossReads(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("testdata", "rg-json", "content.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, []byte(`{"type":"match","data":{"lines":{"text":"\ud83d\ude00 \u00e9\n"},"line_number":-12345,"submatches":[{"start":0,"end":4}]}}`+"\n")...)
	var want []flat
	if err := decodeRgJSON(bytes.NewReader(data), rgCaps{text: -1, subs: -1}, func(r *rgRecord) error { want = append(want, flatMine(r)); return nil }); err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 2, 3, 5, 7} {
		var got []flat
		err := decodeRgJSON(&chunkReader{bytes.NewReader(data), n}, rgCaps{text: -1, subs: -1}, func(r *rgRecord) error { got = append(got, flatMine(r)); return nil })
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("reads of %d bytes: err %v, records differ", n, err)
		}
	}
}

// TestDecodeCapsGiveTheUncappedAnswerCut: with the column cap, the kept
// text and counted submatches give the Line that decoding everything and
// then cutting gives.
func TestDecodeCapsGiveTheUncappedAnswerCut(t *testing.T) {
	t.Parallel()
	line := strings.Repeat("é", 30) + "\r\n" // 60 bytes of text
	var subs []string
	for i := 0; i < 60; i += 2 {
		subs = append(subs, fmt.Sprintf(`{"match":{"text":"é"},"start":%d,"end":%d}`, i, i+2))
	}
	quoted, _ := json.Marshal(line)
	text := `{"type":"match","data":{"lines":{"text":` + string(quoted) + `},"line_number":4,"submatches":[` + strings.Join(subs, ",") + `]}}`
	bin := `{"type":"match","data":{"lines":{"bytes":"` + base64.StdEncoding.EncodeToString([]byte(line)) + `"},"line_number":4,"submatches":[` + strings.Join(subs, ",") + `]}}`
	for _, rec := range []string{text, bin} {
		for _, maxCols := range []int{1, 7, 8, 25, 59, 60, 61} {
			for _, subCap := range []int{1, 5, 30, 31} {
				lines := func(q search.Query, caps rgCaps) []search.Line {
					var got []search.Line
					run := &rgRun{q: q, sink: search.SinkFunc(func(l search.Line) error {
						l.Text = bytes.Clone(l.Text)
						got = append(got, search.CutLine(l, q.MaxColumns))
						return nil
					})}
					if err := decodeRgJSON(strings.NewReader(rec), caps, run.record); err != nil {
						t.Fatal(err)
					}
					return got
				}
				q := search.Query{Root: ".", MaxColumns: maxCols}
				want := lines(q, rgCaps{text: -1, subs: -1})
				want[0].Submatches = want[0].Submatches[:min(len(want[0].Submatches), subCap)]
				want[0].MoreSubmatches = 30 - len(want[0].Submatches)
				caps := rgCapsFor(q)
				caps.subs = subCap
				if got := lines(q, caps); !reflect.DeepEqual(got, want) {
					t.Errorf("%.20s… cap %d, %d spans:\n got %+v\nwant %+v", rec[40:], maxCols, subCap, got, want)
				}
			}
		}
	}
}

// TestPlain8IsEightPlainBytes checks the word-at-a-time scan against the
// byte table: every byte value in every position, then random words.
func TestPlain8IsEightPlainBytes(t *testing.T) {
	t.Parallel()
	check := func(b [8]byte) {
		want := true
		for _, c := range b {
			want = want && strPlain[c]
		}
		if got := plain8(binary.LittleEndian.Uint64(b[:])); got != want {
			t.Fatalf("plain8(%q) = %v, want %v", b, got, want)
		}
	}
	for pos := range 8 {
		for c := range 256 {
			b := [8]byte{'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'}
			b[pos] = byte(c)
			check(b)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 1_000_000 {
		var b [8]byte
		for i := range b {
			b[i] = byte(0x18 + r.IntN(0x70)) // around the edges: controls, '"', '\\', 0x80
		}
		check(b)
	}
}
