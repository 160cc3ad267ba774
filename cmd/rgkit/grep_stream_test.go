package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rgkit/rgkit/internal/testtool"
)

// streamInput is text of about size bytes whose lines cross the 64 KiB
// window the stream search reads in: matches, context groups, CRLF lines,
// long lines and a last line without a terminator.
func streamInput(size int) []byte {
	rnd := rand.New(rand.NewPCG(7, 11))
	words := []string{"foo", "bar", "error", "Error", "return nil", "func main()", "x", "", "}", "\tif err != nil {"}
	var b bytes.Buffer
	for n := 0; b.Len() < size; n++ {
		switch {
		case n%97 == 0:
			b.WriteString(strings.Repeat("long line ", 300+rnd.IntN(2000)) + "foo\n")
		case n%13 == 0:
			b.WriteString(words[rnd.IntN(len(words))] + " crlf\r\n")
		default:
			for k := rnd.IntN(6); k >= 0; k-- {
				b.WriteString(words[rnd.IntN(len(words))] + " ")
			}
			b.WriteString("\n")
		}
	}
	b.WriteString("foo at the end, unterminated")
	return b.Bytes()
}

// streamArgs are the command lines every stream test runs: context that
// reaches across windows, limits, counts, offsets, JSON, only-matching,
// word and case rules, multiline (read whole) and no match at all.
var streamArgs = [][]string{
	{"foo"},
	{"-n", "foo"},
	{"-n", "-A2", "-B3", "return"},
	{"-n", "-C5", "error"},
	{"-n", "-m", "40", "-A3", "foo"},
	{"-c", "foo"},
	{"--count-matches", "o"},
	{"-b", "-n", "Error"},
	{"--json", "err"},
	{"-o", "-n", `func \w+`},
	{"-l", "bar"},
	{"-w", "-n", "-i", "error"},
	{"-n", "-B1", "-A1", "^}"},
	{"-m", "3", "-C2", "-n", "main"},
	{"--vimgrep", "nil"},
	{"-n", "-U", `foo\s+bar`},
	{"-n", "-A3", "never_there"},
	{"-q", "foo"},
	{"-v", "foo"},
	{"-n", "-v", "-m", "30", "e"},
	{"-v", "-c", "o"},
	{"--passthru", "-n", "error"},
	{"--files-without-match", "never_there"},
}

// TestGrepStreamIsSearchedAsRg15SearchesIt pipes the same text into rg 15.2.0
// and into `rgkit grep --backend native` (which searches a stream window by
// window) and requires the same bytes and exit status.
func TestGrepStreamIsSearchedAsRg15SearchesIt(t *testing.T) {
	rg := rg15(t)
	bin := rgkitBin(t)
	input := streamInput(600 << 10)
	dir := t.TempDir()
	for _, args := range streamArgs {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			t.Parallel()
			c := diffCase{args: args, stdin: string(input)}
			rgOut, rgErr, rgCode := runCase(t, dir, os.Environ(), []string{rg}, c)
			out, errOut, code := runCase(t, dir, os.Environ(), []string{bin, "grep", "--backend", "native"}, c)
			if normalize(out, c) != normalize(rgOut, c) || errOut != rgErr || code != rgCode {
				t.Errorf("differs from rg 15\n%s\nrgkit stderr %q exit %d\nrg    stderr %q exit %d",
					firstDiff(normalize(out, c), normalize(rgOut, c)), errOut, code, rgErr, rgCode)
			}
		})
	}
}

// trickle hands out its text a few bytes per Read, as a slow pipe does:
// every line boundary lands somewhere else than in one big read.
type trickle struct {
	rest []byte
	rnd  *rand.Rand
}

func (r *trickle) Read(p []byte) (int, error) {
	if len(r.rest) == 0 {
		return 0, io.EOF
	}
	n := min(len(p), len(r.rest), 1+r.rnd.IntN(300))
	copy(p, r.rest[:n])
	r.rest = r.rest[n:]
	return n, nil
}

// TestGrepStreamInTinyReadsIsTheSame reads the stream a few bytes at a time
// (thousands of small windows, each carrying the context the next needs)
// and requires what a single pass over the whole text gives (the same text
// searched as a file, which rg 15 prints the same for these flags).
func TestGrepStreamInTinyReadsIsTheSame(t *testing.T) {
	input := streamInput(200 << 10)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "in.txt"), input, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range streamArgs {
		if args[0] == "--json" || args[0] == "-l" || args[0] == "--vimgrep" || args[0] == "--files-without-match" {
			continue // they print the path: the file's name, not <stdin>
		}
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			want, _, wantCode := grepIn(t, dir, nil, append(append([]string{}, args...), "in.txt")...)
			got, errOut, code := grepIn(t, dir, &trickle{rest: input, rnd: rand.New(rand.NewPCG(1, 2))}, args...)
			if got != want || errOut != "" || code != wantCode {
				t.Errorf("a trickled stream differs from the file\n%s\nstderr %q exit %d, file %d", firstDiff(got, want), errOut, code, wantCode)
			}
		})
	}
}

// endless is a stream that never ends: `yes`.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = "y\n"[i%2]
	}
	return len(p) &^ 1, nil
}

// TestGrepStreamNeverTouchesTheDisk: `yes | rgkit grep -m1 y` answers at
// once, as rg does, in every mode, and nothing is copied to a temporary
// file (the old spool filled the disk): TMPDIR points nowhere.
func TestGrepStreamNeverTouchesTheDisk(t *testing.T) {
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, args := range [][]string{{"-m1", "y"}, {"-l", "y"}, {"-q", "y"}, {"-v", "-m1", "n"}, {"--files-without-match", "y"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(ctx, append([]string{"grep", "--backend", "native"}, args...), endless{}, &out, &errOut)
			want := map[string]string{"-m1": "y\n", "-l": "<stdin>\n", "-q": "", "-v": "y\n", "--files-without-match": ""}[args[0]]
			wantCode := 0
			if args[0] == "--files-without-match" {
				wantCode = 1
			}
			if out.String() != want || errOut.String() != "" || code != wantCode {
				t.Fatalf("got %q %q exit %d; want %q exit 0", out.String(), errOut.String(), code, want)
			}
		})
	}
}

// TestGrepStreamPrintsEachLineAsItArrives keeps a pipe open (tail -f) and
// requires each matching line on stdout before the next is written, with
// --line-buffered (as rg: a pipe is block-buffered otherwise).
func TestGrepStreamPrintsEachLineAsItArrives(t *testing.T) {
	bin := rgkitBin(t)
	cmd := exec.Command(bin, "grep", "--backend", "native", "--line-buffered", "-n", "foo")
	in, stdout := testtool.StartPiped(t, cmd)
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	for i := 1; i <= 3; i++ {
		fmt.Fprintf(in, "nothing\nfoo %d\n", i)
		select {
		case got := <-lines:
			if want := fmt.Sprintf("%d:foo %d", 2*i, i); got != want {
				t.Fatalf("line %q, want %q", got, want)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("foo %d was written but not printed while the stream stays open", i)
		}
	}
	in.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("after the stream ends: %v", err)
	}
}
