package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/rgkit/rgkit/rgfetch"
	"github.com/rgkit/rgkit/search"
	"github.com/rgkit/rgkit/search/engines"
	"github.com/rgkit/rgkit/search/printer"
)

// grepOptions are the flags of `rgkit grep`, bound before they are turned
// into a search.Query.
type grepOptions struct {
	patterns                        []string // -e, repeatable
	ignoreCase, smartCase, caseSens bool
	fixed, word, multiline          bool
	after, before, context          int
	globs, types                    []string
	filesWithMatches, count         bool
	maxCount                        int
	hidden, noIgnore, follow        bool
	maxFilesize                     string
	json, column, stats             bool
	withFilename, noFilename        bool
	maxColumns                      int
	sort, backend, color            string
	headLimit, offset               int
	timeout                         time.Duration
}

func newGrepCmd(s streams) *cobra.Command {
	var o grepOptions
	cmd := &cobra.Command{
		Use:   "grep [flags] PATTERN [PATH...]",
		Short: "Search files for a regular expression (rg's flags, any engine, the same answer)",
		Long: `Search files for a regular expression in rg's own dialect (Unicode-aware
\w \d \s \b, as rg 15 reads it), like rg --no-heading -n.

The search runs through the first engine that can honour it exactly:
ripgrep, git grep, system grep, then the pure-Go native engine. Output
paths are relative to the working directory, without "./".

Exit status: 0 a match was found, 1 no match, 2 an error (an invalid
pattern, an engine failure, or a search cut short by --timeout).`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runGrep(cmd.Context(), s, cmd, o, args)
		},
	}
	f := cmd.Flags()
	f.StringArrayVarP(&o.patterns, "regexp", "e", nil, "a pattern (repeatable; then every argument is a PATH)")
	f.BoolVarP(&o.ignoreCase, "ignore-case", "i", false, "case-insensitive search")
	f.BoolVarP(&o.smartCase, "smart-case", "S", false, "case-insensitive unless the pattern has an uppercase letter")
	f.BoolVarP(&o.caseSens, "case-sensitive", "s", false, "case-sensitive search (the default; beats -i and -S)")
	f.BoolVarP(&o.fixed, "fixed-strings", "F", false, "treat the pattern as a literal string")
	f.BoolVarP(&o.word, "word-regexp", "w", false, "match only whole words")
	f.BoolVarP(&o.multiline, "multiline", "U", false, "let matches span lines ('.' matches newlines too)")
	f.IntVarP(&o.after, "after-context", "A", 0, "show NUM lines after each match")
	f.IntVarP(&o.before, "before-context", "B", 0, "show NUM lines before each match")
	f.IntVarP(&o.context, "context", "C", 0, "show NUM lines before and after each match")
	f.StringArrayVarP(&o.globs, "glob", "g", nil, "include files matching GLOB, exclude with !GLOB (repeatable)")
	f.StringArrayVarP(&o.types, "type", "t", nil, "only search files of TYPE, rg's type names (repeatable)")
	f.BoolVarP(&o.filesWithMatches, "files-with-matches", "l", false, "print only the paths of files with a match")
	f.BoolVarP(&o.count, "count", "c", false, "print the number of matching lines per file")
	f.IntVarP(&o.maxCount, "max-count", "m", 0, "at most NUM matching lines per file")
	f.BoolVar(&o.hidden, "hidden", false, "search hidden files and directories")
	f.BoolVar(&o.noIgnore, "no-ignore", false, "do not apply .gitignore, .ignore and .rgignore")
	f.BoolVarP(&o.follow, "follow", "L", false, "follow symbolic links")
	f.StringVar(&o.maxFilesize, "max-filesize", "", "skip files larger than SIZE (e.g. 512K, 10M)")
	f.BoolVar(&o.json, "json", false, "print JSON Lines (match, context, file, count, then a summary)")
	f.BoolVar(&o.column, "column", false, "print the 1-based byte column of the first match")
	f.BoolVarP(&o.withFilename, "with-filename", "H", false, "print the path even when searching one file")
	f.BoolVarP(&o.noFilename, "no-filename", "I", false, "never print the path")
	f.IntVarP(&o.maxColumns, "max-columns", "M", 0, "cut lines after NUM bytes, with a [... N more bytes] marker")
	f.StringVar(&o.sort, "sort", "path", "result order: path, modified (newest first) or none (stream)")
	f.StringVar(&o.backend, "backend", "auto", "engine: auto, fastest, ripgrep, gitgrep, grep or native")
	f.IntVar(&o.headLimit, "head-limit", 0, "at most NUM entries (matching lines, or files with -l/-c); 0 = all")
	f.IntVar(&o.offset, "offset", 0, "skip NUM entries first (paging)")
	f.DurationVar(&o.timeout, "timeout", 0, "stop after this long and print what was found (e.g. 20s)")
	f.BoolVar(&o.stats, "stats", false, "print the engine that ran, why others were skipped, and counts to stderr")
	f.StringVar(&o.color, "color", "auto", "color: auto (a terminal without NO_COLOR), always or never")
	f.BoolP("line-number", "n", true, "accepted for rg compatibility; line numbers are always printed")
	f.Bool("no-heading", true, "accepted for rg compatibility; output never has headings")
	return cmd
}

