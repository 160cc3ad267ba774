package rg

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/internal/rgcli"
	"github.com/rgkit/rgkit/internal/rgregex"
	"github.com/rgkit/rgkit/search"
)

// target is one thing to search: a directory, a file named on the command
// line, or stdin (spooled to a private file).
type target struct {
	root    string        // Query.Root
	paths   []string      // Query.Paths (relative to root)
	display string        // how rg prints this argument ("" for the working directory)
	file    bool          // a file named explicitly (or stdin)
	index   int           // position among the targets (rg sorts within each)
	stream  *streamSource // stdin, a FIFO or a device: searched as it arrives
}

// printedPath is how rg prints rel (a result path relative to t.root).
func (t target) printedPath(rel string) string {
	switch {
	case t.file:
		return t.display
	case t.display == "":
		return rel
	case strings.HasSuffix(t.display, "/"):
		return t.display + rel
	}
	return t.display + "/" + rel
}

// runLibrary searches with the library's engines and prints as rg does.
func (p *Program) runLibrary(ctx context.Context, s streams, o *rgcli.Options) int {
	start := time.Now()
	if err := checkSupported(o); err != nil {
		fmt.Fprintln(s.errOut, "rg:", err)
		return 2
	}
	if err := p.checkPreprocess(o); err != nil {
		fmt.Fprintln(s.errOut, "rg:", err)
		return 2
	}
	if o.Mode == rgcli.ModeFilesWithMatches && o.Passthru && !o.Invert {
		// rg lists the same files with and without --passthru under -l
		// (its statistics too); the listing path's replay of --passthru's
		// NUL rules missed a walked file whose NUL comes past rg's first
		// buffer fill.
		plain := *o
		plain.Passthru = false
		o = &plain
	}
	patterns, err := readPatterns(o, s.in)
	if err != nil {
		fmt.Fprintln(s.errOut, "rg:", err)
		return 2
	}
	if o.Mode == rgcli.ModeFiles {
		patterns = []string{""} // --files takes no pattern; the query still needs one
	}
	if o.MaxCount != nil && *o.MaxCount == 0 {
		return 1 // -m0: nothing is reported
	}
	if len(patterns) == 0 {
		if !o.Invert {
			return 1 // no pattern (an empty -f file): nothing can match
		}
		// rg's matcher for no pattern matches nothing, so -v selects
		// every line.
		patterns = []string{`[^\s\S]`}
	}
	q, err := baseQuery(o, patterns)
	if err == nil && o.Engine == "auto" && !o.PCRE2 && o.Mode != rgcli.ModeFiles {
		q, err = autoEngine(o, patterns, q)
	}
	if err != nil {
		fmt.Fprintln(s.errOut, "rg:", err)
		return 2
	}
	if o.Invert && o.MaxCount != nil && searchesMultiline(q) {
		// rg -v -U's -m counts the pattern's finds, not the lines it
		// selects (native.SearchOptions.InvertFinds): the search takes
		// the limit (q.MaxCountPerFile), the printing of lines none.
		finds := *o
		finds.MaxCount = nil
		o = &finds
	}
	chain, err := p.chain(o)
	if err != nil {
		fmt.Fprintln(s.errOut, "rg:", err)
		return 2
	}
	if len(q.IgnoreFiles) > 0 {
		// rg reads them once the pattern is known to be valid.
		if _, err := search.Normalize(search.Query{Pattern: q.Pattern, Case: q.Case, Multiline: q.Multiline}); err != nil {
			fmt.Fprintln(s.errOut, "rg:", describeSearchError(err, q, patterns))
			return 2
		}
		reportIgnoreFiles(s.errOut, o, q.IgnoreFiles)
	}
	reports := &fileReports{errOut: s.errOut, quiet: o.NoMessages, byPath: o.Sort == rgcli.SortPath, reverse: o.SortReverse}
	if err := p.setupReading(chain, o, reports); err != nil {
		fmt.Fprintln(s.errOut, "rg:", err)
		return 2
	}

	status := 0
	var targets []target
	cleanup := func() {}
	defer func() { cleanup() }()
	addStdin := func() {
		targets = append(targets, target{display: "<stdin>", file: true, stream: &streamSource{r: s.in}})
	}
	if len(o.Paths) == 0 {
		// stdin is searched when it can be read, unless -f - took the
		// patterns from it.
		if stdinReadable(s.in) && !slices.Contains(o.PatternFiles, "-") {
			addStdin()
		} else {
			cwd, err := os.Getwd()
			if err != nil {
				fmt.Fprintln(s.errOut, "rg:", err)
				return 2
			}
			targets = append(targets, target{root: cwd})
		}
	}
	for _, p := range o.Paths {
		if p == "-" {
			addStdin()
			continue
		}
		t, done, err := pathTarget(p)
		if err != nil {
			if !o.NoMessages {
				// rg words it differently when it sorts (it stats the path first).
				if o.Sort != rgcli.SortNone || o.SortReverse || len(o.Paths) == 1 {
					fmt.Fprintf(s.errOut, "rg: %s: IO error for operation on %s: %s\n", p, p, rgcli.OSError(err))
				} else {
					fmt.Fprintf(s.errOut, "rg: %s: %s\n", p, rgcli.OSError(err))
				}
			}
			status = 2
			continue
		}
		prev := cleanup
		cleanup = func() { done(); prev() }
		targets = append(targets, t)
	}

	out := &countingWriter{w: s.out}
	bw := bufio.NewWriterSize(out, 64<<10)
	tty := isTerminal(s.out)
	host := ""
	if o.HyperlinkFormatActive() {
		host = p.hostname(ctx, o)
	}
	run := newRgRun(o, bw, tty, len(o.Paths) > 1 || (len(targets) == 1 && !targets[0].file), searchesMultiline(q), host)
	defer run.held.close()
	run.spans = &spanFinder{q: q}
	// rg maps the files with --mmap, never with --no-mmap, and by default
	// when it is given at most ten paths, all of them files.
	run.mapped = len(o.Paths) > 0 && len(o.Paths) <= 10 && len(targets) == len(o.Paths)
	for _, t := range targets {
		run.mapped = run.mapped && t.file && t.stream == nil
	}
	if o.Mmap != nil {
		run.mapped = *o.Mmap
	}
	// The engine sees one PATH argument at a time: it is told rg's choice
	// for the whole command line (a file named beside a directory, or
	// beside ten others, is read, and its NULs turned into line breaks).
	q.Mmap = search.MmapNever
	if run.mapped {
		q.Mmap = search.MmapAlways
		run.begun = map[string]bool{}
	}
	run.errs = fileErrors{w: s.errOut, silent: o.NoMessages, single: o.Sort != rgcli.SortNone || o.SortReverse || o.Threads == 1}
	if run.printsSpans() && o.Mode != rgcli.ModeFiles && !o.CRLF && !o.NullData {
		// (--crlf makes the engine's own spans rg's; --null-data's lines
		// are permuted bytes until printed.)
		cq := q
		cq.Root = "/"
		if nq, err := search.Normalize(cq); err == nil {
			run.crlf, _ = native.Compile(native.MatchOptionsFor(nq))
		}
	}
	run.reports = reports
	if o.Sort == rgcli.SortAccessed {
		// The search reads each file, which moves its access time: the
		// key is taken just before.
		run.atimes = &accessTimes{}
		for _, e := range chain.Engines {
			if n, ok := e.(*native.Engine); ok {
				n.BeforeRead = run.atimes.record
			}
		}
	}
	if !run.printsSpans() {
		for _, e := range chain.Engines {
			if n, ok := e.(search.SpansOptional); ok {
				n.SkipSpans() // e.g. no regexp run per printed line for its matches
			}
		}
	}
	run.flushEach = tty || o.LineBuffered
	if n := nativeEngine(chain); n != nil && (o.SearchZip || (o.Encoding != "" && o.Encoding != "auto")) {
		// A named file read through a decoder is looked at for a NUL
		// as the search reads it (see namedBinaryDecoded).
		if open, err := n.OpenAsSearched(q); err == nil {
			run.openSearched = open
		}
	}
	for i, t := range targets {
		t.index = i
		if ctx.Err() != nil {
			break
		}
		tq := q
		tq.Root, tq.Paths = t.root, t.paths
		tq.GlobBase, tq.GlobCwd = t.globBase()
		reports.setTarget(t)
		var res search.Result
		if t.stream != nil && needsListing(o) {
			res, err = run.streamListing(ctx, tq, t.stream, &rgSink{run: run, t: t})
		} else if t.stream != nil {
			res, err = searchStream(ctx, tq, t.stream, "stdin", run.sinkFor(t))
		} else if needsListing(o) {
			err = run.runListing(ctx, chain, q, t)
		} else {
			res, err = run.search(ctx, chain, tq, t)
		}
		if rerr := run.releaseInOrder("", true); err == nil {
			err = rerr // (--sort path: the PATH argument's files are all done)
		}
		reports.flush()
		run.addResult(res)
		if errors.Is(err, syscall.EPIPE) || errors.Is(err, errQuit) {
			break
		}
		var fe *native.FileErrors
		if errors.As(err, &fe) {
			// Files that failed on their own (rg: "FILE: PCRE2: error
			// matching: ..."): the others' results stand, exit 2.
			for _, e := range fe.Errs {
				var ml *native.MatchLimitError
				if errors.As(e, &ml) && ml.Path != "" {
					ml.Path = t.printedPath(ml.Path)
				}
				fmt.Fprintln(s.errOut, "rg:", e)
			}
			status, err = 2, nil
		}
		if err != nil {
			if ferr := bw.Flush(); ferr != nil && errors.Is(ferr, syscall.EPIPE) {
				return 0
			}
			if !errors.Is(err, context.Canceled) || ctx.Err() == nil {
				// (Cancelled by the caller, as by a signal: rg says nothing.)
				fmt.Fprintln(s.errOut, "rg:", describeSearchError(err, q, patterns))
			}
			return 2
		}
		if res.Partial {
			status = 2
		}
	}
	if run.errs.count > 0 {
		status = 2
	}
	run.cutUnbegunMapped(targets)
	if err := run.finish(time.Since(start)); err != nil && !errors.Is(err, syscall.EPIPE) {
		fmt.Fprintln(s.errOut, "rg:", err)
		return 2
	}
	if err := bw.Flush(); err != nil && !errors.Is(err, syscall.EPIPE) {
		fmt.Fprintln(s.errOut, "rg:", err)
		return 2
	}
	if o.Stats && o.Mode != rgcli.ModeJSON && o.Mode != rgcli.ModeFiles {
		printed := out.n
		if sb := run.cfg.StyleBytes; sb != nil {
			printed -= sb.Load() // rg counts no colour sequence as printed
		}
		if summaryOnly(o) {
			printed = 0 // rg's summary printer (-l, -c, -q) counts no bytes printed
		}
		run.printStats(s.out, printed, time.Since(start))
	}
	if len(o.Paths) == 0 && len(targets) == 1 && !targets[0].file && run.stats.FilesSearched == 0 && run.errs.files == 0 &&
		o.Mode != rgcli.ModeFiles && !run.matched && run.backend != "ripgrep" {
		// rg's note when its own directory walk searched nothing at all.
		// (The ripgrep engine does not count the files it searched.)
		if !o.NoMessages {
			fmt.Fprint(s.errOut, "rg: No files were searched, which means ripgrep probably applied a filter you didn't expect.\nRunning with --debug will show why files are being skipped.\n")
		}
		return 2
	}
	switch {
	case o.Quiet && run.matched:
		return 0
	case reports.failed.Load():
		return 2
	case status != 0:
		return status
	case run.matched:
		return 0
	}
	return 1
}

