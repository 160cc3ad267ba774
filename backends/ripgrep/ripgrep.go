package ripgrep

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/internal/proc"
	"github.com/rgkit/rgkit/internal/version"
	"github.com/rgkit/rgkit/search"
)

// Engine is the engine that runs rg.
//
// With the reference release (search.ReferenceVersion) or a later one, rg
// does the walking (ignore rules, hidden files, globs, binary detection,
// BOM transcoding) and the matching: rgkit gives it the pattern as written
// (the request language is rg's dialect), flags that mirror the Query and
// a scrubbed environment, and decodes its JSON output as it streams (its
// plain output when no match positions are wanted: NoSpans).
//
// An older rg (13.0.0 or later) answers some searches differently
// (search.Differences). Some differences depend on the tree's contents
// (ignore files, globs), which no Query shows, so an older rg never walks:
// see searchOlder.
type Engine struct {
	// Locate finds the rg binary (an absolute path). rgfetch's Resolver is
	// wired in by cmd/ and tools/; the default looks rg up in PATH.
	Locate func(ctx context.Context) (string, error)
	// Environ is the environment rg's is built from (only HOME and
	// XDG_CONFIG_HOME, which locate the global gitignore, and the few
	// variables an OS needs are passed on); nil = os.Environ.
	Environ func() []string
	// MaxStdout caps the bytes read from rg; 0 = proc.DefaultMaxStdout,
	// except for rg --json in content mode, which is read through
	// rgDecoder: its memory is bounded by the caps whatever rg prints, so
	// by default nothing is capped there (a 50 MB line of "A" searched for
	// "A" is 2.8 GB of JSON, and the search has an answer). The Chain's
	// page, byte cap and timeout stop rg when the caller has enough.
	MaxStdout int64
	// Grace is the SIGTERM-to-SIGKILL delay on cancel; 0 = 2s.
	Grace time.Duration
	// MaxMemory caps rg's resident memory (heap, not the files it maps),
	// in bytes; 0 = DefaultMaxMemory, negative = no cap. Enforced on Linux
	// only (see proc.Spec.MaxMemory). rg stopped there fails the search
	// with an error wrapping search.ErrMemoryCap, and the Chain searches
	// again with its next engine.
	MaxMemory int64
	// NoStats says the caller reads neither Stats.BytesSearched nor
	// Stats.Binary (see search.ByteStatsOptional). It matters with an rg
	// older than the reference, which only prunes (see searchOlder): the
	// files it lists nothing in are then skipped unread, counted at their
	// size; without it they are searched natively too, since rg 15 counts
	// a binary file only up to where it stops searching it.
	NoStats bool
	// NoSpans says the caller reads no match positions
	// (search.SpansOptional): a search that prints many lines then reads
	// rg's plain output, a third the size of its --json and no escapes to
	// undo, instead of its JSON (see plainOutput).
	NoSpans bool

	mu       sync.Mutex
	versions map[string]rgVersion // by path, with the file's identity
}

// SkipByteStats sets NoStats (search.ByteStatsOptional).
func (r *Engine) SkipByteStats() { r.NoStats = true }

// SkipSpans sets NoSpans (search.SpansOptional).
func (r *Engine) SkipSpans() { r.NoSpans = true }

// DefaultMaxMemory is the ripgrep engine's memory cap when
// Engine.MaxMemory is 0. A search normally costs rg 10 to 100 MB (more with
// --multiline, which holds a whole file); what passes a gigabyte is a file
// of millions of matches, whose --json output rg builds whole before
// printing it: 2.1 GB for ten million matching lines, 6.4 GB and 4 minutes
// for one 50 MB line of "A" searched for "A". Past the cap the Chain's next
// engine streams such a file within its own caps instead.
const DefaultMaxMemory int64 = 1 << 30

// rgMinVersion is the oldest rg the engine runs: rgkit is tested with
// 13.0.0, 14.1.1 and 15.2.0 (the reference, see search.ReferenceVersion).
var rgMinVersion = version.V{Major: 13, Minor: 0, Patch: 0}