// runGrep parses o into a Query, picks the engines, prints and maps the
// outcome to rg's exit status.
func runGrep(ctx context.Context, s streams, cmd *cobra.Command, o grepOptions, args []string) error {
	q, err := o.query(cmd, args)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	cwd, err := os.Getwd()
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	loc, err := resolvePaths(cwd, q.Paths)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	q.Root, q.Paths = loc.root, loc.paths
	chain, err := o.chain()
	if err != nil {
		return &exitError{code: 2, err: err}
	}

	w := bufio.NewWriter(s.out)
	isTerm := isTerminal(s.out)
	popts := printer.Options{
		Color:      o.useColor(s.out, isTerm),
		Column:     o.column,
		NoFilename: o.noFilename || (loc.singleFile && !o.withFilename),
		Context:    q.Before > 0 || q.After > 0,
		PathPrefix: loc.prefix,
	}
	var sink search.Sink
	var js *printer.JSON
	switch {
	case o.json:
		js = printer.NewJSON(w, q.Mode)
		sink = js
	case q.Mode == search.ModeFilesWithMatches:
		sink = printer.NewFiles(w, popts)
	case q.Mode == search.ModeCount:
		sink = printer.NewCount(w, popts)
	default:
		sink = printer.NewText(w, popts)
	}

	if isTerm || q.Sort == search.SortNone {
		sink = flushEachFile{Sink: sink, w: w} // results show up as they are found
	}
	res, err := chain.Search(ctx, q, sink)
	if js != nil {
		_ = js.Summary(res, err)
	}
	if ferr := w.Flush(); ferr != nil && err == nil {
		err = ferr
	}
	if o.stats {
		printStats(s.errOut, res)
	}
	return grepOutcome(s.errOut, q, res, err, o.json)
}

// grepOutcome maps a search's outcome to rg's exit status and notes on
// stderr: 0 match, 1 none, 2 error; a search cut short by a timeout is an
// error (exit 2) like rg's partial searches, though its results were printed.
func grepOutcome(errOut io.Writer, q search.Query, res search.Result, err error, json bool) error {
	if errors.Is(err, syscall.EPIPE) {
		return nil // the reader went away (| head): rg exits quietly too
	}
	var ipe *search.InvalidPatternError
	if errors.As(err, &ipe) {
		return &exitError{code: 2, err: fmt.Errorf("%w%s", err, caret(ipe))}
	}
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	for _, w := range res.Warnings {
		fmt.Fprintln(errOut, "rgkit: warning:", w)
	}
	if !json {
		switch res.Truncated {
		case search.TruncatedLimit:
			fmt.Fprintf(errOut, "rgkit: stopped at --head-limit %d; use --offset %d for more\n", q.Limit, q.Offset+q.Limit)
		case search.TruncatedBytes:
			fmt.Fprintln(errOut, "rgkit: output cap reached; results are incomplete (narrow the search or use --head-limit)")
		}
	}
	if res.Partial {
		return &exitError{code: 2}
	}
	if res.Stats.MatchedLines == 0 && res.Stats.FilesMatched == 0 {
		return &exitError{code: 1}
	}
	return nil
}

// caret points at the offending byte of an invalid pattern, under the
// pattern itself, so the position is visible without counting.
func caret(e *search.InvalidPatternError) string {
	if e.Offset < 0 || strings.ContainsAny(e.Pattern, "\n\t") {
		return ""
	}
	return "\n    " + e.Pattern + "\n    " + strings.Repeat(" ", len([]rune(e.Pattern[:min(e.Offset, len(e.Pattern))]))) + "^"
}