// printsStats reports output that shows the bytes searched or the binary
// files counted: --stats, rg's JSON summary and rgkit's JSON.
func printsStats(o *rgcli.Options) bool {
	return o.Stats || o.Mode == rgcli.ModeJSON || o.Format == "rgkit-json"
}

// summaryOnly reports the modes rg prints with its summary printer: a
// count or a path per file (or nothing, with -q), never lines.
func summaryOnly(o *rgcli.Options) bool {
	switch o.Mode {
	case rgcli.ModeFilesWithMatches, rgcli.ModeFilesWithoutMatch, rgcli.ModeCount, rgcli.ModeCountMatches:
		return true
	}
	return o.Quiet && o.Mode != rgcli.ModeJSON
}

// statsSearchWhole reports a --stats run in a mode that would otherwise stop
// a file at its first match or count lines only (-l, -c, -q): rg counts
// every match of every file for its statistics.
func statsSearchWhole(o *rgcli.Options) bool {
	return o.Stats && !needsListing(o) && summaryOnly(o) && o.Mode != rgcli.ModeCountMatches
}

// describeSearchError words an engine error for the user; q is the query
// and patterns are rg's patterns as given, which a parse error shows.
func describeSearchError(err error, q search.Query, patterns []string) string {
	var pe *native.PCRE2Error
	if errors.As(err, &pe) {
		return pe.Error()
	}
	var ml *native.MatchLimitError
	if errors.As(err, &ml) {
		return ml.Error()
	}
	var ipe *search.InvalidPatternError
	if errors.As(err, &ipe) && strings.HasPrefix(ipe.Reason, `pattern contains "\0"`) {
		// rg's own words for a pattern that needs a NUL byte.
		return "pattern contains \"\\0\" but it is impossible to match\n\n" +
			"Consider enabling text mode with the --text flag (or -a for short). Otherwise,\n" +
			"binary detection is enabled and matching a NUL byte is impossible."
	}
	if errors.As(err, &ipe) {
		if lit, ok := lineTerminatorLiteral(ipe); ok {
			// rg's own words for a pattern that needs a line terminator
			// outside multiline mode.
			return "the literal \"" + lit + "\" is not allowed in a regex\n\n" +
				"Consider enabling multiline mode with the --multiline flag (or -U for short).\n" +
				"When multiline mode is enabled, new line characters can be matched."
		}
		if msg, ok := rustParseError(q, patterns); ok {
			return msg
		}
		return "regex parse error:\n    " + ipe.Pattern + "\n" + "error: " + ipe.Error()
	}
	return err.Error()
}

