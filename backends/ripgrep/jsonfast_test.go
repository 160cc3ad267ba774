package ripgrep

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// serdeString quotes s as rg's JSON printer (serde_json) does: raw UTF-8,
// short escapes, no HTML escaping.
func serdeString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		panic(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// canonicalRecord is a begin, match or context record laid out exactly as
// rg prints it, with random strings (mostly as serde_json writes them;
// sometimes with \u escapes, raw invalid UTF-8 or "bytes" data, which the
// fast path leaves to the general decoder) and random integers (some of
// them too big, negative or not integers).
func canonicalRecord(r *rand.Rand) []byte {
	str := func() string {
		switch r.IntN(30) {
		case 0:
			return randomJSONString(r)
		case 1:
			return `"a` + string([]byte{byte(0x80 + r.IntN(0x80))}) + `b"`
		}
		controls := r.IntN(20) == 0 // printed as \u00XX, but \t, \n, \r, \b, \f
		var s strings.Builder
		for range r.IntN(40) {
			switch r.IntN(12) {
			case 0:
				s.WriteByte("\t\n\r\b\f\"\\/"[r.IntN(8)])
			case 1:
				s.WriteRune([]rune("é€😀ж\uFFFD")[r.IntN(5)]) // (Go escapes U+2028, serde_json does not)
			case 2:
				if controls {
					s.WriteByte(byte(r.IntN(0x20)))
				}
			default:
				s.WriteByte(byte(' ' + r.IntN(0x5f)))
			}
		}
		return serdeString(s.String())
	}
	data := func() string {
		if r.IntN(30) == 0 {
			return `{"bytes":"` + base64.StdEncoding.EncodeToString([]byte(str())) + `"}`
		}
		return `{"text":` + str() + `}`
	}
	num := func() string {
		switch r.IntN(40) {
		case 0:
			return fmt.Sprint(r.Int64())
		case 1:
			return []string{"0", "00", "07", "-1", "1.5", "1e2", "null", "999999999999999999", "1000000000000000000"}[r.IntN(9)]
		}
		return fmt.Sprint(r.IntN(1 << (r.IntN(5) * 8)))
	}
	path := data()
	switch r.IntN(3) {
	case 0:
		return []byte(`{"type":"begin","data":{"path":` + path + `}}`)
	}
	typ := "match"
	if r.IntN(3) == 0 {
		typ = "context"
	}
	var subs []string
	for range r.IntN(4) {
		subs = append(subs, `{"match":`+data()+`,"start":`+num()+`,"end":`+num()+`}`)
	}
	return []byte(`{"type":"` + typ + `","data":{"path":` + path + `,"lines":` + data() +
		`,"line_number":` + num() + `,"absolute_offset":` + num() + `,"submatches":[` + strings.Join(subs, ",") + `]}}`)
}

// mutate changes one byte of rec (or drops or inserts one), among those
// that make a record's layout or a string's escapes go wrong.
func mutate(r *rand.Rand, rec []byte) []byte {
	rec = bytes.Clone(rec)
	at := r.IntN(len(rec))
	c := []byte("\"\\}],{:0 u\x80\xff\n9-")[r.IntN(15)]
	switch r.IntN(3) {
	case 0:
		rec[at] = c
	case 1:
		rec = append(rec[:at], rec[at+1:]...)
	default:
		rec = append(rec[:at], append([]byte{c}, rec[at:]...)...)
	}
	return rec
}

// decoderState is everything a decoded record holds, kept strings
// included as the decoder keeps them (prefix, count, tail).
type decoderState struct {
	Type            rgType
	Path, Lines     [2]rgStrState
	LineNumber      int
	AbsoluteOffset  int64
	Submatches      []rgSubmatch
	More            int
	BinaryOffset    int64
	HasBinaryOffset bool
	Stats           rgStats
}

type rgStrState struct {
	Set  bool
	B    string
	N    int64
	Tail [4]byte
}

func strState(s rgStr) rgStrState { return rgStrState{s.set, string(s.b), s.n, s.tail} }

// decodeAll decodes stream with the fast path on or off, returning each
// record's state and the error.
func decodeAll(stream []byte, caps rgCaps, bufSize int, general bool) (states []decoderState, err error) {
	d := &rgDecoder{r: bytes.NewReader(stream), buf: make([]byte, bufSize), caps: caps, general: general}
	for {
		ok, err := d.next()
		if err != nil || !ok {
			return states, err
		}
		data := &d.rec.Data
		states = append(states, decoderState{
			Type:       d.rec.Type,
			Path:       [2]rgStrState{strState(data.Path.Text), strState(data.Path.Bytes)},
			Lines:      [2]rgStrState{strState(data.Lines.Text), strState(data.Lines.Bytes)},
			LineNumber: data.LineNumber, AbsoluteOffset: data.AbsoluteOffset,
			Submatches: append([]rgSubmatch{}, data.Submatches...), More: data.MoreSubmatches,
			BinaryOffset: data.BinaryOffset, HasBinaryOffset: data.HasBinaryOffset, Stats: data.Stats,
		})
	}
}

// TestFastRecordIsTheGeneralDecoder decodes streams of records laid out
// as rg prints them, and mutations of them, with and without the fast
// path, under random caps: the records, the kept strings and the errors
// must be the same. The unmutated records are also checked against
// encoding/json, and most of them must take the fast path.
func TestFastRecordIsTheGeneralDecoder(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(5, 8))
	tookFast, canonical := 0, 0
	for range randomCases(3_000) {
		var stream []byte
		var recs [][]byte
		for range 1 + r.IntN(6) {
			rec := canonicalRecord(r)
			if r.IntN(3) == 0 {
				rec = mutate(r, rec)
			} else {
				recs = append(recs, rec)
			}
			stream = append(append(stream, rec...), '\n')
		}
		caps := rgCaps{text: -1, subs: -1}
		if r.IntN(2) == 0 {
			caps = rgCaps{text: r.IntN(12), subs: r.IntN(3)}
		}
		// Small read buffers, so that records straddle reads and some are
		// longer than the buffer.
		bufSize := 64 + r.IntN(1024)
		want, wantErr := decodeAll(stream, caps, bufSize, true)
		got, gotErr := decodeAll(stream, caps, bufSize, false)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
			t.Fatalf("caps %+v, buffer %d: the fast path decoded\n%s\ndifferently:\n got %+v, %v\nwant %+v, %v", caps, bufSize, stream, got, gotErr, want, wantErr)
		}
		for _, rec := range recs {
			compareWithEncodingJSON(t, rec)
			d := &rgDecoder{r: bytes.NewReader(append(rec, '\n')), buf: make([]byte, 4096), caps: caps}
			canonical++
			if d.fastRecord() {
				tookFast++
			}
		}
	}
	// Some canonical records have a string or number the fast path leaves
	// alone; most must be read by it.
	if tookFast < canonical/2 {
		t.Errorf("the fast path read %d of %d records laid out as rg prints them", tookFast, canonical)
	}
}