// printStats writes --stats: which engine ran, why the others before it did
// not, and what the search counted.
func printStats(w io.Writer, res search.Result) {
	info := res.Info
	if res.Backend == "" {
		res.Backend = "none ran"
	}
	fmt.Fprintf(w, "backend: %s", res.Backend)
	if info.Version != "" {
		fmt.Fprintf(w, " %s", info.Version)
	}
	if info.Flavor != "" {
		fmt.Fprintf(w, " (%s)", info.Flavor)
	}
	if info.Path != "" {
		fmt.Fprintf(w, " at %s", info.Path)
	}
	fmt.Fprintln(w)
	for _, sk := range res.Skipped {
		fmt.Fprintf(w, "skipped: %s: %v\n", sk.Backend, sk.Reason)
	}
	st := res.Stats
	fmt.Fprintf(w, "files searched: %d, with matches: %d, matched lines: %d, bytes searched: %d\n",
		st.FilesSearched, st.FilesMatched, st.MatchedLines, st.BytesSearched)
	fmt.Fprintf(w, "skipped files: binary %d, unreadable %d, too large %d\n", st.Binary, st.Unreadable, st.TooLarge)
	trunc := map[search.Truncation]string{search.NotTruncated: "no", search.TruncatedLimit: "limit", search.TruncatedBytes: "bytes"}
	fmt.Fprintf(w, "truncated: %s, partial: %v, elapsed: %s\n", trunc[res.Truncated], res.Partial, st.Elapsed.Round(time.Microsecond))
}

// query builds the search.Query from the flags and arguments; Paths are
// still as the user wrote them.
func (o grepOptions) query(cmd *cobra.Command, args []string) (search.Query, error) {
	var q search.Query
	patterns := o.patterns
	if len(patterns) == 0 {
		if len(args) == 0 {
			return q, errors.New("grep: a PATTERN is required (rgkit grep [flags] PATTERN [PATH...])")
		}
		patterns, args = args[:1], args[1:]
	}
	q.Pattern, q.Fixed = joinPatterns(patterns, o.fixed)
	q.Paths = args
	switch {
	case o.caseSens:
		q.Case = search.CaseSensitive
	case o.ignoreCase:
		q.Case = search.CaseInsensitive
	case o.smartCase:
		q.Case = search.CaseSmart
	}
	q.Word, q.Multiline = o.word, o.multiline
	var before, after *int
	if cmd.Flags().Changed("before-context") {
		before = &o.before
	}
	if cmd.Flags().Changed("after-context") {
		after = &o.after
	}
	q.Before, q.After = search.ContextLines(before, after, o.context)
	q.Globs, q.Types = o.globs, o.types
	switch {
	case o.filesWithMatches && o.count:
		return q, errors.New("grep: -l and -c cannot be combined")
	case o.filesWithMatches:
		q.Mode = search.ModeFilesWithMatches
	case o.count:
		q.Mode = search.ModeCount
	}
	q.MaxCountPerFile = o.maxCount
	q.Hidden, q.NoIgnore, q.FollowSymlinks = o.hidden, o.noIgnore, o.follow
	if o.maxFilesize != "" {
		n, err := parseSize(o.maxFilesize)
		if err != nil {
			return q, err
		}
		q.MaxFileSize = n
	}
	q.MaxColumns = o.maxColumns
	q.Limit, q.Offset = o.headLimit, o.offset
	q.Timeout = o.timeout
	switch o.sort {
	case "path":
		q.Sort = search.SortPath
	case "modified":
		q.Sort = search.SortModified
	case "none":
		q.Sort = search.SortNone
	default:
		return q, fmt.Errorf("grep: --sort %q: want path, modified or none", o.sort)
	}
	if o.timeout < 0 {
		return q, errors.New("grep: --timeout must not be negative")
	}
	return q, nil
}

// joinPatterns makes one pattern of several -e patterns, matching any of
// them like rg does. Literals are quoted, so the result is a regexp.
func joinPatterns(ps []string, fixed bool) (string, bool) {
	if len(ps) == 1 {
		return ps[0], fixed
	}
	parts := make([]string, len(ps))
	for i, p := range ps {
		if fixed {
			p = regexp.QuoteMeta(p)
		}
		parts[i] = "(?:" + p + ")"
	}
	return strings.Join(parts, "|"), false
}

// parseSize reads rg's --max-filesize form: a number with an optional K, M
// or G suffix (powers of 1024).
func parseSize(s string) (int64, error) {
	mult := int64(1)
	num := strings.TrimSpace(s)
	if num == "" {
		return 0, fmt.Errorf("grep: --max-filesize %q: want a size like 512K, 10M or 1G", s)
	}
	switch strings.ToUpper(num[len(num)-1:]) {
	case "K":
		mult, num = 1<<10, num[:len(num)-1]
	case "M":
		mult, num = 1<<20, num[:len(num)-1]
	case "G":
		mult, num = 1<<30, num[:len(num)-1]
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("grep: --max-filesize %q: want a size like 512K, 10M or 1G", s)
	}
	return n * mult, nil
}

