package tools

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rgkit/rgkit/search"
)

// grepTree is a small project: Go and JS files, a subdirectory, an ignored
// file and a hidden one, all with one modification time (so that the
// newest-first file lists fall back to path order).
func grepTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"main.go":          "package main\n\nfunc main() {\n\tneedle()\n}\n",
		"lib/needle.go":    "package lib\n\n// Needle finds.\nfunc needle() {}\n\nvar x interface{} = needle\n",
		"lib/other.go":     "package lib\n",
		"web/app.js":       "const needle = 1;\nconsole.log(needle);\n",
		"web/a.b(.txt":     "call a.b( here\n",
		"ignored/junk.go":  "needle in ignored\n",
		".hidden/h.go":     "needle in hidden\n",
		".ignore":          "ignored/\n",
		"multi/lines.txt":  "start\nmiddle\nend\n",
		"ctx/context.txt":  "c1\nc2\nhit one\nc4\nc5\nc6\nc7\nhit two\nc9\n",
		"case/mixed.txt":   "NEEDLE upper\nneedle lower\n",
		"long/minified.js": "var needle='" + strings.Repeat("x", 2000) + "';\n",
	}
	mt := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		writeFile(t, p, content)
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// files_with_matches lists files newest modified first, ties by path, like
// Glob; pages cut that one order, so they neither repeat nor skip a file.
// Before, the list was in path order.
func TestGrepFilesNewestFirst(t *testing.T) {
	root := t.TempDir()
	base := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	// name -> minutes after base; b.txt and c.txt tie.
	for name, min := range map[string]int{"a.txt": 1, "b.txt": 5, "c.txt": 5, "sub/d.txt": 9, "e.txt": 3} {
		p := filepath.Join(root, filepath.FromSlash(name))
		writeFile(t, p, "needle\n")
		mt := base.Add(time.Duration(min) * time.Minute)
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	w := newTestWorkspace(t, root, Options{Searcher: testChain()})
	want := []string{"sub/d.txt", "b.txt", "c.txt", "e.txt", "a.txt"}
	out, err := callTool(t, w, "Grep", map[string]any{"pattern": "needle"})
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Structured.(*GrepResult).Files; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("files %v; want %v", got, want)
	}
	var paged []string
	for offset := 0; offset < len(want); offset += 2 {
		out, err := callTool(t, w, "Grep", map[string]any{"pattern": "needle", "head_limit": 2, "offset": offset})
		if err != nil {
			t.Fatal(err)
		}
		paged = append(paged, out.Structured.(*GrepResult).Files...)
	}
	if strings.Join(paged, ",") != strings.Join(want, ",") {
		t.Errorf("pages of 2 give %v; want %v", paged, want)
	}
	grepTool, _ := w.Tool("Grep")
	if !strings.Contains(grepTool.Description, "newest modified first") {
		t.Errorf("the description does not say the order:\n%s", grepTool.Description)
	}
}

