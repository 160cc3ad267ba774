package sysgrep

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/internal/proc"
	"github.com/rgkit/rgkit/internal/searchtest"
	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/search"
)

func TestParseGrepVersion(t *testing.T) {
	tests := []struct {
		out            string
		flavor, vesion string
		ok             bool
	}{
		{"grep (GNU grep) 3.8\nCopyright (C) 2022 Free Software Foundation, Inc.\n", "gnu", "3.8", true},
		{"grep (BSD grep, GNU compatible) 2.6.0-FreeBSD\n", "bsd", "2.6.0-FreeBSD", true},
		{"BusyBox v1.36.1 (2023-06-02) multi-call binary.\n", "", "", false},
		{"", "", "", false},
	}
	for _, tc := range tests {
		info, ok := parseGrepVersion(tc.out)
		if ok != tc.ok || (ok && (info.Flavor != tc.flavor || info.Version != tc.vesion || info.Name != "grep")) {
			t.Errorf("parseGrepVersion(%q) = %+v, %v", tc.out, info, ok)
		}
	}
}

func TestSystemGrepAvailability(t *testing.T) {
	dir := t.TempDir()
	busybox := filepath.Join(dir, "grep")
	testtool.WriteExecutable(t, busybox, []byte("#!/bin/sh\necho 'BusyBox v1.36.1 multi-call binary.'\n"))
	tests := []struct {
		name     string
		lookPath func(string) (string, error)
	}{
		{"not installed", func(string) (string, error) { return "", exec.ErrNotFound }},
		{"relative path", func(string) (string, error) { return "bin/grep", nil }},
		{"neither GNU nor BSD", func(string) (string, error) { return busybox, nil }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := &Engine{LookPath: tc.lookPath}
			_, err := g.Available(context.Background())
			if !errors.Is(err, search.ErrUnavailable) {
				t.Fatalf("Available = %v, want ErrUnavailable", err)
			}
			// Search refuses the same way, before emitting anything.
			log := searchtest.NewResultLog()
			_, err = g.Search(context.Background(), search.Query{Pattern: "x", Root: dir}, log)
			if !errors.Is(err, search.ErrUnavailable) || log.String() != "" {
				t.Errorf("Search = %v with %q", err, log.String())
			}
		})
	}
}

func requireGrep(t *testing.T) *Engine {
	t.Helper()
	g := New()
	if _, err := g.Available(context.Background()); err != nil {
		testtool.Missing(t, "system grep unavailable: "+err.Error())
	}
	return g
}

func TestGrepRecords(t *testing.T) {
	long := strings.Repeat("x", 600<<10)
	type rec struct {
		path string
		n    int
		ctx  bool
	}
	tests := []struct {
		name string
		out  string
		want []rec
		bad  bool
	}{
		{"match and context", "./a\x001:foo\n./a\x002-bar\n", []rec{{"./a", 1, false}, {"./a", 2, true}}, false},
		{"group separator", "./a\x001:x\n--\n./a\x009:y\n", []rec{{"./a", 1, false}, {"./a", 9, false}}, false},
		{"text with NUL, colon and CR", "./a\x003:a\x00b:c\r\n", []rec{{"./a", 3, false}}, false},
		{"path with newline and colon", "./x\n1:y\x004:z\n", []rec{{"./x\n1:y", 4, false}}, false},
		{"last line without newline", "./a\x001:end", []rec{{"./a", 1, false}}, false},
		{"a line longer than the buffer", "./a\x001:" + long + "\n", []rec{{"./a", 1, false}}, false},
		{"empty output", "", nil, false},
		{"malformed", "./a\x00x:y\n", nil, true},
		{"truncated", "./a", nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []rec
			err := grepRecords(strings.NewReader(tc.out), func(p string, n int, ctx bool) error {
				got = append(got, rec{p, n, ctx})
				return nil
			})
			if (err != nil) != tc.bad {
				t.Fatalf("err = %v, want error %v", err, tc.bad)
			}
			if !tc.bad && len(got) != len(tc.want) {
				t.Fatalf("got %d records, want %d", len(got), len(tc.want))
			}
			for i := range tc.want {
				if got[i] != tc.want[i] {
					t.Errorf("record %d = %+v, want %+v", i, got[i].path, tc.want[i].path)
				}
			}
		})
	}
}

