package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

func newTestWorkspace(t *testing.T, root string, opts Options) *Workspace {
	t.Helper()
	w, err := NewWorkspace(root, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Close() })
	return w
}

func callTool(t *testing.T, w *Workspace, name string, args any) (Output, error) {
	t.Helper()
	tool, ok := w.Tool(name)
	if !ok {
		t.Fatalf("no tool %q", name)
	}
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	return tool.Call(context.Background(), raw)
}

func numbered(from, to int, line func(int) string) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "%d\t%s\n", i, line(i))
	}
	return b.String()
}

func TestReadShowsNumberedLines(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "five.txt"), "one\ntwo\nthree\nfour\nfive")
	writeFile(t, filepath.Join(root, "crlf.txt"), "a\r\nb\r\n")
	writeFile(t, filepath.Join(root, "empty.txt"), "")
	w := newTestWorkspace(t, root, Options{})
	readTool, _ := w.Tool("Read")
	cases := []struct {
		name     string
		args     map[string]any
		wantText string
		want     ReadResult
		summary  string
	}{
		{"whole file, last line without newline", map[string]any{"file_path": "five.txt"},
			"1\tone\n2\ttwo\n3\tthree\n4\tfour\n5\tfive\n",
			ReadResult{FilePath: "five.txt", Content: "one\ntwo\nthree\nfour\nfive", StartLine: 1, NumLines: 5, TotalLines: 5},
			"Read five.txt:1-5"},
		{"offset 0 means 1", map[string]any{"file_path": "five.txt", "offset": 0, "limit": 2},
			"1\tone\n2\ttwo\n[Showing lines 1-2 of 5. Continue with offset=3.]\n",
			ReadResult{FilePath: "five.txt", Content: "one\ntwo", StartLine: 1, NumLines: 2, TotalLines: 5, Truncated: true, NextOffset: 3},
			"Read five.txt:1-2"},
		{"offset and limit", map[string]any{"file_path": "five.txt", "offset": 3, "limit": 2},
			"3\tthree\n4\tfour\n[Showing lines 3-4 of 5. Continue with offset=5.]\n",
			ReadResult{FilePath: "five.txt", Content: "three\nfour", StartLine: 3, NumLines: 2, TotalLines: 5, Truncated: true, NextOffset: 5},
			"Read five.txt:3-4"},
		{"limit past the end", map[string]any{"file_path": "five.txt", "offset": 5, "limit": 10},
			"5\tfive\n",
			ReadResult{FilePath: "five.txt", Content: "five", StartLine: 5, NumLines: 1, TotalLines: 5},
			"Read five.txt:5-5"},
		{"CRLF is one line break", map[string]any{"file_path": "crlf.txt"},
			"1\ta\n2\tb\n",
			ReadResult{FilePath: "crlf.txt", Content: "a\nb", StartLine: 1, NumLines: 2, TotalLines: 2},
			"Read crlf.txt:1-2"},
		{"absolute path", map[string]any{"file_path": filepath.Join(root, "crlf.txt"), "limit": 1},
			"1\ta\n[Showing lines 1-1 of 2. Continue with offset=2.]\n",
			ReadResult{FilePath: "crlf.txt", Content: "a", StartLine: 1, NumLines: 1, TotalLines: 2, Truncated: true, NextOffset: 2},
			"Read crlf.txt:1-1"},
		{"empty file", map[string]any{"file_path": "empty.txt"},
			"[empty.txt is empty: 0 lines]\n",
			ReadResult{FilePath: "empty.txt", StartLine: 1},
			"Read empty.txt (empty)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := callTool(t, w, "Read", tc.args)
			if err != nil {
				t.Fatal(err)
			}
			checkOutput(t, readTool, out, tc.wantText, tc.summary)
			if got := *out.Structured.(*ReadResult); got != tc.want {
				t.Errorf("structured = %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestReadRefusals(t *testing.T) {
	f := newSandboxFixture(t)
	writeFile(t, filepath.Join(f.root, "bin.dat"), "PK\x03\x04\x00\x00binary")
	late := strings.Repeat("text line\n", 2000) + "tail\x00 NUL after the sniff window\n"
	writeFile(t, filepath.Join(f.root, "late-nul.txt"), late)
	w := newTestWorkspace(t, f.root, Options{})
	cases := []struct {
		name string
		args map[string]any
		want []string // substrings of the error
		is   error
	}{
		{"outside by dot dot", map[string]any{"file_path": "../outside/secret.txt"}, []string{"outside the workspace root"}, ErrOutsideRoot},
		{"outside by absolute path", map[string]any{"file_path": "/etc/passwd"}, []string{"outside the workspace root"}, ErrOutsideRoot},
		{"outside by symlinked parent", map[string]any{"file_path": "to_outside/secret.txt"}, []string{"outside the workspace root"}, ErrOutsideRoot},
		{"missing file names the path and Glob", map[string]any{"file_path": "sub/nope.go"}, []string{`"sub/nope.go" does not exist`, "use Glob"}, ErrNotFound},
		{"directory", map[string]any{"file_path": "sub"}, []string{"is a directory", "use Glob"}, nil},
		{"binary at the start", map[string]any{"file_path": "bin.dat"}, []string{"binary file", "byte 5"}, nil},
		{"binary after the sniff window", map[string]any{"file_path": "late-nul.txt", "offset": 1990}, []string{"binary file", fmt.Sprintf("byte %d", 2000*10+5)}, nil},
		{"offset past the end", map[string]any{"file_path": "a.txt", "offset": 9}, []string{"past the end", "has 1 lines", "from 1 to 1"}, nil},
		{"missing file_path", map[string]any{}, []string{`"file_path" is required`}, nil},
		{"negative limit", map[string]any{"file_path": "a.txt", "limit": -1}, []string{`"limit" must be 0 or more`}, nil},
		{"unknown parameter", map[string]any{"file_path": "a.txt", "pages": "1-2"}, []string{`"pages" is not a parameter`, "file_path, limit, offset"}, nil},
		{"case-variant key", map[string]any{"FILE_PATH": "a.txt"}, []string{`"FILE_PATH" is not a parameter`, `did you mean "file_path"`, "file_path, limit, offset"}, nil},
		{"case-variant key beside the right one", map[string]any{"file_path": "a.txt", "Limit": 1}, []string{`"Limit" is not a parameter`, "file_path, limit, offset"}, nil},
		{"wrong type", map[string]any{"file_path": "a.txt", "offset": "10"}, []string{`"offset" must be an integer`}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := callTool(t, w, "Read", tc.args)
			if err == nil {
				t.Fatalf("no error; text %q", out.Text)
			}
			for _, s := range tc.want {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not contain %q", err, s)
				}
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %v is not %v", err, tc.is)
			}
			if !strings.HasSuffix(out.Summary, "(error)") && !strings.HasSuffix(out.Summary, "(invalid arguments)") {
				t.Errorf("summary %q does not say the call failed", out.Summary)
			}
		})
	}
}

func TestReadCutsLongLines(t *testing.T) {
	root := t.TempDir()
	long := strings.Repeat("é", 2500) // 2 bytes each
	writeFile(t, filepath.Join(root, "min.js"), "short\n"+long+"\nafter\n")
	w := newTestWorkspace(t, root, Options{})
	out, err := callTool(t, w, "Read", map[string]any{"file_path": "min.js"})
	if err != nil {
		t.Fatal(err)
	}
	want := "1\tshort\n2\t" + strings.Repeat("é", 2000) + "[... 1000 more bytes]\n3\tafter\n" +
		"[1 line(s) longer than 2000 characters were cut; the marker says how many bytes are not shown.]\n"
	if out.Text != want {
		t.Errorf("text = %q...; want %q...", out.Text[:40], want[:40])
	}
	if r := out.Structured.(*ReadResult); r.CutLines != 1 || r.TotalLines != 3 {
		t.Errorf("structured = %+v", r)
	}
}

// The output cap holds whatever limit asks for, cuts at a line boundary,
// and the next offset continues exactly where the text stopped.
func TestReadOutputCapPagesExactly(t *testing.T) {
	root := t.TempDir()
	line := func(i int) string { return fmt.Sprintf("line %04d %s", i, strings.Repeat("x", 90)) }
	var b strings.Builder
	for i := 1; i <= 1000; i++ {
		b.WriteString(line(i) + "\n")
	}
	writeFile(t, filepath.Join(root, "big.txt"), b.String())
	w := newTestWorkspace(t, root, Options{})
	seen := 0
	for offset := 1; offset != 0; {
		out, err := callTool(t, w, "Read", map[string]any{"file_path": "big.txt", "offset": offset})
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Text) > DefaultMaxOutputChars {
			t.Fatalf("text is %d chars, over the %d cap", len(out.Text), DefaultMaxOutputChars)
		}
		r := out.Structured.(*ReadResult)
		if r.StartLine != seen+1 {
			t.Fatalf("page starts at %d; want %d", r.StartLine, seen+1)
		}
		if !strings.HasPrefix(out.Text, numbered(r.StartLine, r.StartLine+r.NumLines-1, line)) {
			t.Fatalf("page at %d does not show its lines in order", offset)
		}
		seen += r.NumLines
		if r.Truncated && !strings.Contains(out.Text, fmt.Sprintf("Continue with offset=%d.", r.NextOffset)) {
			t.Fatalf("truncated page does not give the next offset: %q", out.Text[len(out.Text)-100:])
		}
		offset = r.NextOffset
	}
	if seen != 1000 {
		t.Fatalf("pages covered %d lines; want 1000", seen)
	}
}