func TestGrepModes(t *testing.T) {
	root := grepTree(t)
	w := newTestWorkspace(t, root, Options{Searcher: testChain()})
	grepTool, _ := w.Tool("Grep")
	cases := []struct {
		name    string
		args    map[string]any
		text    string
		summary string
	}{
		{"files_with_matches is the default, sorted by path",
			map[string]any{"pattern": "needle", "glob": "*.go"},
			"lib/needle.go\nmain.go\n", "Grep needle (2 files)"},
		{"content with line numbers by default",
			map[string]any{"pattern": "needle", "path": "lib", "output_mode": "content"},
			"lib/needle.go:4:func needle() {}\nlib/needle.go:6:var x interface{} = needle\n", "Grep needle (2 matches in 1 file)"},
		{"content without line numbers",
			map[string]any{"pattern": "needle", "path": "web/app.js", "output_mode": "content", "-n": false},
			"web/app.js:const needle = 1;\nweb/app.js:console.log(needle);\n", "Grep needle (2 matches in 1 file)"},
		{"context lines and group separators like rg",
			map[string]any{"pattern": "hit", "path": "ctx", "output_mode": "content", "-C": 1},
			"ctx/context.txt-2-c2\nctx/context.txt:3:hit one\nctx/context.txt-4-c4\n--\nctx/context.txt-7-c7\nctx/context.txt:8:hit two\nctx/context.txt-9-c9\n",
			"Grep hit (2 matches in 1 file)"},
		{"-A and -B override context",
			map[string]any{"pattern": "hit one", "path": "ctx", "output_mode": "content", "context": 3, "-A": 1, "-B": 0},
			"ctx/context.txt-1-c1\nctx/context.txt-2-c2\nctx/context.txt:3:hit one\nctx/context.txt-4-c4\n",
			"Grep hit one (1 match in 1 file)"},
		{"count",
			map[string]any{"pattern": "needle", "output_mode": "count", "type": "go"},
			"lib/needle.go:2\nmain.go:1\n[3 matching lines in 2 files]\n", "Grep needle (3 matching lines in 2 files)"},
		{"case-sensitive by default",
			map[string]any{"pattern": "NEEDLE", "output_mode": "content", "path": "case"},
			"case/mixed.txt:1:NEEDLE upper\n", "Grep NEEDLE (1 match in 1 file)"},
		{"-i",
			map[string]any{"pattern": "NEEDLE", "output_mode": "count", "path": "case", "-i": true},
			"case/mixed.txt:2\n[2 matching lines in 1 file]\n", "Grep NEEDLE (2 matching lines in 1 file)"},
		{"fixed_strings takes regex characters literally",
			map[string]any{"pattern": "a.b(", "fixed_strings": true, "output_mode": "content"},
			"web/a.b(.txt:1:call a.b( here\n", "Grep a.b( (1 match in 1 file)"},
		// The summary counts what the engine counts (rg -c counts a
		// multiline match once), so only the text is pinned here.
		{"multiline spans lines",
			map[string]any{"pattern": "start.middle", "multiline": true, "output_mode": "content"},
			"multi/lines.txt:1:start\nmulti/lines.txt:2:middle\n", ""},
		{"a long matching line is cut at 500 bytes with a marker",
			map[string]any{"pattern": "var needle", "path": "long", "output_mode": "content"},
			"long/minified.js:1:var needle='" + strings.Repeat("x", 500-12) + "[... 1514 more bytes]\n" +
				"[1 line(s) longer than 500 bytes were cut; use Read with offset near the line number to see them.]\n",
			"Grep var needle (1 match in 1 file)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := callTool(t, w, "Grep", tc.args)
			if err != nil {
				t.Fatal(err)
			}
			checkOutput(t, grepTool, out, tc.text, tc.summary)
		})
	}
}

func TestGrepStructuredContext(t *testing.T) {
	w := newTestWorkspace(t, grepTree(t), Options{Searcher: testChain()})
	out, err := w.Grep(context.Background(), GrepInput{Pattern: "hit", Path: "ctx", OutputMode: GrepContent, C: 1})
	if err != nil {
		t.Fatal(err)
	}
	r := out.Structured.(*GrepResult)
	want := []GrepMatch{
		{File: "ctx/context.txt", Line: 3, Text: "hit one",
			Before: []ContextLine{{Line: 2, Text: "c2"}}, After: []ContextLine{{Line: 4, Text: "c4"}}},
		{File: "ctx/context.txt", Line: 8, Text: "hit two",
			Before: []ContextLine{{Line: 7, Text: "c7"}}, After: []ContextLine{{Line: 9, Text: "c9"}}},
	}
	if fmt.Sprint(r.Matches) != fmt.Sprint(want) {
		t.Errorf("matches = %+v\nwant %+v", r.Matches, want)
	}
	if r.TotalMatches != 2 || r.TotalFiles != 1 || r.Truncated || r.Partial || r.Backend == "" {
		t.Errorf("result = %+v", r)
	}
}

