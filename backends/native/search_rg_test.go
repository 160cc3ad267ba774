package native

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/internal/conformance"
	"github.com/rgkit/rgkit/internal/testtool"
)

// rgCase is one differential case: the same files and options through the
// real rg and through Matcher.Search must give the same lines.
type rgCase struct {
	name    string
	files   map[string]string
	match   MatchOptions
	search  SearchOptions
	rgExtra []string
	// explicit names each file on rg's command line (with --no-mmap unless
	// the search keeps NULs, as rg does for a mapped file) instead of
	// searching the directory.
	explicit bool
}

// gotLine is a comparable rendering of one reported line.
type gotLine struct {
	Number  int
	Text    string
	Spans   string
	Context bool
}

// searchRg returns the reference rg (15.x): the matcher gives rg 15's
// answers, and older rg answers differently (rg 13's -w, for one).
func searchRg(t *testing.T) string {
	t.Helper()
	return testtool.ReferenceRg(t)
}

func writeSearchFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func (c rgCase) rgPat() string { return c.match.Pattern }

// rgTargets is "." or, for explicit cases, every file by name.
func rgTargets(c rgCase) []string {
	if !c.explicit {
		return []string{"."}
	}
	var names []string
	for name := range c.files {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

func rgArgs(c rgCase) []string {
	args := []string{"--no-config", "--no-messages", conformance.Threads}
	if c.explicit && !c.search.KeepNUL {
		args = append(args, "--no-mmap")
	}
	if c.match.Fixed {
		args = append(args, "-F")
	}
	if c.match.Word {
		args = append(args, "-w")
	}
	if c.match.CaseInsensitive {
		args = append(args, "-i")
	}
	if c.match.Multiline {
		args = append(args, "-U", "--multiline-dotall")
	}
	if c.match.CRLF {
		args = append(args, "--crlf")
	}
	if c.search.Before > 0 {
		args = append(args, "-B", strconv.Itoa(c.search.Before))
	}
	if c.search.After > 0 {
		args = append(args, "-A", strconv.Itoa(c.search.After))
	}
	if c.search.MaxCount > 0 {
		args = append(args, "-m", strconv.Itoa(c.search.MaxCount))
	}
	return append(args, c.rgExtra...)
}

type rgText struct {
	Text  *string `json:"text"`
	Bytes string  `json:"bytes"`
}

func (r rgText) value() string {
	if r.Text != nil {
		return *r.Text
	}
	b, _ := base64.StdEncoding.DecodeString(r.Bytes)
	return string(b)
}

type rgEvent struct {
	Type string `json:"type"`
	Data struct {
		Path       rgText `json:"path"`
		Lines      rgText `json:"lines"`
		LineNumber int    `json:"line_number"`
		Submatches []struct {
			Start int `json:"start"`
			End   int `json:"end"`
		} `json:"submatches"`
	} `json:"data"`
}

// rgOutput runs rg in dir and returns its stdout; exit status 1 (no match) is fine.
func rgOutput(t *testing.T, rg, dir string, args []string) []byte {
	t.Helper()
	cmd := exec.Command(rg, args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	ee, ok := err.(*exec.ExitError)
	if ok && bytes.Contains(ee.Stderr, []byte("panicked at")) {
		// rg itself crashed (rg 15.2.0's JSON printer panics on some -U
		// -m cases): there is no answer to compare with.
		t.Skipf("rg %v crashed, no reference answer:\n%s", args, ee.Stderr)
	}
	if err != nil && !(ok && ee.ExitCode() == 1) {
		t.Fatalf("rg %v: %v", args, err)
	}
	return out
}

// runRg returns rg's lines per file (relative path), split into physical lines.
func runRg(t *testing.T, rg, dir string, c rgCase) map[string][]gotLine {
	t.Helper()
	out := rgOutput(t, rg, dir, append(append(rgArgs(c), "--json", "-e", c.rgPat(), "--"), rgTargets(c)...))
	res := map[string][]gotLine{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var ev rgEvent
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatal(err)
		}
		if ev.Type != "match" && ev.Type != "context" {
			continue
		}
		path := strings.TrimPrefix(ev.Data.Path.value(), "./")
		text := ev.Data.Lines.value()
		n, off := ev.Data.LineNumber, 0
		for off < len(text) {
			raw := text[off:]
			if i := strings.IndexByte(raw, '\n'); i >= 0 {
				raw = raw[:i]
			}
			line := strings.TrimSuffix(raw, "\r")
			if off+len(raw) == len(text) {
				line = raw // no terminator: keep a final '\r'
			}
			g := gotLine{Number: n, Text: line, Context: ev.Type == "context"}
			var spans [][2]int
			for _, sm := range ev.Data.Submatches {
				a, b := max(sm.Start, off), min(sm.End, off+len(raw))
				if a < b || (sm.Start >= off && sm.Start <= off+len(raw)) {
					spans = append(spans, [2]int{min(a-off, len(line)), min(max(a, b)-off, len(line))})
				}
			}
			if !g.Context {
				g.Spans = fmt.Sprint(spans)
			}
			res[path] = append(res[path], g)
			n++
			off += len(raw) + 1
		}
	}
	return res
}

// runNative searches every file of dir like rg and returns the same shape.
func runNative(t *testing.T, dir string, c rgCase) map[string][]gotLine {
	t.Helper()
	m, err := Compile(c.match)
	if err != nil {
		t.Fatalf("Compile(%+v): %v", c.match, err)
	}
	res := map[string][]gotLine{}
	for name := range c.files {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		var lines []gotLine
		_, err = m.Search(data, c.search, func(l Line) error {
			g := gotLine{Number: l.Number, Text: string(l.Text), Context: l.Context}
			if !l.Context {
				g.Spans = fmt.Sprint(l.Submatches)
			}
			lines = append(lines, g)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(lines) > 0 {
			res[filepath.ToSlash(name)] = lines
		}
	}
	return res
}

// runRgCount returns rg -c per file.
func runRgCount(t *testing.T, rg, dir string, c rgCase) map[string]int {
	t.Helper()
	out := rgOutput(t, rg, dir, append(append(rgArgs(c), "-c", "--with-filename", "-e", c.rgPat(), "--"), rgTargets(c)...))
	res := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if line == "" {
			continue
		}
		i := strings.LastIndexByte(line, ':')
		n, _ := strconv.Atoi(line[i+1:])
		res[strings.TrimPrefix(line[:i], "./")] = n
	}
	return res
}

func runNativeCount(t *testing.T, dir string, c rgCase) map[string]int {
	t.Helper()
	m, err := Compile(c.match)
	if err != nil {
		t.Fatal(err)
	}
	res := map[string]int{}
	for name := range c.files {
		data, _ := os.ReadFile(filepath.Join(dir, name))
		o := c.search
		o.CountOnly, o.Before = true, 0 // rg 15 -c counts matches inside -A's trailing context
		r, err := m.Search(data, o, func(Line) error { t.Fatal("CountOnly emitted a line"); return nil })
		if err != nil {
			t.Fatal(err)
		}
		if r.MatchedLines > 0 {
			res[filepath.ToSlash(name)] = r.MatchedLines
		}
	}
	return res
}

// checkAgainstRgExplicit is checkAgainstRg with every file named on rg's
// command line.
func checkAgainstRgExplicit(t *testing.T, cases []rgCase) {
	for i := range cases {
		cases[i].explicit = true
	}
	checkAgainstRg(t, cases)
}

func checkAgainstRg(t *testing.T, cases []rgCase) {
	rg := searchRg(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := writeSearchFiles(t, c.files)
			want, got := runRg(t, rg, dir, c), runNative(t, dir, c)
			if !reflect.DeepEqual(want, got) {
				t.Errorf("lines differ from rg %v -e %q\n%s", rgArgs(c), c.match.Pattern, diffLines(want, got))
			}
			wantN, gotN := runRgCount(t, rg, dir, c), runNativeCount(t, dir, c)
			if !reflect.DeepEqual(wantN, gotN) {
				t.Errorf("counts differ from rg -c: rg %v, native %v\nfiles %q", wantN, gotN, c.files)
			}
		})
	}
}

func diffLines(want, got map[string][]gotLine) string {
	var keys []string
	seen := map[string]bool{}
	for k := range want {
		keys, seen[k] = append(keys, k), true
	}
	for k := range got {
		if !seen[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		if reflect.DeepEqual(want[k], got[k]) {
			continue
		}
		fmt.Fprintf(&b, "file %s\n  rg:     %+v\n  native: %+v\n", k, want[k], got[k])
	}
	return b.String()
}
