package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/search"
	"github.com/rgkit/rgkit/search/engines"
)

// grepTree writes a small tree and makes it the working directory.
//
//	a.txt       foo / bar / foo bar / Foo
//	sub/b.txt   x / foo again
//	sub/c.md    nothing here
//	.hid/h.txt  foo hidden
//	../other/o.txt  foo outside (a sibling of the tree)
func grepTree(t *testing.T) string {
	t.Helper()
	base := t.TempDir()
	root := filepath.Join(base, "tree")
	files := map[string]string{
		"tree/a.txt":      "foo\nbar\nfoo bar\nFoo\n",
		"tree/sub/b.txt":  "x\nfoo again\n",
		"tree/sub/c.md":   "nothing here\n",
		"tree/.hid/h.txt": "foo hidden\n",
		"other/o.txt":     "foo outside\n",
	}
	for name, text := range files {
		p := filepath.Join(base, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A git work tree (when git is installed), so the gitgrep engine runs too.
	if git, err := exec.LookPath("git"); err == nil {
		for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}} {
			cmd := exec.Command(git, args...)
			cmd.Dir = root
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v: %s", args, err, out)
			}
		}
	}
	t.Chdir(root)
	t.Setenv("NO_COLOR", "")
	return root
}

// grep runs `rgkit grep args...` in-process.
func grep(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), append([]string{"grep"}, args...), strings.NewReader(""), &out, &errOut)
	return out.String(), errOut.String(), code
}

// availableEngines are the default chain's engines that can run here.
func availableEngines(t *testing.T) []string {
	t.Helper()
	var names []string
	for _, b := range engines.Default(engines.Options{}).Engines {
		if _, err := b.Available(context.Background()); err == nil {
			names = append(names, b.Name())
		}
	}
	if len(names) == 0 {
		t.Skip("no search engine available yet")
	}
	return names
}

func TestGrepOutputAndExitStatus(t *testing.T) {
	grepTree(t)
	availableEngines(t)
	tests := []struct {
		name       string
		args       []string
		wantOut    string
		wantCode   int
		wantStderr string
	}{
		{"matches print like rg --no-heading -n, sorted by path",
			[]string{"foo"}, "a.txt:1:foo\na.txt:3:foo bar\nsub/b.txt:2:foo again\n", 0, ""},
		{"no match is exit 1 and no output", []string{"zzz"}, "", 1, ""},
		{"-i", []string{"-i", "^foo$"}, "a.txt:1:foo\na.txt:4:Foo\n", 0, ""},
		{"-S with an uppercase letter stays sensitive", []string{"-S", "Foo"}, "a.txt:4:Foo\n", 0, ""},
		{"-w", []string{"-w", "foo bar|again"}, "a.txt:3:foo bar\nsub/b.txt:2:foo again\n", 0, ""},
		{"-F", []string{"-F", "o b"}, "a.txt:3:foo bar\n", 0, ""},
		{"several -e are alternatives; arguments are then paths", []string{"-e", "^bar", "-e", "again", "a.txt"}, "2:bar\n", 0, ""},
		{"a PATH directory", []string{"foo", "sub"}, "sub/b.txt:2:foo again\n", 0, ""},
		{"one file: no path, like rg", []string{"foo", "a.txt"}, "1:foo\n3:foo bar\n", 0, ""},
		{"-H forces the path", []string{"-H", "bar", "a.txt"}, "a.txt:2:bar\na.txt:3:foo bar\n", 0, ""},
		{"a PATH outside the working directory prints like rg", []string{"foo", "../other"}, "../other/o.txt:1:foo outside\n", 0, ""},
		{"--hidden", []string{"--hidden", "hidden"}, ".hid/h.txt:1:foo hidden\n", 0, ""},
		{"-g", []string{"-g", "*.md", "here"}, "sub/c.md:1:nothing here\n", 0, ""},
		{"-g exclude", []string{"-g", "!sub/**", "foo"}, "a.txt:1:foo\na.txt:3:foo bar\n", 0, ""},
		{"-t", []string{"-t", "md", "."}, "sub/c.md:1:nothing here\n", 0, ""},
		{"-l", []string{"-l", "foo"}, "a.txt\nsub/b.txt\n", 0, ""},
		{"-c", []string{"-c", "foo"}, "a.txt:2\nsub/b.txt:1\n", 0, ""},
		{"-m", []string{"-m", "1", "foo"}, "a.txt:1:foo\nsub/b.txt:2:foo again\n", 0, ""},
		{"--column", []string{"--column", "bar"}, "a.txt:2:1:bar\na.txt:3:5:foo bar\n", 0, ""},
		{"-C puts -- between groups and files", []string{"-C", "1", "again|^bar"},
			"a.txt-1-foo\na.txt:2:bar\na.txt-3-foo bar\n--\nsub/b.txt-1-x\nsub/b.txt:2:foo again\n", 0, ""},
		{"--max-columns marks the cut", []string{"-M", "5", "again"}, "sub/b.txt:2:foo a [... 4 more bytes]\n", 0, ""},
		{"--head-limit pages and says so on stderr", []string{"--head-limit", "1", "--offset", "1", "foo"},
			"a.txt:3:foo bar\n", 0, "use --offset 2 for more"},
		{"--offset past the end prints nothing but a match was found", []string{"--offset", "10", "foo"}, "", 0, ""},
		{"a timeout is exit 2 with a warning, not 'no match'", []string{"--timeout", "1ns", "foo"}, "", 2, "timed out after 1ns"},
		{"invalid pattern: exit 2 with the position", []string{"a(b"}, "", 2, "invalid pattern"},
		{"look-around is refused, not 'no match'", []string{"foo(?=bar)"}, "", 2, "invalid pattern"},
		{"unknown backend", []string{"--backend", "ag", "foo"}, "", 2, `unknown backend "ag"`},
		{"a missing PATH", []string{"foo", "nope"}, "", 2, "grep: nope: no such file or directory"},
		{"a missing PATH outside is named as given", []string{"foo", "../nope"}, "", 2, "grep: ../nope: no such file or directory"},
		{"bad --sort", []string{"--sort", "size", "foo"}, "", 2, "--sort"},
		{"no pattern", nil, "", 2, "PATTERN is required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := grep(t, tt.args...)
			if out != tt.wantOut || code != tt.wantCode {
				t.Errorf("stdout %q exit %d; want %q exit %d (stderr %q)", out, code, tt.wantOut, tt.wantCode, errOut)
			}
			if tt.wantStderr != "" && !strings.Contains(errOut, tt.wantStderr) {
				t.Errorf("stderr %q does not contain %q", errOut, tt.wantStderr)
			}
			if tt.wantStderr == "" && errOut != "" {
				t.Errorf("unexpected stderr %q", errOut)
			}
		})
	}
}