type rgVersion struct {
	size    int64
	modTime time.Time
	info    search.Info
	err     error
}

var _ search.Engine = (*Engine)(nil)

// New returns the ripgrep engine; locate nil means a PATH lookup that
// refuses an rg found through a relative PATH entry (exec.ErrDot).
func New(locate func(ctx context.Context) (string, error)) *Engine {
	if locate == nil {
		locate = lookPathRg
	}
	return &Engine{Locate: locate}
}

// lookPathRg finds rg in PATH, refusing a relative result (Go's ErrDot: a
// binary in the current directory could be planted by the workspace).
func lookPathRg(ctx context.Context) (string, error) {
	p, err := exec.LookPath("rg")
	if err != nil {
		return "", fmt.Errorf("%w: rg not found in PATH: %w", search.ErrUnavailable, err)
	}
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("%w: refusing rg at relative path %q", search.ErrUnavailable, p)
	}
	return p, nil
}

// Name is "ripgrep".
func (r *Engine) Name() string { return "ripgrep" }

// Available locates rg and checks its version (rg --version, cached per
// binary until the file changes).
func (r *Engine) Available(ctx context.Context) (search.Info, error) {
	path, err := r.locate(ctx)
	if err != nil {
		return search.Info{Name: r.Name()}, err
	}
	return r.version(ctx, path)
}

func (r *Engine) locate(ctx context.Context) (string, error) {
	locate := r.Locate
	if locate == nil {
		locate = lookPathRg
	}
	path, err := locate(ctx)
	if err != nil {
		if !errors.Is(err, search.ErrUnavailable) {
			err = fmt.Errorf("%w: %w", search.ErrUnavailable, err)
		}
		return "", err
	}
	if !filepath.IsAbs(path) {
		return "", fmt.Errorf("%w: refusing rg at relative path %q", search.ErrUnavailable, path)
	}
	return path, nil
}

func (r *Engine) version(ctx context.Context, path string) (search.Info, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return search.Info{Name: r.Name()}, fmt.Errorf("%w: %w", search.ErrUnavailable, err)
	}
	r.mu.Lock()
	v, ok := r.versions[path]
	r.mu.Unlock()
	if ok && v.size == fi.Size() && v.modTime.Equal(fi.ModTime()) {
		return v.info, v.err
	}
	v = rgVersion{size: fi.Size(), modTime: fi.ModTime(), info: search.Info{Name: r.Name(), Path: path}}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	var out bytes.Buffer
	res, err := proc.Run(ctx, proc.Spec{Unavailable: search.ErrUnavailable, Path: path, Args: []string{"--version"}, Env: r.env(), MaxStdout: 64 << 10, Grace: r.Grace},
		func(rd io.Reader) error { _, err := io.Copy(&out, rd); return err })
	number, parseErr := version.Ripgrep(out.Bytes())
	switch {
	case err != nil:
		v.err = fmt.Errorf("%w: %s --version: %w", search.ErrUnavailable, path, err)
	case res.ExitCode != 0 || parseErr != nil:
		v.err = fmt.Errorf("%w: %s --version: exit %d, output %q", search.ErrUnavailable, path, res.ExitCode, proc.FirstLine(out.Bytes()))
	default:
		v.info.Version = number
		if strings.Contains(out.String(), "+PCRE2") {
			v.info.Flavor = "pcre2"
		}
		if ver, _ := version.Parse(number); ver.Less(rgMinVersion) {
			v.err = fmt.Errorf("%w: %s is ripgrep %s, older than %s", search.ErrUnavailable, path, number, rgMinVersion)
		}
	}
	if ctx.Err() == nil { // a cancelled probe says nothing about the binary
		r.mu.Lock()
		if r.versions == nil {
			r.versions = map[string]rgVersion{}
		}
		r.versions[path] = v
		r.mu.Unlock()
	}
	return v.info, v.err
}

