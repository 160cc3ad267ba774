package native

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"golang.org/x/text/transform"

	"github.com/rgkit/rgkit/search"
)

type seenLine struct {
	Number  int
	Text    string
	Context bool
	Spans   string
	Offset  int
	Term    string
}

func collect(lines *[]seenLine) func(Line) error {
	return func(l Line) error {
		*lines = append(*lines, seenLine{l.Number, string(l.Text), l.Context, fmt.Sprint(l.Submatches), l.Offset, l.Term})
		return nil
	}
}

// SearchReader, reading the data a byte at a time or in windows of 64
// KiB, reports what Search reports on the whole data: the same lines,
// numbers, spans, offsets and terminators, context and -m across window
// boundaries included.
func TestSearchReaderFindsWhatSearchFinds(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for i := range 30000 {
		switch {
		case i%997 == 0:
			fmt.Fprintf(&b, "line %d has foo and foo\r\n", i)
		case i%1500 == 1:
			fmt.Fprintf(&b, "%s foo long\n", strings.Repeat("x", 70000)) // longer than a window
		default:
			fmt.Fprintf(&b, "line %d\n", i)
		}
	}
	b.WriteString("last foo without end")
	data := []byte(b.String())
	for _, o := range []SearchOptions{
		{}, {Before: 2}, {After: 3}, {Before: 1, After: 1}, {MaxCount: 5, After: 2}, {MaxCount: 1},
		{CountOnly: true}, {CountOnly: true, MaxCount: 7}, {FilesOnly: true}, {Text: true}, {BinaryConvert: true},
	} {
		t.Run(fmt.Sprintf("%+v", o), func(t *testing.T) {
			t.Parallel()
			m, err := Compile(MatchOptions{Pattern: "fo+"})
			if err != nil {
				t.Fatal(err)
			}
			var want, oneByte, windows []seenLine
			wr, err := m.Search(data, o, collect(&want))
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range []struct {
				r    io.Reader
				into *[]seenLine
			}{{iotest.OneByteReader(bytes.NewReader(data)), &oneByte}, {bytes.NewReader(data), &windows}} {
				got, err := m.SearchReader(r.r, o, collect(r.into))
				if err != nil {
					t.Fatal(err)
				}
				if got.MatchedLines != wr.MatchedLines || got.Binary {
					t.Errorf("SearchReader counted %d (binary %v), Search %d", got.MatchedLines, got.Binary, wr.MatchedLines)
				}
				if fmt.Sprint(*r.into) != fmt.Sprint(want) {
					t.Errorf("SearchReader reported %d lines, Search %d; first difference at %d", len(*r.into), len(want), firstDifference(*r.into, want))
				}
			}
		})
	}
}

func firstDifference(a, b []seenLine) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// rg's rules for binary data in a reader: by default the search stops at
// the read that brings a NUL, having searched the lines before it; with
// BinaryConvert a NUL is a line break; with Text a plain byte.
func TestSearchReaderBinaryRules(t *testing.T) {
	t.Parallel()
	m, err := Compile(MatchOptions{Pattern: "foo"})
	if err != nil {
		t.Fatal(err)
	}
	first := "foo 1\nbar\n"
	second := "x\x00foo 2\nfoo 3\n"
	for _, tt := range []struct {
		name  string
		o     SearchOptions
		lines string
		bin   bool
	}{
		{"stop at the NUL's read", SearchOptions{}, "[{1 foo 1 false [[0 3]] 0 \n}]", true},
		{"NUL as a line break", SearchOptions{BinaryConvert: true}, "[{1 foo 1 false [[0 3]] 0 \n} {4 foo 2 false [[0 3]] 12 \n} {5 foo 3 false [[0 3]] 18 \n}]", true},
		{"NUL as a byte", SearchOptions{Text: true}, "[{1 foo 1 false [[0 3]] 0 \n} {3 x\x00foo 2 false [[2 5]] 10 \n} {4 foo 3 false [[0 3]] 18 \n}]", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []seenLine
			r := io.MultiReader(strings.NewReader(first), strings.NewReader(second))
			res, err := m.SearchReader(r, tt.o, collect(&got))
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != tt.lines || res.Binary != tt.bin {
				t.Errorf("got %q binary %v, want %q binary %v", fmt.Sprint(got), res.Binary, tt.lines, tt.bin)
			}
		})
	}
}

// A decompression bomb costs time, not memory: 128 MiB of text in a gzip
// file of a few hundred KiB is searched (rg -z) with the heap growing by
// far less than the text, because it is decompressed and searched a window
// at a time.
func TestSearchZipMemoryIsBounded(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "bomb.log.gz"))
	if err != nil {
		t.Fatal(err)
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
	block := bytes.Repeat([]byte("the same log line again and again\n"), 1<<15)
	const total = 128 << 20
	for n := 0; n < total; n += len(block) {
		zw.Write(block)
	}
	zw.Write([]byte("needle at the end\n"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	q, err := search.Normalize(search.Query{Pattern: "needle", Root: dir, SearchZip: true, Sort: search.SortNone})
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var lines []string
	st, err := New().Search(context.Background(), q, search.SinkFunc(func(l search.Line) error {
		lines = append(lines, string(l.Text))
		return nil
	}))
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 1 || lines[0] != "needle at the end" || st.BytesSearched < total {
		t.Fatalf("found %q in %d bytes, want the needle in %d", lines, st.BytesSearched, total)
	}
	t.Logf("allocated %d KiB", (after.TotalAlloc-before.TotalAlloc)>>10)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("searching %d MiB decompressed allocated %d MiB; want it bounded by the window", total>>20, alloc>>20)
	}
}

// The UTF-16 decoder gives utf16ToUTF8's answer (encoding_rs's rules)
// whatever the chunks it is fed: surrogate pairs split across chunks,
// unpaired surrogates, an odd last byte.
func TestUTF16DecoderStreamsAsTheWholeBufferDecoderDecodes(t *testing.T) {
	t.Parallel()
	le := []byte{'a', 0, 0x3D, 0xD8, 0x00, 0xDE, 'b', 0, 0x00, 0xDC, 'c', 0, 0x3D, 0xD8, 'd', 0, 0xE9, 0, 0x42, 0x30}
	for _, tt := range []struct {
		name string
		data []byte
		be   bool
	}{
		{"le", le, false}, {"le odd end", append(le, 'x'), false}, {"le lone high at end", append(le, 0x3D, 0xD8), false},
		{"be", swapPairs(le), true}, {"be odd end", append(swapPairs(le), 'x'), true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			want := utf16ToUTF8(tt.data, tt.be)
			for _, chunk := range []int{1, 3, 1000} {
				r := transform.NewReader(&chunkReader{tt.data, chunk}, utf16Decoder{bigEndian: tt.be})
				got, err := io.ReadAll(r)
				if err != nil || !bytes.Equal(got, want) {
					t.Errorf("chunks of %d: %q (%v), want %q", chunk, got, err, want)
				}
			}
		})
	}
}

func swapPairs(b []byte) []byte {
	out := bytes.Clone(b)
	for i := 0; i+1 < len(out); i += 2 {
		out[i], out[i+1] = out[i+1], out[i]
	}
	return out
}

// chunkReader reads data n bytes at a time.
type chunkReader struct {
	data []byte
	n    int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.data[:min(c.n, len(c.data))])
	c.data = c.data[n:]
	return n, nil
}