// Paging: each page gives the next offset, and the pages cover every file
// once, in order (newest first: f6 was modified last).
func TestGrepPagesWithHeadLimitAndOffset(t *testing.T) {
	root := t.TempDir()
	base := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	for i := range 7 {
		p := filepath.Join(root, fmt.Sprintf("f%d.txt", i))
		writeFile(t, p, "needle\n")
		mt := base.Add(time.Duration(i) * time.Minute)
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	w := newTestWorkspace(t, root, Options{Searcher: testChain()})
	var got []string
	offset := 0
	for page := 0; ; page++ {
		out, err := callTool(t, w, "Grep", map[string]any{"pattern": "needle", "head_limit": 3, "offset": offset})
		if err != nil {
			t.Fatal(err)
		}
		r := out.Structured.(*GrepResult)
		got = append(got, r.Files...)
		if !r.Truncated {
			if strings.Contains(out.Text, "offset=") {
				t.Errorf("last page mentions a next offset: %q", out.Text)
			}
			break
		}
		if r.TruncatedBy != "head_limit" || r.NextOffset != offset+3 {
			t.Fatalf("page %d: %+v", page, r)
		}
		note := fmt.Sprintf("[Showing files %d-%d of 7 (head_limit). Use offset=%d for the next page", offset+1, offset+3, offset+3)
		if !strings.Contains(out.Text, note) {
			t.Fatalf("page %d text %q lacks %q", page, out.Text, note)
		}
		offset = r.NextOffset
	}
	if want := "f6.txt f5.txt f4.txt f3.txt f2.txt f1.txt f0.txt"; strings.Join(got, " ") != want {
		t.Fatalf("pages gave %v", got)
	}
	out, err := callTool(t, w, "Grep", map[string]any{"pattern": "needle", "head_limit": 0})
	if err != nil || len(out.Structured.(*GrepResult).Files) != 7 {
		t.Fatalf("head_limit 0 = %v, %v; want all 7 files", out.Text, err)
	}
}

// The output cap holds whatever head_limit says, cuts at an entry, and the
// next offset continues exactly after the last entry shown.
func TestGrepOutputCap(t *testing.T) {
	root := t.TempDir()
	var b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&b, "needle %04d %s\n", i, strings.Repeat("y", 60))
	}
	writeFile(t, filepath.Join(root, "big.txt"), b.String())
	w := newTestWorkspace(t, root, Options{Searcher: testChain()})
	next, seen := 0, 0
	for {
		out, err := callTool(t, w, "Grep", map[string]any{"pattern": "needle", "output_mode": "content", "head_limit": 0, "offset": next})
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Text) > DefaultMaxOutputChars {
			t.Fatalf("text is %d chars", len(out.Text))
		}
		r := out.Structured.(*GrepResult)
		if r.Matches[0].Line != seen+1 {
			t.Fatalf("page at offset %d starts at line %d; want %d", next, r.Matches[0].Line, seen+1)
		}
		seen += len(r.Matches)
		if !r.Truncated {
			break
		}
		if r.TruncatedBy != "output_cap" || !strings.Contains(out.Text, fmt.Sprintf("[Output cut at 30000 characters: showing matching lines %d-%d of 3000. Use offset=%d", next+1, seen, seen)) {
			t.Fatalf("cut page: %+v\n%s", r.TruncatedBy, out.Text[len(out.Text)-300:])
		}
		next = r.NextOffset
	}
	if seen != 3000 {
		t.Fatalf("pages covered %d matches; want 3000", seen)
	}
}

func TestGrepNoMatchesIsNotAnError(t *testing.T) {
	w := newTestWorkspace(t, grepTree(t), Options{Searcher: testChain()})
	out, err := callTool(t, w, "Grep", map[string]any{"pattern": "absent_word", "glob": "*.go"})
	if err != nil {
		t.Fatal(err)
	}
	want := `No matches found for pattern "absent_word" in glob "*.go" (files ignored by .gitignore/.ignore, hidden files and binary files were not searched).` + "\n"
	if out.Text != want || out.Summary != "Grep absent_word (no matches)" {
		t.Errorf("text %q summary %q", out.Text, out.Summary)
	}
	// The ignored and hidden files do hold the word; they are reachable by options.
	w = newTestWorkspace(t, grepTree(t), Options{Searcher: testChain(), Hidden: true, NoIgnore: true})
	out, err = callTool(t, w, "Grep", map[string]any{"pattern": "needle in"})
	if err != nil || out.Text != ".hidden/h.go\nignored/junk.go\n" {
		t.Errorf("with Hidden and NoIgnore: %q, %v", out.Text, err)
	}
}