// TestSystemGrepMatchesNative runs cases where grep's own behaviour differs
// from rg's (binary files, byte-order marks, trailing context of -m, CRLF,
// odd file names, flag-like patterns) and requires the native engine's
// answer.
func TestSystemGrepMatchesNative(t *testing.T) {
	g := requireGrep(t)
	lateNUL := "needle one\n" + strings.Repeat("filler line\n", 20000) + "\x00\nneedle two\n"
	root := searchtest.WriteTree(t, map[string]string{
		"late_nul.dat":        lateNUL,
		"early_nul.dat":       "x\x00needle\n",
		"utf16.txt":           "\xff\xfen\x00e\x00e\x00d\x00l\x00e\x00\n\x00",
		"bom8.txt":            "\xef\xbb\xbfneedle at start\n",
		"mid_bom.txt":         "a\n\xff\xfeneedle\n",
		"crlf.txt":            "needle\r\nneedle$\r\nno\r\n",
		"m.txt":               "needle 1\nx\nneedle 2\nneedle 3\nx\nx\nneedle 4\n",
		"nofinal.txt":         "a\nneedle",
		"-rf":                 "needle in a flag-like name\n",
		"we:ird\nname.txt":    "needle\n",
		"--pre=x":             "--pre=x needle\n",
		"latin1.txt":          "caf\xe9 needle\n",
		"sub/deep/needle.txt": "needle\n",
	})
	for _, q := range []search.Query{
		{Pattern: "needle"},
		{Pattern: "needle", Before: 1, After: 2},
		{Pattern: "needle", MaxCountPerFile: 1, After: 2},
		{Pattern: "needle", MaxCountPerFile: 2, After: 1, Before: 1},
		{Pattern: "needle$"},
		{Pattern: "^needle"},
		{Pattern: "NEEDLE", Case: search.CaseInsensitive},
		{Pattern: "needle", Word: true},
		{Pattern: "--pre=x", Fixed: true},
		{Pattern: ""},
		{Pattern: `caf.`},
		{Pattern: `\d`},
		{Pattern: "needle", Mode: search.ModeFilesWithMatches},
		{Pattern: "needle", Mode: search.ModeCount},
		{Pattern: "needle", Mode: search.ModeCount, MaxCountPerFile: 2},
		{Pattern: "needle", Paths: []string{"late_nul.dat"}},
	} {
		q.Root = root
		want, _, err := searchtest.Run(t, native.New(), q)
		if err != nil {
			t.Fatalf("%+v: native: %v", q, err)
		}
		got, st, err := searchtest.Run(t, g, q)
		if err != nil {
			t.Fatalf("%+v: grep: %v", q, err)
		}
		if got.String() != want.String() {
			t.Errorf("pattern %q mode %d m=%d A=%d B=%d: grep differs from native\n--- grep\n%s--- native\n%s", q.Pattern, q.Mode, q.MaxCountPerFile, q.After, q.Before, got, want)
		}
		if st.FilesSearched == 0 {
			t.Errorf("%+v: Stats.FilesSearched = 0", q)
		}
	}
}

func TestSystemGrepRefusesMultiline(t *testing.T) {
	g := requireGrep(t)
	root := searchtest.WriteTree(t, map[string]string{"a": "x\ny\n"})
	log, _, err := searchtest.Run(t, g, search.Query{Pattern: `x\ny`, Root: root, Multiline: true})
	if !errors.Is(err, search.ErrUnsupported) || log.String() != "" {
		t.Errorf("err = %v, log %q; want ErrUnsupported before any output", err, log.String())
	}
}