func TestGrepInvalidPatternPointsAtTheOffset(t *testing.T) {
	grepTree(t)
	_, errOut, code := grep(t, "ab{,3}") // rg: "repetition quantifier expects a valid decimal"
	if code != 2 || !strings.Contains(errOut, "    ab{,3}\n       ^\n") {
		t.Errorf("exit %d, stderr %q; want exit 2 and a caret under ','", code, errOut)
	}
}

func TestGrepJSON(t *testing.T) {
	grepTree(t)
	availableEngines(t)
	out, _, code := grep(t, "--json", "-A", "1", "bar")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var recs []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("line %q is not JSON: %v", line, err)
		}
		recs = append(recs, m)
	}
	var types []string
	for _, r := range recs {
		types = append(types, r["type"].(string))
	}
	if got, want := strings.Join(types, ","), "match,match,context,summary"; got != want {
		t.Fatalf("record types %s, want %s\n%s", got, want, out)
	}
	m := recs[1]
	if m["path"] != "a.txt" || m["line"] != 3.0 || m["column"] != 5.0 || m["text"] != "foo bar" {
		t.Errorf("match record %v", m)
	}
	if subs := m["submatches"].([]any); len(subs) != 1 || subs[0].(map[string]any)["start"] != 4.0 {
		t.Errorf("submatches %v", m["submatches"])
	}
	sum := recs[3]
	if sum["matches"] != 2.0 || sum["truncated"] != false || sum["partial"] != false || sum["backend"] == "" {
		t.Errorf("summary %v", sum)
	}
}

func TestGrepJSONCountsAndErrors(t *testing.T) {
	grepTree(t)
	availableEngines(t)
	out, _, _ := grep(t, "--json", "-c", "foo")
	if !strings.HasPrefix(out, `{"type":"count","path":"a.txt","count":2}`+"\n"+`{"type":"count","path":"sub/b.txt","count":1}`+"\n") ||
		!strings.Contains(out, `"matches":3`) {
		t.Errorf("count JSON:\n%s", out)
	}
	out, _, code := grep(t, "--json", "a(b")
	if code != 2 || !strings.Contains(out, `"type":"summary"`) || !strings.Contains(out, `"error":"invalid pattern`) {
		t.Errorf("exit %d, JSON for an invalid pattern:\n%s", code, out)
	}
}