func TestGrepErrorsAModelCanActOn(t *testing.T) {
	f := newSandboxFixture(t)
	w := newTestWorkspace(t, f.root, Options{Searcher: testChain()})
	cases := []struct {
		name string
		args map[string]any
		want []string
	}{
		{"unbalanced paren names the position and the escape", map[string]any{"pattern": "foo("}, []string{"invalid pattern", "at byte 4", `'\('`, "fixed_strings"}},
		{"look-around is refused with a hint", map[string]any{"pattern": "foo(?=bar)"}, []string{"invalid pattern", "fixed_strings"}},
		{"path outside the root", map[string]any{"pattern": "x", "path": "../outside"}, []string{"outside the workspace root"}},
		{"path through a symlink outside", map[string]any{"pattern": "x", "path": "to_outside"}, []string{"outside the workspace root"}},
		{"missing path says which", map[string]any{"pattern": "x", "path": "src/nope"}, []string{`"src/nope" does not exist`, "use Glob"}},
		{"glob climbing above the root", map[string]any{"pattern": "x", "glob": "../outside/*.txt"}, []string{`"glob"`, "climbs above"}},
		{"invalid glob", map[string]any{"pattern": "x", "glob": "src/[a-"}, []string{`"glob"`, "not a valid glob"}},
		{"unknown type lists known ones", map[string]any{"pattern": "x", "type": "golang"}, []string{"golang", "known types include", "go, py"}},
		{"bad output_mode", map[string]any{"pattern": "x", "output_mode": "lines"}, []string{"files_with_matches, content, count"}},
		{"negative context", map[string]any{"pattern": "x", "-A": -1}, []string{`"-A" must be 0 or more`}},
		{"missing pattern", map[string]any{"path": "sub"}, []string{`"pattern" is required`}},
		{"unknown parameter", map[string]any{"pattern": "x", "include": "*.go"}, []string{`"include" is not a parameter`, "glob"}},
		{"case-variant parameter", map[string]any{"PATTERN": "x"}, []string{`"PATTERN" is not a parameter`, `did you mean "pattern"`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := callTool(t, w, "Grep", tc.args)
			if err == nil {
				t.Fatalf("no error; text %q", out.Text)
			}
			for _, s := range tc.want {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q lacks %q", err, s)
				}
			}
		})
	}
}

// A chain with no engine that can run must say so; it is not "no matches"
// (lean-ctx#1499, OpenSwarm#373).
func TestGrepUnavailableIsNotNoMatches(t *testing.T) {
	w := newTestWorkspace(t, grepTree(t), Options{Searcher: &search.Chain{}})
	out, err := callTool(t, w, "Grep", map[string]any{"pattern": "needle"})
	if err == nil {
		t.Fatalf("no error: %q", out.Text)
	}
	if !strings.HasPrefix(err.Error(), "search unavailable:") || !strings.Contains(err.Error(), `not "no matches"`) ||
		!errors.Is(err, search.ErrUnavailable) {
		t.Errorf("error = %v", err)
	}
}

// stallEngine finds one match in each listed file, then waits for its
// context to end: a search that cannot finish in time, made deterministic.
type stallEngine struct{ files []string }

func (stallEngine) Name() string { return "stall" }
func (stallEngine) Available(context.Context) (search.Info, error) {
	return search.Info{Name: "stall"}, nil
}
func (e stallEngine) Search(ctx context.Context, q search.Query, sink search.Sink) (search.Stats, error) {
	for _, f := range e.files {
		if err := sink.Begin(f); err != nil {
			return search.Stats{}, err
		}
		if q.Mode == search.ModeContent {
			if err := sink.Line(search.Line{Path: f, Number: 1, Column: 1, Text: []byte("needle"), Kind: search.KindMatch}); err != nil {
				return search.Stats{}, err
			}
		}
		if err := sink.End(search.FileSummary{Path: f, MatchedLines: 1}); err != nil {
			return search.Stats{}, err
		}
	}
	<-ctx.Done()
	return search.Stats{}, ctx.Err()
}