// env is rg's environment: an allowlist, so RIPGREP_CONFIG_PATH and
// anything else that could change rg's behaviour never reaches it.
func (r *Engine) env() []string {
	environ := r.Environ
	if environ == nil {
		environ = os.Environ
	}
	return proc.AllowEnv(environ(), "HOME", "XDG_CONFIG_HOME", "USERPROFILE", "SYSTEMROOT", "TMPDIR", "TEMP", "TMP")
}

// patternArgs are the flags that say how rg reads and matches the pattern,
// and the ones every run has: no configuration file, no mmap (a file
// truncated under rg would kill it with SIGBUS), no colour.
func patternArgs(q search.Query) []string {
	// No --no-mmap: rg maps up to 10 files named on its command line and
	// reads everything else, and a NUL in a mapped file is searched as a
	// byte, where a read one becomes a line break (the line numbers differ);
	// rgkit gives rg the same paths the user gave, so rg chooses as it would.
	args := []string{"--no-config", "--color=never"}
	if q.Case == search.CaseInsensitive {
		args = append(args, "--ignore-case")
	} else {
		args = append(args, "--case-sensitive")
	}
	if q.Fixed {
		args = append(args, "--fixed-strings")
	}
	if q.Word {
		args = append(args, "--word-regexp")
	}
	if q.Multiline {
		args = append(args, "--multiline", "--multiline-dotall")
	}
	if q.PCRE2 {
		args = append(args, "--pcre2")
	}
	return args
}

// rgArgs builds rg's command line for q (normalised). The request
// language is rg's own regex dialect, so the pattern goes to rg as written,
// with -F, -i, -w and -U --multiline-dotall as the Query says. The pattern
// only ever follows --regexp= and the paths only ever follow "--", both
// absolute, so nothing from the Query can become a flag.
func rgArgs(q search.Query, threads int, plain bool) ([]string, error) {
	var args []string
	switch {
	case q.Mode == search.ModeFilesWithMatches:
		args = append(args, "--files-with-matches", "--null")
	case q.Mode == search.ModeCount:
		args = append(args, "--count", "--null", "--with-filename")
	case plain:
		args = append(args, plainArgs...)
	default:
		args = append(args, "--json")
	}
	args = append(args, patternArgs(q)...)
	if threads > 0 {
		args = append(args, "--threads="+strconv.Itoa(threads))
	}
	if q.Hidden {
		args = append(args, "--hidden")
	}
	if q.NoIgnore {
		args = append(args, "--no-ignore")
	}
	if q.FollowSymlinks {
		args = append(args, "--follow")
	}
	if q.MaxFileSize > 0 {
		args = append(args, "--max-filesize="+strconv.FormatInt(q.MaxFileSize, 10))
	}
	if max, _ := search.FileMatchCap(q); max > 0 {
		args = append(args, "--max-count="+strconv.Itoa(max))
	}
	// In count mode too: rg 15 -c -m N -A K counts the matches inside the
	// N-th match's trailing context.
	if q.Mode != search.ModeFilesWithMatches {
		if q.After > 0 {
			args = append(args, "--after-context="+strconv.Itoa(q.After))
		}
		if q.Before > 0 {
			args = append(args, "--before-context="+strconv.Itoa(q.Before))
		}
	}
	globs, err := search.TypeGlobs(q.Types)
	if err != nil {
		return nil, err
	}
	for _, g := range globs {
		args = append(args, "--type-add=rgkit:"+g)
	}
	if len(globs) > 0 {
		args = append(args, "--type=rgkit")
	}
	sel, err := selectionArgs(q)
	if err != nil {
		return nil, err
	}
	args = append(args, sel...)
	for _, g := range q.Globs {
		args = append(args, "--glob="+g)
	}
	for _, g := range q.IGlobs {
		args = append(args, "--iglob="+g)
	}
	if !q.GitDir {
		// .git is never searched, even with Hidden (the library's rule
		// unless GitDir); last, so it wins over a user's positive glob.
		args = append(args, "--glob=!.git")
	}
	args = append(args, "--regexp="+q.Pattern, "--")
	if len(q.Paths) == 0 {
		args = append(args, q.Root)
	}
	for _, p := range q.Paths {
		args = append(args, filepath.Join(q.Root, filepath.FromSlash(p)))
	}
	return args, nil
}

