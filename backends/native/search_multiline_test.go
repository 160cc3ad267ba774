package native

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// The multiline iterator resumes Go's regexp every mlChunk matches; it must
// find exactly what one pass over the whole buffer finds, whatever the
// pattern looks at before a match.
func TestMultilineIteratorFindsWhatOnePassFinds(t *testing.T) {
	t.Parallel()
	var text strings.Builder
	for i := range 3 * mlChunk {
		fmt.Fprintf(&text, "ab%d x\u00e9y a\n\nab b\r\n", i%7)
	}
	texts := map[string][]byte{
		"lines":     []byte(text.String()),
		"one line":  bytes.Repeat([]byte("ab "), 4*mlChunk),
		"no end nl": []byte(strings.TrimSuffix(text.String(), "\n")),
	}
	patterns := []string{
		`b\n`,       // no assertion: resumed anywhere
		`^a|\n`,     // ^ only: resumed at line starts, else the VM
		`\Aab|b\s`,  // \A: the VM
		`\bab|\n\n`, // Unicode \b: the VM from the start
		`a?`,        // empty matches next to matches
		`(?-u:\b)b|\n`,
		`$\n?|y`,
		`\r?\n|é`,
	}
	for name, data := range texts {
		for _, p := range patterns {
			t.Run(name+"/"+p, func(t *testing.T) {
				t.Parallel()
				m, err := Compile(MatchOptions{Pattern: p, Multiline: true})
				if err != nil {
					t.Fatal(err)
				}
				one := *m
				one.midEmpty = false // (Go's one pass: `a?` is searched line by line, where midCharEach adds to it)
				want := one.appendSpans(data, nil)
				var got [][2]int
				it := newMLIter(m, data)
				for {
					s, e, ok := it.next()
					if !ok {
						break
					}
					got = append(got, [2]int{s, e})
				}
				if len(got) != len(want) {
					t.Fatalf("%d matches, one pass finds %d", len(got), len(want))
				}
				for i := range want {
					if got[i] != want[i] {
						t.Fatalf("match %d is %v, one pass finds %v", i, got[i], want[i])
					}
				}
			})
		}
	}
}

// A sink that stops after a few lines stops a multiline search there: the
// lines go out as the matches are found, not once the file is done.
func TestMultilineStreamsEachBlock(t *testing.T) {
	t.Parallel()
	data := bytes.Repeat([]byte("x\n"), 100_000)
	errEnough := errors.New("enough")
	for _, p := range []string{`x\n`, `\nx`} {
		t.Run(p, func(t *testing.T) {
			t.Parallel()
			m, err := Compile(MatchOptions{Pattern: p, Multiline: true})
			if err != nil {
				t.Fatal(err)
			}
			var lines []int
			_, err = m.Search(data, SearchOptions{}, func(l Line) error {
				lines = append(lines, l.Number)
				if len(lines) == 3 {
					return errEnough
				}
				return nil
			})
			if !errors.Is(err, errEnough) {
				t.Fatalf("search ended with %v, want the sink's error", err)
			}
			if fmt.Sprint(lines) != "[1 2 3]" {
				t.Errorf("lines %v, want [1 2 3]", lines)
			}
		})
	}
}

// One line with more matches than a Line stores holds MaxSubmatches of them
// and counts the rest, in multiline mode as in line mode.
func TestMultilineLineCountsSubmatchesPastTheCap(t *testing.T) {
	t.Parallel()
	n := MaxSubmatches + 100
	data := append(bytes.Repeat([]byte("A"), n), '\n')
	m, err := Compile(MatchOptions{Pattern: `A|\n`, Multiline: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []Line
	res, err := m.Search(data, SearchOptions{}, func(l Line) error {
		got = append(got, Line{Number: l.Number, More: l.More, Submatches: append([][2]int(nil), l.Submatches...)})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("%d lines, want 1", len(got))
	}
	if stored := len(got[0].Submatches); stored != MaxSubmatches || stored+got[0].More != n+1 {
		t.Errorf("%d submatches stored and %d counted, want %d and %d", stored, got[0].More, MaxSubmatches, n+1-MaxSubmatches)
	}
	if res.MatchedLines != n+1 {
		t.Errorf("count %d, want %d (every match)", res.MatchedLines, n+1)
	}
}
