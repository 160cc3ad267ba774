package ripgrep

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/internal/searchtest"
	"github.com/rgkit/rgkit/search"
)

// bigBinary has a match, 200,000 bytes, another match and then a NUL
// byte at offset 200015: rg prints the first match, stops at the NUL and
// says so in a notice where its plain output has lines.
var bigBinary = "func a\n" + strings.Repeat("x", 200000) + "\nfunc b\n\x00func c\n"

// noticeName is a file name that begins with the notice rg prints for
// big.bin.
const noticeName = "big.bin: WARNING: stopped searching binary file after match (found \"\\0\" byte around offset 200015)\nzzz"

// plainCorpus holds what rg's plain output could be misread on: line
// terminators, binary files, names holding newlines and notices.
var plainCorpus = map[string]string{
	"a.go":            "package a\n\nfunc A() {}\nfunc B() {}\n",
	"crlf.txt":        "x\r\nfunc y\r\nz\r\nfunc w\r\n",
	"cr-at-end.txt":   "one\nfunc end\r",
	"no-newline.txt":  "a\nfunc last",
	"early-nul.bin":   "func\x00func\n",
	"big.bin":         bigBinary,
	noticeName:        "func in a file named like a notice\n",
	"nl\nname.txt":    "func in a name with a newline\n",
	"two\n\nnl.txt":   "func after a blank line in the name\n",
	"d\nir/f.txt":     "func in a directory with a newline\n",
	"caf\xe9.txt":     "x\xff func\n",
	"colons:1:2.txt":  "12:34: func\n",
	"dash-3-4.txt":    "func-\n",
	"context.txt":     "before\nfunc one\nbetween\nbetween\nbetween\nfunc two\nafter\n",
	"empty-line.txt":  "\nfunc\n\n",
	"only\rcr.txt":    "func\n",
	"sub/deep/x.txt":  "FUNC upper\n",
	"tab\tname.txt":   "\tfunc\t\n",
	"spaces  two.txt": "func  two\n",
}

var plainQueries = []search.Query{
	{Pattern: "func"},
	{Pattern: "func", Before: 1, After: 1},
	{Pattern: "func", Before: 2},
	{Pattern: "func", MaxCountPerFile: 1},
	{Pattern: "FUNC", Case: search.CaseInsensitive},
	{Pattern: `\w+`},
	{Pattern: `\r$`},
	{Pattern: "zzz-no-match"},
	{Pattern: "func", Limit: 3},
}

// stripSpans forwards to a log what a caller that skipped spans reads.
type stripSpans struct{ *searchtest.ResultLog }

func (s stripSpans) Line(l search.Line) error {
	l.Submatches, l.Column, l.MoreSubmatches = nil, 0, 0
	return s.ResultLog.Line(l)
}

// TestPlainOutputGivesWhatJSONGives: with spans skipped the engine reads
// rg's plain output; every line, file and count is what it reads from rg's
// --json, on a tree of names and contents that plain output could be
// misread on.
func TestPlainOutputGivesWhatJSONGives(t *testing.T) {
	realRipgrep(t)
	root := searchtest.WriteTree(t, plainCorpus)
	for _, q := range plainQueries {
		q.Root = root
		t.Run(fmt.Sprintf("%q/B%dA%dm%dlimit%d", q.Pattern, q.Before, q.After, q.MaxCountPerFile, q.Limit), func(t *testing.T) {
			t.Parallel()
			nq, err := search.Normalize(q)
			if err != nil {
				t.Fatal(err)
			}
			if !plainOutput(nq, rgCountsMatches(nq)) {
				t.Fatal("the query does not take the plain path: the test would compare JSON with itself")
			}
			run := func(noSpans bool) (*searchtest.ResultLog, search.Stats) {
				e := New(nil)
				e.NoSpans = noSpans
				log := searchtest.NewResultLog()
				st, err := e.Search(t.Context(), nq, stripSpans{log})
				if err != nil {
					t.Fatalf("NoSpans=%v: %v", noSpans, err)
				}
				return log, st
			}
			want, wantSt := run(false)
			got, gotSt := run(true)
			if q.Limit == 0 && got.String() != want.String() {
				t.Errorf("plain output:\n%s\n--json:\n%s", got, want)
			}
			if q.Limit == 0 && !strings.Contains(want.String(), "func") && q.Pattern != "zzz-no-match" && q.Pattern != `\r$` {
				t.Errorf("the search found nothing to compare:\n%s", want)
			}
			type counts struct{ searched, matched, lines, binary, bytes int64 }
			c := func(s search.Stats) counts {
				return counts{s.FilesSearched, s.FilesMatched, s.MatchedLines, s.Binary, s.BytesSearched}
			}
			if q.Limit == 0 && c(gotSt) != c(wantSt) {
				t.Errorf("stats: plain %+v, --json %+v", c(gotSt), c(wantSt))
			}
		})
	}
}