// rustParseError is rg's message for patterns its regex parser refuses.
// rg joins them as (?:p1)|(?:p2)|... (one is (?:p1)), parses that, and
// marks the offending part of it; -F, -x and -w are applied after the
// parse, so they do not show. ok is false for a refusal of rgkit's own.
func rustParseError(q search.Query, patterns []string) (string, bool) {
	if q.Fixed || q.PCRE2 || len(patterns) == 0 {
		return "", false
	}
	// The parser wraps what it reads in (?:...), so this reads as rg's.
	read := strings.Join(patterns, ")|(?:")
	_, err := rgregex.Parse(read, rgregex.Options{CaseInsensitive: q.Case == search.CaseInsensitive,
		DotNL: q.Multiline, CRLF: q.CRLF, NoUnicode: q.NoUnicode})
	var pe *rgregex.Error
	if !errors.As(err, &pe) || (pe.Kind != rgregex.KindSyntax && pe.Kind != rgregex.KindLookAround && pe.Kind != rgregex.KindBackreference) {
		return "", false
	}
	msg := rgregex.ParseErrorMessage(pe.Wrapped(), pe.Spans, pe.Msg)
	if pe.Kind != rgregex.KindSyntax {
		msg += pcre2Suggestion
	}
	return msg, true
}

// pcre2Suggestion is what rg adds to a look-around or backreference error
// of its default engine (not under --engine auto, which tries PCRE2 itself).
const pcre2Suggestion = "\n\nConsider enabling PCRE2 with the --pcre2 flag, which can handle backreferences\nand look-around."