// TestFastRecordReadsRealOutput: every begin, match and context record of
// rg's own output in testdata is read by the fast path, and the stream
// decodes as the general decoder decodes it, whatever the read size.
func TestFastRecordReadsRealOutput(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"content.jsonl", "multiline.jsonl"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "rg-json", name))
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
				if !bytes.Contains(l, []byte(`"type":"begin"`)) && !bytes.Contains(l, []byte(`"type":"match"`)) && !bytes.Contains(l, []byte(`"type":"context"`)) {
					continue
				}
				if bytes.Contains(l, []byte(`{"bytes":`)) || bytes.Contains(l, []byte(`\u`)) {
					continue
				}
				d := newRgDecoder(bytes.NewReader(append(l, '\n')), rgCaps{text: -1, subs: -1})
				if !d.fastRecord() {
					t.Errorf("the fast path left %s to the general decoder", l)
				}
			}
			caps := rgCaps{text: -1, subs: -1}
			want, wantErr := decodeAll(data, caps, readBufSize, true)
			got, gotErr := decodeAll(data, caps, readBufSize, false)
			if gotErr != nil || wantErr != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("fast path: %v, general: %v, records equal: %v", gotErr, wantErr, reflect.DeepEqual(got, want))
			}
		})
	}
}

// TestFastRecordAcrossReadBoundaries: a record that straddles the end of
// the read buffer, or is longer than it, decodes the same.
func TestFastRecordAcrossReadBoundaries(t *testing.T) {
	t.Parallel()
	line := func(n int) string {
		return `{"type":"match","data":{"path":{"text":"/p"},"lines":{"text":"` + strings.Repeat("x\\t", n) + `\n"},"line_number":1,"absolute_offset":0,"submatches":[{"match":{"text":"x"},"start":0,"end":1}]}}` + "\n"
	}
	var stream strings.Builder
	for _, n := range []int{10, readBufSize / 3, readBufSize / 2, 10, readBufSize, 3, readBufSize / 5} {
		stream.WriteString(line(n))
	}
	data := []byte(stream.String())
	caps := rgCaps{text: -1, subs: -1}
	want, wantErr := decodeAll(data, caps, readBufSize, true)
	got, gotErr := decodeAll(data, caps, readBufSize, false)
	if gotErr != nil || wantErr != nil || len(got) != 7 || !reflect.DeepEqual(got, want) {
		t.Errorf("fast path: %v, general: %v, %d records, equal: %v", gotErr, wantErr, len(got), reflect.DeepEqual(got, want))
	}
}

// TestKeptBase64IsCheckedWhereverTheBufferSplits: a "bytes" string is
// checked as it streams only where it passes the cap (the kept part is
// checked when it is decoded), so where the read buffer splits it must not
// change the answer. It once did: a chunk that crossed the cap was
// checked whole, kept part included.
func TestKeptBase64IsCheckedWhereverTheBufferSplits(t *testing.T) {
	t.Parallel()
	rec := []byte(`{"type":"context","data":{"path":{"text":"p"},"lines":{"bytes":"ItC2YdC2LUg1}fC9DXVxueGYmW2lJZVoi"},"line_number":1,"absolute_offset":0,"submatches":[]}}` + "\n")
	caps := rgCaps{text: 7, subs: 2}
	want, wantErr := decodeAll(rec, caps, 4096, true)
	for size := 64; size < len(rec)+8; size++ {
		for _, general := range []bool{true, false} {
			got, err := decodeAll(rec, caps, size, general)
			if fmt.Sprint(err) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
				t.Fatalf("buffer %d (general decoder only: %v): %+v, %v; with a whole-record buffer %+v, %v", size, general, got, err, want, wantErr)
			}
		}
	}
}