// Claude Code #16043: a timed-out search silently showed "No files found".
// Here what was found is shown and labelled partial, and an empty partial
// result says it is not a complete answer.
func TestGrepTimeoutIsLabelledPartial(t *testing.T) {
	root := grepTree(t)
	limits := Limits{Timeout: 20 * time.Millisecond}
	w := newTestWorkspace(t, root, Options{Limits: limits,
		Searcher: &search.Chain{Engines: []search.Engine{stallEngine{files: []string{"main.go"}}}}})
	out, err := callTool(t, w, "Grep", map[string]any{"pattern": "needle"})
	if err != nil {
		t.Fatal(err)
	}
	r := out.Structured.(*GrepResult)
	if !r.Partial || !strings.HasPrefix(out.Text, "[Partial results: search timed out after 20ms") ||
		!strings.Contains(out.Text, "main.go\n") || !strings.HasSuffix(out.Summary, "partial)") {
		t.Errorf("partial result: %+v\ntext %q summary %q", r, out.Text, out.Summary)
	}
	w = newTestWorkspace(t, root, Options{Limits: limits,
		Searcher: &search.Chain{Engines: []search.Engine{stallEngine{}}}})
	out, err = callTool(t, w, "Grep", map[string]any{"pattern": "needle"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.Text, "before the search stopped; this is not a complete answer") || strings.Contains(out.Text, "(files ignored") {
		t.Errorf("empty partial result text %q", out.Text)
	}
}

func TestGrepCancelled(t *testing.T) {
	w := newTestWorkspace(t, grepTree(t), Options{
		Searcher: &search.Chain{Engines: []search.Engine{stallEngine{files: []string{"main.go"}}}}})
	ctx, cancel := context.WithCancel(context.Background())
	go cancel()
	_, err := w.Grep(ctx, GrepInput{Pattern: "needle"})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v; want context.Canceled", err)
	}
}

// Case 38: a symlink to a directory outside the root is not followed by a
// recursive search, so nothing outside is found.
func TestGrepDoesNotFollowSymlinksOut(t *testing.T) {
	f := newSandboxFixture(t)
	w := newTestWorkspace(t, f.root, Options{Searcher: testChain()})
	out, err := callTool(t, w, "Grep", map[string]any{"pattern": "OUTSIDE", "output_mode": "content"})
	if err != nil {
		t.Fatal(err)
	}
	if r := out.Structured.(*GrepResult); len(r.Matches) > 0 || r.TotalMatches > 0 {
		t.Fatalf("search reached outside the root:\n%s", out.Text)
	}
}

// Case 41: a FIFO inside the tree does not hang a recursive search.
func TestGrepSkipsFIFOInTree(t *testing.T) {
	root := grepTree(t)
	if err := mkfifo(filepath.Join(root, "lib", "pipe")); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	w := newTestWorkspace(t, root, Options{Searcher: testChain()})
	out, err := callTool(t, w, "Grep", map[string]any{"pattern": "needle", "path": "lib"})
	if err != nil {
		t.Fatal(err)
	}
	if r := out.Structured.(*GrepResult); r.Partial || out.Text != "lib/needle.go\n" {
		t.Errorf("text %q partial %v", out.Text, r.Partial)
	}
	if _, err := os.Stat(filepath.Join(root, "lib", "pipe")); err != nil {
		t.Fatal(err)
	}
}

// A single match whose context alone passes the output cap has its context
// trimmed, so the text stays under the cap and still shows the match.
func TestGrepTrimsContextThatAlonePassesTheCap(t *testing.T) {
	root := t.TempDir()
	var b strings.Builder
	for i := range 201 {
		if i == 100 {
			b.WriteString("the needle\n")
			continue
		}
		fmt.Fprintf(&b, "%03d %s\n", i, strings.Repeat("z", 400))
	}
	writeFile(t, filepath.Join(root, "wide.txt"), b.String())
	w := newTestWorkspace(t, root, Options{Searcher: testChain()})
	grepTool, _ := w.Tool("Grep")
	out, err := callTool(t, w, "Grep", map[string]any{"pattern": "needle", "output_mode": "content", "-C": 100})
	if err != nil {
		t.Fatal(err)
	}
	r := out.Structured.(*GrepResult)
	if len(out.Text) > DefaultMaxOutputChars || !strings.Contains(out.Text, "wide.txt:101:the needle\n") ||
		len(r.Matches) != 1 || len(r.Matches[0].Before) == 100 || len(r.Matches[0].Before) == 0 ||
		!strings.Contains(out.Text, "[Warning: context around wide.txt:101 was trimmed to fit the output cap") {
		t.Fatalf("len %d, before %d after %d\n%s", len(out.Text), len(r.Matches[0].Before), len(r.Matches[0].After), out.Text[len(out.Text)-300:])
	}
	validateOutput(t, grepTool, out.Structured)
}