// lineTerminatorLiteral is how rg names the line terminator byte a
// refused pattern needs (search.Normalize refuses a '\n' outside
// multiline mode, a '\r' with --crlf, a NUL with --null-data): `\n`,
// `\r` or `\0`.
func lineTerminatorLiteral(e *search.InvalidPatternError) (string, bool) {
	switch {
	case strings.HasPrefix(e.Reason, "the pattern contains a line break"):
		return `\n`, true
	case strings.HasPrefix(e.Reason, "the pattern contains a carriage return"):
		return `\r`, true
	case strings.HasPrefix(e.Reason, `the literal "\0" is not allowed`): // --null-data
		return `\0`, true
	}
	return "", false
}

// pathTarget makes a target of a PATH argument as the user wrote it. A
// FIFO, socket or character device (`<(cmd)`, /dev/stdin on a pipe,
// /dev/null) is read as a stream; a link to a file is searched where it
// leads (rg follows links named on its command line), printed as written.
// done releases what the target holds.
func pathTarget(p string) (t target, done func(), err error) {
	fi, err := os.Stat(p)
	if err != nil {
		return target{}, nil, err
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return target{}, nil, err
	}
	switch {
	case fi.IsDir():
		return target{root: abs, display: p}, func() {}, nil
	case fi.Mode().IsRegular():
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
		return target{root: filepath.Dir(abs), paths: []string{filepath.Base(abs)}, display: p, file: true}, func() {}, nil
	}
	f, err := os.Open(p)
	if err != nil {
		return target{}, nil, err
	}
	return target{display: p, file: true, stream: &streamSource{r: f}}, func() { f.Close() }, nil
}