// Search runs rg for q. Exit status 1 means no match; 2 means errors (an
// unreadable file: counted in Stats.Unreadable, what was found is kept).
// When rg cannot start its threads (EAGAIN) and has reported nothing, it
// is run once more with one thread. When ctx ends, what was found so far
// has been delivered and the error wraps ctx's.
func (r *Engine) Search(ctx context.Context, q search.Query, sink search.Sink) (search.Stats, error) {
	start := time.Now()
	if q.Confine != nil {
		// rg opens path strings: a directory swapped for a link while it
		// runs leads it outside, and nothing it prints can be re-checked
		// cheaply. The Chain moves on to an engine that opens beneath the
		// held root.
		return search.Stats{}, fmt.Errorf("%w: rg opens files by path and cannot be confined beneath the held root", search.ErrUnsupported)
	}
	if c := q.CustomReading(); c != "" {
		return search.Stats{}, fmt.Errorf("%w: the ripgrep engine reads files as rg does by default (%s)", search.ErrUnsupported, c)
	}
	info, err := r.Available(ctx)
	if err != nil {
		return search.Stats{}, err
	}
	if search.Within(q.Root, info.Path) {
		return search.Stats{}, fmt.Errorf("%w: refusing to run %s from inside the search root", search.ErrUnavailable, info.Path)
	}
	for _, g := range q.Globs {
		// An invalid glob is the user's error, whichever engine runs: never
		// a reason to fall back.
		if err := native.CheckGlob(g); err != nil {
			return search.Stats{}, err
		}
	}
	diffs, err := search.Differences(info.Version)
	if err != nil {
		return search.Stats{}, fmt.Errorf("%w: %w", search.ErrUnavailable, err)
	}
	if len(diffs) > 0 {
		return r.searchOlder(ctx, q, sink, info, diffs, start) // its walk honours GlobBase
	}
	run := &rgRun{ctx: ctx, q: q, sink: sink, countMatches: rgCountsMatches(q)}
	run.plain = r.NoSpans && plainOutput(q, run.countMatches)
	defer func() {
		if run.closeCounter != nil {
			run.closeCounter()
		}
	}()
	for attempt := 0; ; attempt++ {
		threads := 0
		if attempt > 0 {
			threads = 1
		}
		args, err := rgArgs(q, threads, run.plain)
		if err != nil {
			return search.Stats{}, err
		}
		maxStdout := orDefault(r.MaxStdout, proc.DefaultMaxStdout)
		if q.Mode == search.ModeContent && r.MaxStdout == 0 {
			maxStdout = 0 // see MaxStdout
		}
		res, err := proc.Run(ctx, proc.Spec{
			Unavailable: search.ErrUnavailable,
			Path:        info.Path, Args: args, Dir: q.Root, Env: r.env(),
			MaxStdout: maxStdout, Grace: r.Grace, MaxMemory: r.maxMemory(),
		}, run.consume)
		run.stats.ProcessCPU += res.CPU
		run.stats.ProcessPeakRSS = max(run.stats.ProcessPeakRSS, res.PeakRSS)
		if attempt == 0 && !run.emitted && isEAGAIN(res) && ctx.Err() == nil {
			continue
		}
		run.stats.Elapsed = time.Since(start)
		if res.MemoryCapped {
			// Before finish: the record cut by the kill fails to decode.
			return run.stats, r.memoryCapError(q)
		}
		return run.finish(res, err)
	}
}

// maxMemory is the cap handed to proc.Spec (<= 0 there = none).
func (r *Engine) maxMemory() int64 {
	if r.MaxMemory == 0 {
		return DefaultMaxMemory
	}
	return r.MaxMemory
}

// memoryCapError says rg was stopped for memory searching q, in words for
// the person who asked; it matches search.ErrMemoryCap.
func (r *Engine) memoryCapError(q search.Query) error {
	where := q.Root
	switch len(q.Paths) {
	case 0:
	case 1:
		where = filepath.Join(q.Root, filepath.FromSlash(q.Paths[0]))
	default:
		where = fmt.Sprintf("%d paths under %s", len(q.Paths), q.Root)
	}
	return &memoryCapError{fmt.Sprintf("rg needed more than %s of memory searching %s (rg builds each file's --json output whole before printing it, and a file there has millions of matches)",
		proc.FormatBytes(r.maxMemory()), where)}
}

