package search

import (
	"reflect"
	"testing"
)

// A run's lines come out as an engine reports each alone: numbered on
// from the first, located, the '\r' of a CRLF end in the terminator.
func TestLineRunEachSplitsAsAnEngineReports(t *testing.T) {
	t.Parallel()
	run := LineRun{Path: "a.txt", Number: 7, Lines: 3, Text: []byte("one\r\ntwo\n\n"), Kind: KindContext, Offset: 100}
	var got []Line
	if err := run.Each(func(l Line) error {
		l.Text = append([]byte(nil), l.Text...)
		got = append(got, l)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want := []Line{
		{Path: "a.txt", Number: 7, Text: []byte("one"), Kind: KindContext, Located: true, Offset: 100, Term: "\r\n"},
		{Path: "a.txt", Number: 8, Text: []byte("two"), Kind: KindContext, Located: true, Offset: 105, Term: "\n"},
		{Path: "a.txt", Number: 9, Text: nil, Kind: KindContext, Located: true, Offset: 109, Term: "\n"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Each:\n got %+v\nwant %+v", got, want)
	}
}

// SplitFirst cuts the run after its first line, numbers and offsets on.
func TestLineRunSplitFirst(t *testing.T) {
	t.Parallel()
	run := LineRun{Path: "p", Number: 3, Lines: 3, Text: []byte("ab\ncd\nef\n"), Kind: KindMatch, Offset: 10}
	first, rest := run.SplitFirst()
	if first.Number != 3 || first.Lines != 1 || string(first.Text) != "ab\n" || first.Offset != 10 {
		t.Errorf("first = %+v", first)
	}
	if rest.Number != 4 || rest.Lines != 2 || string(rest.Text) != "cd\nef\n" || rest.Offset != 13 || rest.Kind != KindMatch || rest.Path != "p" {
		t.Errorf("rest = %+v", rest)
	}
}