// readPatterns gathers -e, the positional pattern and -f files' lines
// ("-" reads stdin), in rg's order.
func readPatterns(o *rgcli.Options, in io.Reader) ([]string, error) {
	ps := append([]string(nil), o.Patterns...)
	for _, f := range o.PatternFiles {
		var data []byte
		var err error
		if f == "-" && in != nil {
			data, err = io.ReadAll(in)
		} else {
			data, err = os.ReadFile(f)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %s", f, rgcli.OSError(err))
		}
		text := strings.TrimSuffix(string(data), "\n")
		if text == "" && len(data) == 0 {
			continue
		}
		for _, line := range strings.Split(text, "\n") {
			ps = append(ps, strings.TrimSuffix(line, "\r"))
		}
	}
	return ps, nil
}

// baseQuery maps the options to a search.Query (paths come per target).
func baseQuery(o *rgcli.Options, patterns []string) (search.Query, error) {
	var q search.Query
	if o.PCRE2 {
		q.Pattern, q.PCRE2 = pcreQueryPattern(o, patterns), true
	}
	if !o.PCRE2 {
		q.Pattern = defaultPattern(o, patterns)
	}
	q.Pattern = withoutDotall(o, q.Pattern)
	q.Case = caseMode(o.Case)
	q.Word, q.Multiline = o.Word, o.Multiline
	if o.PCRE2 && o.Case == rgcli.CaseSmart {
		q.Case = search.CaseSensitive
		if pcreCaseless(o) {
			q.Case = search.CaseInsensitive
		}
	}
	readingQuery(&q, o)
	q.Before, q.After = o.ContextLines()
	if o.MaxCount != nil {
		q.MaxCountPerFile = *o.MaxCount
	}
	if err := selectFiles(&q, o); err != nil {
		return q, err
	}
	q.FollowSymlinks = o.Follow
	if o.MaxFilesize != nil {
		q.MaxFileSize = *o.MaxFilesize
	}
	switch o.Mode {
	case rgcli.ModeFilesWithMatches:
		q.Mode = search.ModeFilesWithMatches
	case rgcli.ModeCount:
		q.Mode = search.ModeCount
	}
	if o.Quiet && o.Mode != rgcli.ModeJSON {
		q.Mode = search.ModeFilesWithMatches
	}
	if statsSearchWhole(o) {
		// rg reads every file to the end to count for --stats, even where
		// -l or -q could stop at the first match: search in content mode
		// and let the sink count (it prints only the summary).
		q.Mode = search.ModeContent
		q.Before, q.After = 0, countedAfterContext(o)
	}
	q.Sort = search.SortNone // rgRun orders files itself for --sort
	return q, nil
}

// typeError rewords the library's unknown-type error as rg's.
func typeError(err error) error {
	msg := err.Error()
	if i := strings.Index(msg, "unrecognized file type: "); i >= 0 {
		name := strings.TrimPrefix(msg[i:], "unrecognized file type: ")
		if j := strings.Index(name, " (see"); j >= 0 {
			name = name[:j]
		}
		return fmt.Errorf("unrecognized file type: %s", strings.Trim(name, `"`))
	}
	return err
}

// chain is the engines --backend names (Program.Engines), without the
// chain's output cap (the command line streams).
func (p *Program) chain(o *rgcli.Options) (*search.Chain, error) {
	backend := o.Backend
	if backend == "" {
		backend = "auto"
	}
	engines := p.Engines
	if engines == nil {
		engines = NativeOnly
	}
	c, err := engines(backend)
	if err != nil {
		return nil, fmt.Errorf("--backend: %w", err)
	}
	c.MaxOutputBytes = -1
	if o.Threads > 0 {
		if p.Threads != nil {
			p.Threads(o.Threads)
		}
		if n := nativeEngine(c); n != nil {
			n.Workers = o.Threads
		}
	}
	if !printsStats(o) {
		for _, e := range c.Engines {
			if n, ok := e.(search.ByteStatsOptional); ok {
				n.SkipByteStats() // e.g. no NUL scan of a file without a match
			}
		}
	}
	return c, nil
}

