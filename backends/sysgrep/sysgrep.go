package sysgrep

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/rgkit/rgkit/internal/dialect"
	"github.com/rgkit/rgkit/internal/proc"
	"github.com/rgkit/rgkit/search"
)

// Engine is the engine that runs the system's grep (GNU or BSD). grep has
// no ignore rules, no brace globs and its own binary-file rule, so the library
// keeps those: the native walker selects the files (exactly as rg would) and
// feeds them to grep in batches (never -r); the pattern is translated to ERE
// and run under LC_ALL=C (byte semantics, ASCII classes, so Latin-1 files are
// text); and each file grep reports is checked in Go for what grep cannot
// know: a NUL byte (rg stops searching a binary file; grep -a does not), a
// byte-order mark (rg transcodes UTF-16 and strips BOMs), a line grep and the
// Go matcher disagree on. Such a file is searched by the native matcher on
// the bytes already read, so the answer is rg's whichever way it is reached.
// Columns and submatch spans come from the Go matcher too: grep reports none.
type Engine struct {
	// LookPath finds grep; nil = exec.LookPath. The result must be absolute.
	LookPath func(file string) (string, error)
	// BatchSize is how many files one grep run gets; 0 = 1024.
	BatchSize int
	// Parallel bounds concurrent grep processes; 0 = GOMAXPROCS.
	Parallel int
	// NoStats says the caller reads neither Stats.BytesSearched nor
	// Stats.Binary (see search.ByteStatsOptional). Without it each file grep
	// did not report is read by the Go side too, because rg counts a
	// binary file's bytes only up to where it stops searching; with it
	// such a file counts its size and is never read.
	NoStats bool
	// MaxMemory caps each grep's resident anonymous memory, in bytes; 0 =
	// DefaultMaxMemory, negative = none. Enforced on Linux (proc.Spec). A
	// grep stopped there fails the search with search.ErrMemoryCap, and a
	// Chain searches again with its next engine. Patterns known to grow
	// grep's matcher that far are declined before it runs (see
	// dialect.MaxDFAWeight).
	MaxMemory int64

	mu    sync.Mutex
	probe *grepProbe // cached Available result
}

var _ search.Engine = (*Engine)(nil)

// New returns the system-grep engine with its defaults.
func New() *Engine { return &Engine{} }

// DefaultMaxMemory is a grep's memory cap when Engine.MaxMemory is 0: a
// search costs grep a few MB; gigabytes mean its matcher exploded.
const DefaultMaxMemory int64 = 512 << 20

// SkipByteStats sets NoStats (search.ByteStatsOptional).
func (g *Engine) SkipByteStats() { g.NoStats = true }

// Name is "grep".
func (g *Engine) Name() string { return "grep" }

// grepProbe is what Available learned once.
type grepProbe struct {
	info search.Info
	err  error
}

// Available finds grep and reads its flavour from `grep --version`: GNU
// ("grep (GNU grep) 3.8") or BSD ("grep (BSD grep, GNU compatible) 2.6.0").
// Any other grep (busybox, a wrapper) is unavailable: its flags and output
// are not known to match.
func (g *Engine) Available(ctx context.Context) (search.Info, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.probe != nil {
		return g.probe.info, g.probe.err
	}
	info, err := g.detect(ctx)
	if ctx.Err() == nil {
		g.probe = &grepProbe{info, err}
	}
	return info, err
}

func (g *Engine) detect(ctx context.Context) (search.Info, error) {
	lookPath := g.LookPath
	if lookPath == nil {
		lookPath = exec.LookPath
	}
	path, err := lookPath("grep")
	if err != nil {
		return search.Info{}, fmt.Errorf("%w: grep: %w", search.ErrUnavailable, err)
	}
	if !filepath.IsAbs(path) {
		return search.Info{}, fmt.Errorf("%w: grep found at relative path %q", search.ErrUnavailable, path)
	}
	var out bytes.Buffer
	res, err := proc.Run(ctx, proc.Spec{Unavailable: search.ErrUnavailable, Path: path, Args: []string{"--version"}, Env: grepEnv, MaxStdout: 64 << 10},
		func(r io.Reader) error { _, err := io.Copy(&out, r); return err })
	if err != nil {
		return search.Info{}, err
	}
	if res.ExitCode != 0 {
		return search.Info{}, fmt.Errorf("%w: %s --version: exit status %d", search.ErrUnavailable, path, res.ExitCode)
	}
	info, ok := parseGrepVersion(out.String())
	if !ok {
		first, _, _ := strings.Cut(out.String(), "\n")
		return search.Info{}, fmt.Errorf("%w: %s is neither GNU nor BSD grep (%q)", search.ErrUnavailable, path, first)
	}
	info.Path = path
	return info, nil
}

// parseGrepVersion reads the flavour and version from grep --version.
func parseGrepVersion(out string) (search.Info, bool) {
	first, _, _ := strings.Cut(out, "\n")
	info := search.Info{Name: "grep"}
	switch {
	case strings.Contains(first, "GNU grep"):
		info.Flavor = "gnu"
	case strings.Contains(first, "BSD grep"):
		info.Flavor = "bsd"
	default:
		return info, false
	}
	if f := strings.Fields(first); len(f) > 0 {
		info.Version = f[len(f)-1]
	}
	return info, true
}