// memoryCapError is rg stopped for memory; it wraps search.ErrMemoryCap
// without repeating its text.
type memoryCapError struct{ msg string }

func (e *memoryCapError) Error() string { return e.msg }
func (e *memoryCapError) Unwrap() error { return search.ErrMemoryCap }

func orDefault(v, def int64) int64 {
	if v > 0 {
		return v
	}
	return def
}

// isEAGAIN recognises rg failing to create threads or processes
// (Claude Code and qwen-code retry these with -j 1; see
// anthropics/claude-code#22176).
func isEAGAIN(res proc.Result) bool {
	return res.ExitCode == 2 && (bytes.Contains(res.Stderr, []byte("Resource temporarily unavailable")) ||
		bytes.Contains(res.Stderr, []byte("EAGAIN")) || bytes.Contains(res.Stderr, []byte("os error 11")))
}

// rgRun is one Search's state while rg's output streams in.
type rgRun struct {
	ctx     context.Context
	q       search.Query
	sink    search.Sink
	stats   search.Stats
	emitted bool // something reached the sink (no retry after that)
	open    string
	// countMatches says a file's MatchedLines is rg's match count (see
	// rgCountsMatches), not its matched lines.
	countMatches bool
	// plain: rg prints its standard output, read by consumePlain.
	plain   bool
	sinkErr error
	// counter counts a file rg stopped at the page's cap (opened on first
	// use; see countFile).
	counter      *native.FileSearcher
	closeCounter func()
	split        rgSplitter
}

// countFile counts the matching lines of the file at path with the native
// matcher, which gives rg's answer.
func (run *rgRun) countFile(path string) (int, error) {
	if run.counter == nil {
		m, err := native.Compile(native.MatchOptionsFor(run.q))
		if err != nil {
			return 0, err
		}
		src, err := (&native.Reader{}).Open(run.q.Root)
		if err != nil {
			return 0, err
		}
		run.counter = native.NewFileSearcher(run.ctx, run.q, m, search.Discard, src)
		run.closeCounter = func() { src.Close() }
	}
	return run.counter.CountFile(path)
}

// consume is runProc's stdout callback.
func (run *rgRun) consume(r io.Reader) error {
	var err error
	switch run.q.Mode {
	case search.ModeFilesWithMatches:
		err = run.consumeNull(r, false)
	case search.ModeCount:
		err = run.consumeNull(r, true)
	case search.ModeContent:
		if run.plain {
			err = run.consumePlain(r)
			break
		}
		fallthrough
	default:
		err = decodeRgJSON(r, rgCapsFor(run.q), run.record)
	}
	if err != nil && run.sinkErr == nil && !errors.Is(err, search.ErrStop) {
		return err
	}
	return err
}

// rel turns a path rg printed (absolute: rgkit only passes absolute paths)
// into the Query's form: relative to Root, forward slashes. A name that is
// not UTF-8 keeps its bytes (Go strings hold any bytes); printers decide how
// to show it.
func (run *rgRun) rel(p []byte) string {
	s := string(p)
	if rel, err := filepath.Rel(run.q.Root, s); err == nil && filepath.IsLocal(rel) {
		s = rel
	}
	return filepath.ToSlash(s)
}

func (run *rgRun) sinkCall(err error) error {
	if err != nil && run.sinkErr == nil {
		run.sinkErr = err
	}
	return err
}