// countingWriter counts bytes written (rg --stats' "bytes printed").
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// defaultPattern is the one pattern of rg's default engine built from
// patterns: each quoted with -F and wrapped for -x as ^(?:...)$, then
// joined as (?:p1)|(?:p2) when there are more.
func defaultPattern(o *rgcli.Options, patterns []string) string {
	ps := make([]string, len(patterns))
	for i, p := range patterns {
		if o.Fixed {
			p = regexp.QuoteMeta(p)
		}
		if o.LineRegexp {
			p = "^(?:" + p + ")$"
		}
		ps[i] = p
	}
	if len(ps) == 1 {
		return ps[0]
	}
	return "(?:" + strings.Join(ps, ")|(?:") + ")"
}

// caseMode is rg's case option as the library's.
func caseMode(c rgcli.Case) search.CaseMode {
	return map[rgcli.Case]search.CaseMode{rgcli.CaseSensitive: search.CaseSensitive, rgcli.CaseInsensitive: search.CaseInsensitive, rgcli.CaseSmart: search.CaseSmart}[c]
}

// pcreQueryPattern is the one pattern rg -P builds from patterns: each
// wrapped in (?:...) (quoted first with -F) and joined with '|', then
// wrapped for -x as (?m:^)(?:...)(?m:$). -w is wrapped by the matcher.
func pcreQueryPattern(o *rgcli.Options, patterns []string) string {
	ps := make([]string, len(patterns))
	for i, p := range patterns {
		if o.Fixed {
			p = native.QuotePCRE2(p)
		}
		ps[i] = "(?:" + p + ")"
	}
	p := strings.Join(ps, "|")
	if len(patterns) == 0 {
		p = `[^\S\s]`
	}
	if o.LineRegexp {
		p = "(?m:^)(?:" + p + ")(?m:$)"
	}
	return p
}

// withoutDotall keeps '.' off '\n' under -U without --multiline-dotall
// (the library's multiline mode has it on).
func withoutDotall(o *rgcli.Options, pattern string) string {
	if o.Multiline && !o.MultilineDotall {
		return "(?-s:" + pattern + ")"
	}
	return pattern
}

// pcreCaseless applies -i and rg -P's smart-case rule (-S): no character
// that is not escaped is upper case.
func pcreCaseless(o *rgcli.Options) bool {
	switch o.Case {
	case rgcli.CaseInsensitive:
		return true
	case rgcli.CaseSmart:
		ps := make([]string, len(o.Patterns))
		for i, p := range o.Patterns {
			if o.Fixed {
				p = native.QuotePCRE2(p)
			}
			ps[i] = p
		}
		return search.PCRE2SmartCase(strings.Join(ps, "|")) == search.CaseInsensitive
	}
	return false
}

// autoEngine is rg's --engine auto: the default engine's pattern q, or,
// when that engine rejects it, the same patterns for PCRE2; when both
// reject it, both reasons.
func autoEngine(o *rgcli.Options, patterns []string, q search.Query) (search.Query, error) {
	_, rustErr := search.Normalize(search.Query{Pattern: q.Pattern, Fixed: q.Fixed, Case: q.Case, Multiline: q.Multiline, Root: "/"})
	var ipe *search.InvalidPatternError
	if !errors.As(rustErr, &ipe) {
		return q, nil
	}
	po := *o
	po.PCRE2 = true
	pq, err := baseQuery(&po, patterns)
	if err != nil {
		return q, err
	}
	if _, pcreErr := native.Compile(native.MatchOptionsFor(pq)); pcreErr != nil {
		divider := strings.Repeat("~", 79)
		return q, fmt.Errorf("regex could not be compiled with either the default regex engine or with PCRE2.\n\ndefault regex engine error:\n%s\n%s\n%s\n\nPCRE2 regex engine error:\n%s",
			divider, strings.TrimSuffix(describeSearchError(rustErr, q, patterns), pcre2Suggestion), divider, describeSearchError(pcreErr, pq, patterns))
	}
	*o = po
	return pq, nil
}

// searchesMultiline reports whether q's search runs over whole texts (rg
// -U with a pattern that may match '\n'), which changes how rg counts the
// matches a --max-columns-preview line cuts off.
func searchesMultiline(q search.Query) bool {
	if !q.Multiline {
		return false
	}
	cq := q
	cq.Root = "/"
	nq, err := search.Normalize(cq)
	if err != nil {
		return true
	}
	m, err := native.Compile(native.MatchOptionsFor(nq))
	return err != nil || m.Multiline()
}