// grepEnv is grep's whole environment: the C locale (bytes, ASCII classes;
// GNU grep then never calls a Latin-1 file binary), and nothing that could
// change grep's behaviour (GREP_OPTIONS, GREP_COLOR...).
var grepEnv = []string{"LC_ALL=C"}

// bomPatterns make grep report every file that starts with a byte-order mark
// (and, harmlessly, a few more), so that files rg transcodes are never
// missed: the Go check then searches them natively. As fixed strings they
// match anywhere in a line; as ERE at a line start.
var bomFixed = []string{"\xef\xbb\xbf", "\xff\xfe", "\xfe\xff"}

const bomERE = "^(\xef\xbb\xbf|\xff\xfe|\xfe\xff)"

// grepArgs builds the flags of one grep run for q with translation t (the
// files follow "--").
func grepArgs(q search.Query, t dialect.Translation) []string {
	args := []string{"-a", "-s", "-D", "skip", "-d", "skip", "--null"}
	switch q.Mode {
	case search.ModeFilesWithMatches, search.ModeCount:
		// The Go side searches each listed file: grep only finds them.
		args = append(args, "-l")
	default:
		args = append(args, "-H", "-n")
		if max, _ := search.FileMatchCap(q); max > 0 {
			args = append(args, fmt.Sprintf("--max-count=%d", max))
		}
		if q.After > 0 {
			args = append(args, fmt.Sprintf("--after-context=%d", q.After))
		}
		if q.Before > 0 {
			args = append(args, fmt.Sprintf("--before-context=%d", q.Before))
		}
	}
	if t.Fixed {
		args = append(args, "-F", "-e", t.Pattern)
		for _, b := range bomFixed {
			args = append(args, "-e", b)
		}
	} else {
		args = append(args, "-E", "-e", t.Pattern, "-e", bomERE)
	}
	return args
}

// errGrepPattern is grep refusing the translated pattern (a translation gap).
var errGrepPattern = errors.New("grep rejected the translated pattern")

// refusedPattern reports a grep run that failed before reading a file: exit
// status 2 or more, a message on stderr (-s silences the ones about files)
// and nothing on stdout. Every batch of a search runs the same pattern, so
// when no batch printed anything either, nothing was emitted and the
// Chain can move on. This replaced a dry run of grep on empty input before
// each search: a second process, and with a translated Unicode class as
// long to start as the search itself.
func refusedPattern(res proc.Result, printed bool) error {
	msg, _, _ := bytes.Cut(bytes.TrimSpace(res.Stderr), []byte("\n"))
	if res.ExitCode < 2 || len(msg) == 0 || printed {
		return nil
	}
	return fmt.Errorf("%w: %w: %s", search.ErrUnsupported, errGrepPattern, msg)
}

// grepRecords reads grep's --null -H -n output: "path\0N:text\n" for a
// match, "path\0N-text\n" for context, "--\n" between context groups. Text
// may hold any byte but '\n'. emit gets each record's path, line number and
// kind; the text is skipped (the engine takes it from the file it reads, so
// a 50 MB line is never held twice); sep records are skipped.
func grepRecords(r io.Reader, emit func(path string, number int, context bool) error) error {
	br := bufio.NewReaderSize(r, 256<<10)
	for {
		head, err := br.ReadSlice(0)
		if err == io.EOF && len(head) == 0 {
			return nil
		}
		if err == bufio.ErrBufferFull {
			return fmt.Errorf("grep output: path too long")
		}
		// A group separator ("--\n") may precede the path.
		for bytes.HasPrefix(head, []byte("--\n")) {
			head = head[3:]
		}
		if err != nil {
			if err == io.EOF && len(bytes.TrimSpace(head)) == 0 {
				return nil
			}
			return fmt.Errorf("grep output: truncated record %q", head)
		}
		path := string(head[:len(head)-1])
		n, i, sep := 0, 0, byte(0)
		for {
			c, err := br.ReadByte()
			if err != nil {
				return fmt.Errorf("grep output: truncated record for %q", path)
			}
			if c >= '0' && c <= '9' && n < math.MaxInt/10 {
				n = n*10 + int(c-'0')
				i++
				continue
			}
			sep = c
			break
		}
		if i == 0 || (sep != ':' && sep != '-') {
			return fmt.Errorf("grep output: malformed record for %q", path)
		}
		if err := skipLine(br); err != nil {
			return err
		}
		if err := emit(path, n, sep == '-'); err != nil {
			return err
		}
	}
}

// skipLine reads up to and past '\n' (the last line may lack it), however
// long the line is, keeping nothing.
func skipLine(br *bufio.Reader) error {
	for {
		_, err := br.ReadSlice('\n')
		switch err {
		case nil, io.EOF:
			return nil
		case bufio.ErrBufferFull:
		default:
			return err
		}
	}
}