// Case 42: while a goroutine flips ws/d between a real directory and a
// symlink to a directory outside, no Read ever returns the outside file.
func TestReadSymlinkRaceNeverEscapes(t *testing.T) {
	f := newSandboxFixture(t)
	d := filepath.Join(f.root, "d")
	real := filepath.Join(f.root, "d.real")
	writeFile(t, filepath.Join(real, "secret.txt"), "inside\n")
	if err := os.Rename(real, d); err != nil {
		t.Fatal(err)
	}
	w := newTestWorkspace(t, f.root, Options{})
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			_ = os.Rename(d, real)
			_ = os.Symlink(f.outside, d)
			_ = os.Remove(d)
			_ = os.Rename(real, d)
		}
	}()
	ok := 0
	for range 2000 {
		out, err := w.Read(context.Background(), ReadInput{FilePath: "d/secret.txt"})
		if err != nil {
			continue
		}
		ok++
		if strings.Contains(out.Text, "OUTSIDE") {
			stop.Store(true)
			wg.Wait()
			t.Fatalf("read escaped the root: %q", out.Text)
		}
	}
	stop.Store(true)
	wg.Wait()
	t.Logf("%d of 2000 reads succeeded while the directory flipped", ok)
}

func TestToolNamesPresets(t *testing.T) {
	root := t.TempDir()
	w := newTestWorkspace(t, root, Options{Names: SnakeNames()})
	var names []string
	for _, tool := range w.Tools() {
		names = append(names, tool.Name)
		if strings.Contains(tool.Description, "{") && strings.Contains(tool.Description, "{Grep}") {
			t.Errorf("%s description has an unfilled placeholder", tool.Name)
		}
	}
	if got := strings.Join(names, ","); got != "grep_search,glob_search,read_file" {
		t.Fatalf("names = %s", got)
	}
	read, _ := w.Tool("read_file")
	if !strings.Contains(read.Description, "use glob_search to list") {
		t.Errorf("read_file description does not refer to glob_search: %q", read.Description)
	}
	if _, err := NamesPreset("camel"); err == nil {
		t.Error("NamesPreset(camel) succeeded")
	}
}

// The defence behind the sandbox check: if ws/d became a symlink to outside
// after Resolve accepted "d/secret.txt", the open through os.Root still
// refuses to leave the root.
func TestReadThroughOSRootRefusesASwappedSymlink(t *testing.T) {
	f := newSandboxFixture(t)
	writeFile(t, filepath.Join(f.root, "d", "secret.txt"), "inside\n")
	w := newTestWorkspace(t, f.root, Options{})
	tgt, err := w.sandbox.Resolve("d/secret.txt")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(f.root, "d")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(f.outside, filepath.Join(f.root, "d")); err != nil {
		t.Fatal(err)
	}
	res, text, err := w.readFile(context.Background(), tgt, ReadInput{FilePath: "d/secret.txt"})
	if err == nil {
		t.Fatalf("read through a swapped symlink succeeded: %+v %q", res, text)
	}
	t.Logf("refused: %v", err)
}