// stopAfter is a sink that asks to stop after n files.
type stopAfter struct {
	*searchtest.ResultLog
	n int
}

func (s *stopAfter) End(f search.FileSummary) error {
	if err := s.ResultLog.End(f); err != nil {
		return err
	}
	s.n--
	if s.n <= 0 {
		return search.ErrStop
	}
	return nil
}

func TestSystemGrepStopsOnErrStop(t *testing.T) {
	g := requireGrep(t)
	files := map[string]string{}
	for i := range 50 {
		files[filepath.Join("d", strings.Repeat("f", i+1))] = "needle\n"
	}
	root := searchtest.WriteTree(t, files)
	g.BatchSize = 5
	nq, err := search.Normalize(search.Query{Pattern: "needle", Root: root})
	if err != nil {
		t.Fatal(err)
	}
	sink := &stopAfter{ResultLog: searchtest.NewResultLog(), n: 3}
	if _, err := g.Search(context.Background(), nq, sink); err != nil {
		t.Fatalf("Search = %v, want nil after ErrStop", err)
	}
	if n := strings.Count(sink.String(), "== "); n < 3 || n >= 50 {
		t.Errorf("%d files reported, want the search to stop soon after 3", n)
	}
}

func TestSystemGrepCancelled(t *testing.T) {
	g := requireGrep(t)
	root := searchtest.WriteTree(t, map[string]string{"a": "needle\n"})
	nq, err := search.Normalize(search.Query{Pattern: "needle", Root: root})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := g.Search(ctx, nq, searchtest.NewResultLog()); !errors.Is(err, context.Canceled) {
		t.Errorf("Search = %v, want context.Canceled", err)
	}
}

// fakeGrep writes a script that answers --version like GNU grep and fails
// every search with exit 2 and a message, counting its runs in a file.
func fakeGrep(t *testing.T) (path, runs string) {
	t.Helper()
	dir := t.TempDir()
	path, runs = filepath.Join(dir, "grep"), filepath.Join(dir, "runs")
	script := "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'grep (GNU grep) 3.8'; exit 0; fi\n" +
		"echo x >> " + runs + "\necho 'grep: Unmatched [' >&2\nexit 2\n"
	testtool.WriteExecutable(t, path, []byte(script))
	return path, runs
}

// A pattern grep cannot compile (a translation gap) is refused before
// anything is emitted, so the Chain moves on, whether the tree's files go to
// grep in one batch or in several (each failing alike). No dry run comes
// first: each batch is one grep run.
func TestSystemGrepRefusesWhatGrepRejects(t *testing.T) {
	testtool.Need(t, "sh")
	root := searchtest.WriteTree(t, map[string]string{"a": "needle\n", "b": "needle\n", "c": "needle\n"})
	for _, batch := range []int{0, 1} {
		t.Run(fmt.Sprintf("batch size %d", batch), func(t *testing.T) {
			path, runs := fakeGrep(t)
			g := &Engine{LookPath: func(string) (string, error) { return path, nil }, BatchSize: batch, Parallel: 1}
			log, _, err := searchtest.Run(t, g, search.Query{Pattern: "needle", Root: root})
			if !errors.Is(err, search.ErrUnsupported) || !errors.Is(err, errGrepPattern) || log.String() != "" {
				t.Fatalf("Search = %v, log %q; want ErrUnsupported (grep rejected the pattern) and nothing emitted", err, log.String())
			}
			data, _ := os.ReadFile(runs)
			if n := strings.Count(string(data), "x"); n != 1 {
				t.Errorf("grep ran %d times; want once (the first batch's failure stops the search)", n)
			}
		})
	}
}