func (run *rgRun) record(rec *rgRecord) error {
	switch rec.Type {
	case typeBegin:
		p, err := rec.Data.Path.raw()
		if err != nil {
			return err
		}
		run.open = run.rel(p.kept)
		if run.q.Mode == search.ModeContent {
			run.emitted = true
			return run.sinkCall(run.sink.Begin(run.open))
		}
	case typeMatch, typeContext:
		lines, err := rec.Data.Lines.raw()
		if err != nil {
			return err
		}
		kind := search.KindMatch
		if rec.Type == typeContext {
			kind = search.KindContext
		}
		_, err = run.split.split(run.open, rec.Data.LineNumber, lines, rec.Data.Submatches, rec.Data.MoreSubmatches, run.q.MaxColumns, kind, func(l search.Line) error {
			return run.sinkCall(run.sink.Line(l))
		})
		return err
	case typeEnd:
		st := rec.Data.Stats
		count := st.MatchedLines
		if run.countMatches {
			count = st.Matches // what rg -c prints when it searches across lines
		}
		return run.endFile(count, rec.Data.HasBinaryOffset)
	case typeSummary:
		st := rec.Data.Stats
		run.stats.FilesSearched = st.Searches
		run.stats.BytesSearched = st.BytesSearched
	}
	return nil
}

// endFile closes the open file, which had count matching lines (matches,
// with countMatches) and, when binary, a NUL byte.
func (run *rgRun) endFile(count int64, binary bool) error {
	if binary {
		run.stats.Binary++
	}
	run.stats.FilesMatched++
	run.stats.MatchedLines += count
	if capAt, capped := search.FileMatchCap(run.q); capped && count >= int64(capAt) {
		// rg stopped at the page's cap: count the file here, so the
		// total stays exact.
		if n, err := run.countFile(run.open); err == nil && int64(n) > count {
			run.stats.MatchedLines += int64(n) - count
			count = int64(n)
		} else if err != nil {
			run.stats.MatchedLinesAtLeast = true
		}
	}
	return run.sinkCall(run.sink.End(search.FileSummary{Path: run.open, MatchedLines: int(count)}))
}

// consumeNull reads rg -l --null ("path\0") or rg -c --null
// --with-filename ("path\0count\n") output.
func (run *rgRun) consumeNull(r io.Reader, counts bool) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		p, err := br.ReadBytes(0)
		if err == io.EOF {
			if len(bytes.TrimSpace(p)) > 0 {
				return fmt.Errorf("rg: truncated output %q", p)
			}
			return nil
		}
		if err != nil {
			return err
		}
		path := run.rel(p[:len(p)-1])
		n := 1
		if counts {
			c, err := br.ReadString('\n')
			if err != nil && err != io.EOF {
				return err
			}
			if n, err = strconv.Atoi(strings.TrimSpace(c)); err != nil {
				return fmt.Errorf("rg: bad count %q for %q", c, path)
			}
		} else if c, _ := br.Peek(1); len(c) == 1 && c[0] == '\n' {
			br.ReadByte() // rg ends each record with "\n" too when not --null-data
		}
		run.emitted = true
		run.stats.FilesMatched++
		run.stats.MatchedLines += int64(n)
		if err := run.sinkCall(run.sink.Begin(path)); err != nil {
			return err
		}
		// In files mode a listed file has (at least) one matching line, as
		// the native engine, which stops at the first, reports.
		summary := search.FileSummary{Path: path, MatchedLines: n}
		if err := run.sinkCall(run.sink.End(summary)); err != nil {
			return err
		}
	}
}

// finish maps rg's exit and the runner's outcome to Search's result.
func (run *rgRun) finish(res proc.Result, err error) (search.Stats, error) {
	run.stats.Unreadable += countFileErrors(res.Stderr)
	if errors.Is(run.sinkErr, search.ErrStop) {
		return run.stats, nil
	}
	if run.sinkErr != nil {
		return run.stats, run.sinkErr
	}
	if res.StdoutCapped {
		// Checked first: the record cut by the cap fails to decode.
		return run.stats, fmt.Errorf("rg: output passed the engine's byte cap; results are partial")
	}
	if err != nil {
		return run.stats, err
	}
	switch res.ExitCode {
	case 0, 1:
		return run.stats, nil
	case 2:
		if run.stats.Unreadable > 0 || run.emitted {
			return run.stats, nil // some files could not be read; the rest is complete
		}
		if g, reason, ok := globError(res.Stderr); ok {
			// A glob rg refuses is the user's error: no other engine may
			// take it (native.CheckGlob should have caught it first).
			return run.stats, &native.GlobError{Glob: g, Reason: reason}
		}
		// rg refused the search before reading any file: a regex it cannot
		// compile ("compiled regex exceeds size limit"), or a pattern or flag
		// another rg version reads differently (rg 14 refuses a pattern that
		// can match NUL). Another engine may run it.
		return run.stats, fmt.Errorf("%w: rg: %s", search.ErrUnsupported, strings.TrimSpace(string(res.Stderr)))
	}
	return run.stats, fmt.Errorf("rg exited with status %d: %s", res.ExitCode, strings.TrimSpace(string(res.Stderr)))
}