// Every engine that can run here gives byte-identical CLI output: the
// Chain, not the engine, owns order, paging and format.
func TestGrepSameOutputWhicheverEngineRuns(t *testing.T) {
	grepTree(t)
	engines := availableEngines(t)
	t.Logf("engines: %v", engines)
	queries := [][]string{
		{"foo"},
		{"-C", "1", "-i", "FOO"},
		{"-l", "o"},
		{"-c", "-w", "foo"},
		{"--head-limit", "2", "o"},
		{"--json", "--column", "o."},
		{"-U", `foo\nbar`},
		{"-g", "*.{txt,md}", "-c", "."},
		{"-m", "1", "-A", "1", "foo"},
		{"--hidden", "-l", "foo"},
		{"--sort", "modified", "-l", "o"},
		{"--offset", "1", "--head-limit", "1", "-C", "5", "foo"},
	}
	var alone []string
	for _, q := range queries {
		var first, firstName string
		ran := 0
		for _, name := range engines {
			out, errOut, code := grep(t, append([]string{"--backend", name}, q...)...)
			if code == 2 && strings.Contains(errOut, search.ErrUnsupported.Error()) {
				continue // an engine may refuse what it cannot express exactly
			}
			if code == 2 {
				t.Errorf("%s %q: exit 2: %s", name, q, errOut)
				continue
			}
			out = dropSummaryBackend(out)
			ran++
			if firstName == "" {
				first, firstName = out, name
				continue
			}
			if out != first {
				t.Errorf("%q: %s printed\n%s\n%s printed\n%s", q, name, out, firstName, first)
			}
		}
		if ran < min(2, len(engines)) {
			if !slices.Contains(engines, "ripgrep") {
				// Without rg only native may honour some queries (-U: git grep
				// and grep are line-based): a missing tool, not a failure.
				alone = append(alone, fmt.Sprintf("%q", q))
				continue
			}
			t.Errorf("%q: only %d engine(s) ran; nothing was compared", q, ran)
		}
	}
	if len(alone) > 0 {
		testtool.Missing(t, "rg is unavailable, so only one engine could run "+strings.Join(alone, ", "))
	}
}

// dropSummaryBackend removes what legitimately differs between engines in
// --json output (the summary's engine name and stats).
func dropSummaryBackend(out string) string {
	if i := strings.Index(out, `{"type":"summary"`); i >= 0 {
		return out[:i]
	}
	return out
}

func TestGrepForcedBackendThatCannotRunIsExit2(t *testing.T) {
	dir := t.TempDir() // not a git work tree
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("foo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	out, errOut, code := grep(t, "--backend", "gitgrep", "foo")
	if code != 2 || out != "" || !strings.Contains(errOut, "no engine could run this query: gitgrep: backend unavailable: ") ||
		!strings.Contains(errOut, "not inside a git work tree") {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 naming gitgrep and why", code, out, errOut)
	}
	out, _, code = grep(t, "foo") // the default chain just moves on
	if code != 0 || out != "a.txt:1:foo\n" {
		t.Errorf("auto: exit %d, stdout %q", code, out)
	}
}

// The CLI finds rg through rgfetch (no download): its override variable
// reaches the ripgrep engine, and an rg that is not there is a reason to
// skip it, never "no matches".
func TestGrepFindsRgThroughRgfetch(t *testing.T) {
	grepTree(t)
	availableEngines(t)
	t.Setenv("RGKIT_RG_PATH", filepath.Join(t.TempDir(), "no-rg"))
	out, errOut, code := grep(t, "--stats", "again")
	if code != 0 || out != "sub/b.txt:2:foo again\n" || !strings.Contains(errOut, "skipped: ripgrep: ") {
		t.Errorf("exit %d, stdout %q, stats %q; want the match from a later engine and ripgrep skipped", code, out, errOut)
	}
	_, errOut, code = grep(t, "--backend", "ripgrep", "again")
	if code != 2 || !strings.Contains(errOut, "ripgrep") {
		t.Errorf("forced ripgrep without rg: exit %d, stderr %q; want exit 2 with the reason", code, errOut)
	}
}

// --backend fastest runs the in-process engine first on a small tree.
func TestGrepFastestUsesNativeOnASmallTree(t *testing.T) {
	grepTree(t)
	availableEngines(t)
	out, errOut, code := grep(t, "--backend", "fastest", "--stats", "again")
	if code != 0 || out != "sub/b.txt:2:foo again\n" || !strings.HasPrefix(errOut, "backend: native\n") {
		t.Errorf("exit %d, stdout %q, stats %q; want native to run", code, out, errOut)
	}
}

func TestGrepStats(t *testing.T) {
	grepTree(t)
	availableEngines(t)
	_, errOut, code := grep(t, "--stats", "foo")
	if code != 0 || !strings.Contains(errOut, "backend: ") || !strings.Contains(errOut, "matched lines: 3") {
		t.Errorf("exit %d, stats %q", code, errOut)
	}
}

func TestGrepColor(t *testing.T) {
	grepTree(t)
	availableEngines(t)
	tests := []struct {
		name    string
		args    []string
		noColor string
		want    string
	}{
		{"piped output has no color", []string{"again"}, "", "sub/b.txt:2:foo again\n"},
		{"--color always", []string{"--color", "always", "again"}, "",
			"\x1b[35msub/b.txt\x1b[0m:\x1b[32m2\x1b[0m:foo \x1b[1;31magain\x1b[0m\n"},
		{"--color never", []string{"--color", "never", "again"}, "", "sub/b.txt:2:foo again\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("NO_COLOR", tt.noColor)
			out, _, _ := grep(t, tt.args...)
			if out != tt.want {
				t.Errorf("got %q, want %q", out, tt.want)
			}
		})
	}
}