// refusedPattern tells a pattern grep rejected (nothing printed, a message,
// exit 2) from a failure after output, which must not let the Chain move on.
func TestRefusedPatternNeedsSilenceAndAMessage(t *testing.T) {
	for _, c := range []struct {
		name    string
		exit    int
		stderr  string
		printed bool
		refused bool
	}{
		{"rejected", 2, "grep: Unmatched [\n", false, true},
		{"after output", 2, "grep: memory exhausted\n", true, false},
		{"no match", 1, "", false, false},
		{"unreadable file, silenced by -s", 2, "", false, false},
		{"a warning on a match", 0, "grep: warning: stray \\ before -\n", true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := refusedPattern(proc.Result{ExitCode: c.exit, Stderr: []byte(c.stderr)}, c.printed)
			if got := errors.Is(err, search.ErrUnsupported); got != c.refused {
				t.Errorf("refusedPattern = %v, want refused %v", err, c.refused)
			}
		})
	}
}

// A search is one grep run per batch and nothing more: real grep behind a
// script that counts the runs other than the version probe.
func TestSystemGrepRunsOncePerBatch(t *testing.T) {
	g := requireGrep(t)
	info, _ := g.Available(context.Background())
	dir := t.TempDir()
	path, runs := filepath.Join(dir, "grep"), filepath.Join(dir, "runs")
	script := "#!/bin/sh\n[ \"$1\" = --version ] || echo x >> " + runs + "\nexec " + info.Path + " \"$@\"\n"
	testtool.WriteExecutable(t, path, []byte(script))
	counted := &Engine{LookPath: func(string) (string, error) { return path, nil }}
	root := searchtest.WriteTree(t, map[string]string{"a": "needle\n"})
	for i := 1; i <= 2; i++ {
		log, _, err := searchtest.Run(t, counted, search.Query{Pattern: `\w+dle`, Root: root})
		if err != nil || !strings.Contains(log.String(), "needle") {
			t.Fatalf("search %d: %v\n%s", i, err, log.String())
		}
		data, _ := os.ReadFile(runs)
		if n := strings.Count(string(data), "x"); n != i {
			t.Errorf("after %d searches of one batch grep ran %d times", i, n)
		}
	}
}

// grep's memory stays bounded: a pattern whose matcher would grow to
// gigabytes (\w{500} passed 2.9 GB on 100,000 lines) is declined before
// grep runs, and a grep that passes its cap anyway is stopped, so in both
// cases a Chain answers with its next engine, with the same lines.
func TestSystemGrepMemoryIsBounded(t *testing.T) {
	g := requireGrep(t)
	var text strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&text, "word%d = value%d here\n", i, i)
	}
	text.WriteString(strings.Repeat("x", 600) + "\n")
	root := searchtest.WriteTree(t, map[string]string{"a.txt": text.String()})
	t.Run("declined", func(t *testing.T) {
		_, _, err := searchtest.Run(t, g, search.Query{Pattern: `\w{500}`, Root: root})
		if !errors.Is(err, search.ErrUnsupported) || !strings.Contains(err.Error(), "weight") {
			t.Errorf("err = %v, want ErrUnsupported for the pattern's weight", err)
		}
	})
	t.Run("capped", func(t *testing.T) {
		capped := New()
		capped.MaxMemory = 4 << 20 // \w\w costs GNU grep tens of MB in the C locale
		chain := &search.Chain{Engines: []search.Engine{capped, native.New()}}
		var got []int
		res, err := chain.Search(context.Background(), search.Query{Pattern: `\w\w\d\d\d\d`, Root: root},
			search.SinkFunc(func(l search.Line) error { got = append(got, l.Number); return nil }))
		if err != nil {
			t.Fatal(err)
		}
		if res.Backend != "native" || len(res.Warnings) == 0 || !strings.Contains(strings.Join(res.Warnings, " "), "memory") {
			t.Errorf("ran %s, warnings %q; want grep stopped for memory and native answering", res.Backend, res.Warnings)
		}
		if len(got) != 1000 {
			t.Errorf("%d lines, want the 1000 with four digits", len(got))
		}
	})
}