// chain returns the engines --backend asks for: the default fallback order,
// the fastest policy, or exactly one engine (which must be able to run the
// query, else exit 2 with its reason).
func (o grepOptions) chain() (*search.Chain, error) {
	opts := engines.Options{Locate: locateRg()}
	switch o.backend {
	case "auto", "":
		return engines.Default(opts), nil
	case "fastest":
		opts.Policy = search.PolicyFastest
		return engines.Default(opts), nil
	}
	all := engines.Default(opts)
	b, err := all.ByName(o.backend)
	if err != nil {
		return nil, fmt.Errorf("grep: --backend: %w", err)
	}
	return &search.Chain{Engines: []search.Engine{b}, MaxOutputBytes: all.MaxOutputBytes}, nil
}

// useColor reports whether output gets ANSI colors: --color always, or auto
// on a terminal when NO_COLOR is unset and TERM is not "dumb".
func (o grepOptions) useColor(out io.Writer, isTerm bool) bool {
	switch o.color {
	case "always":
		return true
	case "never":
		return false
	}
	return isTerm && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb"
}

// isTerminal reports whether out is a terminal.
func isTerminal(out io.Writer) bool {
	f, ok := out.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// flushEachFile flushes the buffered output after every file, so a
// streaming search (--sort none) or a person at a terminal sees results as
// they are found rather than when the buffer fills.
type flushEachFile struct {
	search.Sink
	w *bufio.Writer
}

func (s flushEachFile) End(sum search.FileSummary) error {
	if err := s.Sink.End(sum); err != nil {
		return err
	}
	return s.w.Flush()
}

// searchLocation is where a search runs and how its paths are printed.
type searchLocation struct {
	root       string   // Query.Root
	paths      []string // Query.Paths, relative to root
	prefix     string   // put before every printed path
	singleFile bool     // exactly one PATH, a file: rg prints no path then
}

// resolvePaths decides Root and the printed path form from the PATH
// arguments. Inside the working directory (the usual case) Root is the
// working directory and paths print relative to it without "./"
// (`rgkit grep x .` prints "a.go" where rg prints "./a.go"). PATHs outside
// it get Root = their deepest common directory, and a prefix so each path
// prints as rg would: "../lib/a.go" for a relative PATH, absolute for an
// absolute one.
func resolvePaths(cwd string, args []string) (searchLocation, error) {
	loc := searchLocation{root: cwd}
	if len(args) == 0 {
		return loc, nil
	}
	abs := make([]string, len(args))
	allAbs, inside := true, true
	for i, a := range args {
		if a == "" {
			return loc, errors.New("grep: empty PATH")
		}
		if !filepath.IsAbs(a) {
			allAbs = false
			a = filepath.Join(cwd, a)
		}
		abs[i] = filepath.Clean(a)
		if _, err := os.Stat(abs[i]); err != nil {
			return loc, fmt.Errorf("grep: %s: %w", args[i], errors.Unwrap(err))
		}
		if rel, err := filepath.Rel(cwd, abs[i]); err != nil || !(rel == "." || filepath.IsLocal(rel)) {
			inside = false
		}
	}
	if len(args) == 1 {
		if fi, err := os.Stat(abs[0]); err == nil && !fi.IsDir() {
			loc.singleFile = true
		}
	}
	if !inside {
		loc.root = commonDir(abs)
		if allAbs {
			loc.prefix = loc.root
		} else if rel, err := filepath.Rel(cwd, loc.root); err == nil {
			loc.prefix = rel
		}
		loc.prefix = filepath.ToSlash(loc.prefix)
		if !strings.HasSuffix(loc.prefix, "/") {
			loc.prefix += "/"
		}
	}
	for _, a := range abs {
		rel, err := filepath.Rel(loc.root, a)
		if err != nil {
			return loc, err
		}
		loc.paths = append(loc.paths, filepath.ToSlash(rel))
	}
	return loc, nil
}

// commonDir is the deepest directory containing every path (a file's own
// directory when it is alone).
func commonDir(paths []string) string {
	dir := paths[0]
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		dir = filepath.Dir(dir)
	}
	for _, p := range paths[1:] {
		for {
			rel, err := filepath.Rel(dir, p)
			if err == nil && (rel == "." || filepath.IsLocal(rel)) {
				break
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	return dir
}

// locateRg finds rg the way `rgkit fetch` would, without downloading: the
// RGKIT_RG_PATH override, a system rg (never one inside the working
// directory), then the managed copy in ~/.rgkit/bin. A search never
// reaches the network; without rg the Chain moves on to the next engine.
func locateRg() func(ctx context.Context) (string, error) {
	return (&rgfetch.Resolver{NoDownload: true}).Locate
}