func TestResolvePaths(t *testing.T) {
	base := t.TempDir()
	cwd := filepath.Join(base, "w")
	for _, d := range []string{"w/sub", "lib/x", "lib/y"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(cwd, "f.go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		args   []string
		root   string
		paths  []string
		prefix string
		single bool
	}{
		{"none", nil, cwd, nil, "", false},
		{"dot", []string{"."}, cwd, []string{"."}, "", false},
		{"inside", []string{"sub", "./f.go"}, cwd, []string{"sub", "f.go"}, "", false},
		{"one file", []string{"f.go"}, cwd, []string{"f.go"}, "", true},
		{"absolute inside prints relative", []string{filepath.Join(cwd, "sub")}, cwd, []string{"sub"}, "", false},
		{"relative outside", []string{"../lib/x"}, filepath.Join(base, "lib", "x"), []string{"."}, "../lib/x/", false},
		{"two outside", []string{"../lib/x", "../lib/y"}, filepath.Join(base, "lib"), []string{"x", "y"}, "../lib/", false},
		{"absolute outside prints absolute", []string{filepath.Join(base, "lib")}, filepath.Join(base, "lib"), []string{"."},
			filepath.ToSlash(filepath.Join(base, "lib")) + "/", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			loc, err := resolvePaths(cwd, tt.args)
			if err != nil {
				t.Fatal(err)
			}
			if loc.root != tt.root || strings.Join(loc.paths, ",") != strings.Join(tt.paths, ",") || loc.prefix != tt.prefix || loc.singleFile != tt.single {
				t.Errorf("got %+v; want root %s paths %v prefix %q single %v", loc, tt.root, tt.paths, tt.prefix, tt.single)
			}
		})
	}
}

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"100", 100, true}, {"2K", 2048, true}, {"1m", 1 << 20, true}, {"1G", 1 << 30, true},
		{"", 0, false}, {"K", 0, false}, {"-1", 0, false}, {"1.5M", 0, false},
	}
	for _, tt := range tests {
		got, err := parseSize(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

// A pattern that looks like a flag is searched as text after -- or -e; it
// never becomes an option of rgkit or of an engine.
func TestGrepFlagLikePatterns(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte("--pre=./x.sh\n-foo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	availableEngines(t)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--", "-foo"}, "f.txt:2:-foo\n"},
		{[]string{"-e", "--pre=./x.sh"}, "f.txt:1:--pre=./x.sh\n"},
		{[]string{"-F", "-e", "--pre=./x.sh", "-e", "-foo"}, "f.txt:1:--pre=./x.sh\nf.txt:2:-foo\n"},
	}
	for _, tt := range tests {
		out, errOut, code := grep(t, tt.args...)
		if out != tt.want || code != 0 {
			t.Errorf("%q: stdout %q exit %d (stderr %q); want %q", tt.args, out, code, errOut, tt.want)
		}
	}
}

// writeCounter counts Write calls: each one is a flush of the CLI's buffer.
type writeCounter struct {
	bytes.Buffer
	writes int
}

func (w *writeCounter) Write(p []byte) (int, error) { w.writes++; return w.Buffer.Write(p) }

// --sort none streams: each file is flushed when it ends, so results show
// up as found; sorted output is written once, at the end.
func TestGrepSortNoneFlushesEachFile(t *testing.T) {
	grepTree(t)
	availableEngines(t)
	for _, tt := range []struct {
		sort   string
		writes int
	}{{"none", 2}, {"path", 1}} {
		var out writeCounter
		var errOut bytes.Buffer
		code := run(context.Background(), []string{"grep", "--sort", tt.sort, "foo"}, strings.NewReader(""), &out, &errOut)
		if code != 0 || out.writes != tt.writes {
			t.Errorf("--sort %s: exit %d, %d writes of %q; want %d writes", tt.sort, code, out.writes, out.String(), tt.writes)
		}
	}
}