// TestPlainOutputReadsNamesAndNotices feeds consumePlain rg's plain output
// as rg 15.2.0 prints it for trees where a notice and a file name can be
// confused.
func TestPlainOutputReadsNamesAndNotices(t *testing.T) {
	root := t.TempDir()
	bin := filepath.Join(root, "big.bin")
	notice := bin + `: WARNING: stopped searching binary file after match (found "\0" byte around offset 9)`
	out := func(records ...string) string { return strings.Join(records, "") }
	rec := func(path, line string) string { return path + "\x00" + line + "\n" }
	cases := []struct {
		name   string
		files  []string // created under root (names relative to it)
		output string
		want   string // the log, or the error's start
	}{
		{"a notice then a file", []string{"big.bin", "zzz"},
			out(rec(bin, "1:0:func"), notice+"\n", rec(filepath.Join(root, "zzz"), "1:0:func z")),
			"== \"big.bin\"\n   begin\n   match 1 col=0 spans=[] \"func\"\n   end matched=1\n== \"zzz\"\n   begin\n   match 1 col=0 spans=[] \"func z\"\n   end matched=1\n"},
		{"a name that starts like the notice", []string{"big.bin", filepath.Base(notice) + "\nzzz"},
			out(rec(bin, "1:0:func"), rec(notice+"\nzzz", "1:0:func z")),
			"== \"big.bin\"\n   begin\n   match 1 col=0 spans=[] \"func\"\n   end matched=1\n== \"big.bin: WARNING: stopped searching binary file after match (found \\\"\\\\0\\\" byte around offset 9)\\nzzz\"\n   begin\n   match 1 col=0 spans=[] \"func z\"\n   end matched=1\n"},
		{"a notice, then such a name", []string{"big.bin", filepath.Base(notice) + "\nzzz"},
			out(rec(bin, "1:0:func"), notice+"\n", rec(notice+"\nzzz", "1:0:func z")),
			"== \"big.bin\"\n   begin\n   match 1 col=0 spans=[] \"func\"\n   end matched=1\n== \"big.bin: WARNING: stopped searching binary file after match (found \\\"\\\\0\\\" byte around offset 9)\\nzzz\"\n   begin\n   match 1 col=0 spans=[] \"func z\"\n   end matched=1\n"},
		{"both readings name files", []string{"big.bin", "zzz", filepath.Base(notice) + "\n" + filepath.Join(root, "zzz")},
			out(rec(bin, "1:0:func"), rec(notice+"\n"+filepath.Join(root, "zzz"), "1:0:func z")),
			"error: rg: output that reads two ways"},
		{"a record after the statistics", []string{"a"},
			out(rec(filepath.Join(root, "a"), "1:0:func"), "\n", "1 matches\n", rec(filepath.Join(root, "a"), "2:5:func")),
			"error: rg: unexpected output after its statistics"},
		{"cut short", []string{"a"}, out(rec(filepath.Join(root, "a"), "1:0:func"), filepath.Join(root, "a")+"\x001:0:fu"),
			"error: rg: truncated output"},
		{"a line without its offset", []string{"a"}, rec(filepath.Join(root, "a"), "1:func"),
			"error: rg: unexpected output"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range c.files {
				f = filepath.Join(dir, strings.ReplaceAll(f, root, dir))
				searchtest.Must(t, os.MkdirAll(filepath.Dir(f), 0o755))
				searchtest.Must(t, os.WriteFile(f, []byte("func\n"), 0o644))
			}
			output := strings.ReplaceAll(c.output, root, dir)
			want := strings.ReplaceAll(c.want, root, dir)
			log := searchtest.NewResultLog()
			run := &rgRun{ctx: t.Context(), q: search.Query{Root: dir, Pattern: "func"}, sink: log, plain: true}
			err := run.consumePlain(strings.NewReader(output))
			got := log.String()
			if err != nil {
				got = "error: " + err.Error()
			}
			if !strings.HasPrefix(got, want) {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}