// countFileErrors counts rg's per-file error messages on stderr
// ("PATH: Permission denied (os error 13)").
func countFileErrors(stderr []byte) int64 {
	var n int64
	for _, l := range bytes.Split(stderr, []byte("\n")) {
		if bytes.Contains(l, []byte("(os error ")) {
			n++
		}
	}
	return n
}

// globError reads rg's "error parsing glob 'G': REASON" message.
func globError(stderr []byte) (glob, reason string, ok bool) {
	const head = "error parsing glob '"
	s := string(stderr)
	i := strings.Index(s, head)
	if i < 0 {
		return "", "", false
	}
	s = s[i+len(head):]
	glob, reason, ok = strings.Cut(s, "': ")
	if !ok {
		return "", "", false
	}
	reason, _, _ = strings.Cut(reason, "\n")
	return glob, strings.TrimSpace(reason), true
}

// selectionArgs passes the Query's finer file-selection switches to rg as
// its own flags: the ignore switches, --ignore-file (absolute: rg runs in
// Root), case-insensitive globs, -d, --one-file-system, and each type
// selection as a type of its own (rgkitsel0, ...).
func selectionArgs(q search.Query) ([]string, error) {
	if q.GlobBase != "" && len(q.Globs)+len(q.IGlobs)+len(q.IgnoreFiles) > 0 {
		// (The global excludes file is matched from Root as before.)
		return nil, fmt.Errorf("%w: rg runs from Root, where its globs see paths from Root, not from GlobBase", search.ErrUnsupported)
	}
	var args []string
	for _, f := range []struct {
		on   bool
		flag string
	}{
		{q.NoIgnoreDot, "--no-ignore-dot"}, {q.NoIgnoreVCS, "--no-ignore-vcs"},
		{q.NoIgnoreExclude, "--no-ignore-exclude"}, {q.NoIgnoreGlobal, "--no-ignore-global"},
		{q.NoIgnoreParent, "--no-ignore-parent"}, {q.NoRequireGit, "--no-require-git"},
		{q.IgnoreCaseInsensitive, "--ignore-file-case-insensitive"},
		{q.GlobCaseInsensitive, "--glob-case-insensitive"}, {q.OneFileSystem, "--one-file-system"},
	} {
		if f.on {
			args = append(args, f.flag)
		}
	}
	for _, f := range q.IgnoreFiles {
		abs, err := filepath.Abs(f)
		if err != nil {
			return nil, err
		}
		args = append(args, "--ignore-file="+abs)
	}
	if q.MaxDepthSet {
		args = append(args, "--max-depth="+strconv.Itoa(q.MaxDepth))
	}
	for i, s := range q.TypeSelections {
		if len(s.Globs) == 0 {
			return nil, fmt.Errorf("%w: type %q has no globs", search.ErrUnsupported, s.Name)
		}
		name := "rgkitsel" + strconv.Itoa(i)
		for _, g := range s.Globs {
			if strings.Contains(g, ":") {
				return nil, fmt.Errorf("%w: rg's --type-add cannot carry the glob %q", search.ErrUnsupported, g)
			}
			args = append(args, "--type-add="+name+":"+g)
		}
		if s.Negate {
			args = append(args, "--type-not="+name)
		} else {
			args = append(args, "--type="+name)
		}
	}
	return args, nil
}
