package rg

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/internal/rgcli"
	"github.com/rgkit/rgkit/search"
	"github.com/rgkit/rgkit/search/printer"
)

// errQuit ends the search at the first match (rg -q).
var errQuit = errors.New("quiet: a match was found")

// rgRun prints one command line's results the way rg does, across all of
// its targets.
type rgRun struct {
	o         *rgcli.Options
	w         *bufio.Writer
	flushEach bool
	lastFlush time.Time // when finishFile last wrote the buffer out (see pipeFlushGap)
	cfg       printer.StandardConfig
	std       *printer.Standard
	js        *printer.RgJSON
	legacy    *printer.JSON
	replacer  expander
	// lineReader reads the files printed line by line (-v, --passthru),
	// one at a time, reusing its buffer.
	lineReader *bufio.Reader
	countBuf   []byte // countReaderLines' buffer (-v -c and the like)
	// openSearched opens a listed file as the search read it (see
	// openListed); nil: as it is.
	openSearched func(ctx context.Context, abs, rel string) (io.ReadCloser, bool, error)
	matched      bool
	stats        search.Stats
	backend      string // the engine that ran last (--format rgkit-json's summary)
	matches      int64  // submatches (--stats)
	lines        int64  // matched lines (--stats)
	files        int64  // files with a match (--stats)
	sorted       []sortedFile
	inOrder      pathOrder       // --sort path's files, printed as the walk passes them
	held         heldOutput      // the sorted files' output (memory, then a temporary file)
	atimes       *accessTimes    // --sort accessed: the keys from before the search read the files
	errs         fileErrors      // files that could not be read
	spans        *spanFinder     // finds the matches of a line past those the library stored
	mapped       bool            // rg maps the named files (at most ten, all files): see namedBinary
	bytesCut     int64           // bytes the engines searched past where -m stopped rg (see rgSink.stopAt)
	begun        map[string]bool // the named files that had a line to print, when mapped (see cutUnbegunMapped)
	begunMu      sync.Mutex      // begun is written by the workers
	// crlf finds a CRLF line's spans with its '\r', as rg does; nil when
	// no spans are printed.
	crlf    *native.Matcher
	reports *fileReports // files that failed (rg -z, --pre)
	// multiLine says the search runs over whole texts (rg -U with a
	// pattern that may match '\n'): match lines are printed as rg's blocks.
	multiLine bool
	// outMu orders the files printed on the search's workers (rgSink.own)
	// into the output, and guards what they add to the run.
	outMu sync.Mutex
	// ownFree keeps the sinks of files done for the next ones (ownSink):
	// a list, not a sync.Pool, which each collection empties, so that a
	// search printing much (--json) allocated a buffer per file and so
	// collected more often.
	ownFree      []*rgSink
	ownFreeBytes int // the capacity of their buffers
	ownFreeMu    sync.Mutex
}

// sortedFile is one file's output held for --sort / --sortr.
type sortedFile struct {
	arg  int    // the PATH argument it came from: --sort path sorts within each
	path string // as printed
	rel  string // as the engine named it (pathOrder's key)
	abs  string
	// chunks, then out: the file's output (see rgSink.chunks).
	chunks []heldBytes
	out    heldBytes
	// printed: the file printed a line, not only a binary file's note
	// (only then does rg put a separator before it).
	printed bool
}

// printsSpans reports whether the output shows where a line's matches are
// or how many it holds: colour, columns, -o, -r, a long line's match count,
// JSON, --stats, --count-matches. Without them a match line is printed
// whole and its submatches need not be found.
func (r *rgRun) printsSpans() bool {
	o := r.o
	return r.cfg.Color || r.cfg.Column || r.cfg.OnlyMatching || r.cfg.Vimgrep || r.cfg.MaxColumns > 0 ||
		o.Replace != nil || printsStats(o) || o.Mode == rgcli.ModeJSON || o.Mode == rgcli.ModeCountMatches ||
		r.legacy != nil || r.js != nil
}

// newRgRun prepares the printing of o's results; multi says more than one
// file may be printed (file names by default), multiLine that the search
// runs over whole texts (rg -U with a pattern that may match '\n').
func newRgRun(o *rgcli.Options, w *bufio.Writer, tty, multi, multiLine bool, host string) *rgRun {
	r := &rgRun{o: o, w: w, multiLine: multiLine}
	color := false
	switch o.Color {
	case "always", "ansi":
		color = true
	case "auto":
		_, noColor := os.LookupEnv("NO_COLOR") // set at all, even empty, as rg reads it
		color = tty && !noColor && os.Getenv("TERM") != "dumb"
	}
	heading := tty
	if o.Heading != nil {
		heading = *o.Heading
	}
	lineNumber := tty || o.Column || o.Vimgrep
	if o.LineNumber != nil {
		lineNumber = *o.LineNumber
	}
	withFilename := multi || o.Vimgrep
	if o.WithFilename != nil {
		withFilename = *o.WithFilename
	}
	sep := []byte("--")
	if o.ContextSeparator != nil {
		sep = []byte(*o.ContextSeparator)
	}
	if o.NoContextSeparator {
		sep = nil
	}
	before, after := o.ContextLines()
	r.cfg = printer.StandardConfig{
		Heading: heading && !o.Vimgrep, WithFilename: withFilename, LineNumber: lineNumber,
		Column: o.Column || (o.Vimgrep && !o.NoColumn), ByteOffset: o.ByteOffset, OnlyMatching: o.OnlyMatching,
		Vimgrep: o.Vimgrep, Null: o.Null, Trim: o.Trim,
		MaxColumns: o.MaxColumns, MaxColumnsPreview: o.MaxColumnsPreview, Multiline: multiLine, Stats: o.Stats, Invert: o.Invert, Replacing: o.Replace != nil,
		ContextSeparator: sep, Context: before > 0 || after > 0,
		FieldMatchSeparator: o.FieldMatchSeparator, FieldContextSeparator: o.FieldContextSeparator,
		Color: color,
	}
	if o.Stats && color {
		r.cfg.StyleBytes = new(atomic.Int64)
	}
	if o.Passthru {
		r.cfg.Context = false
	}
	switch {
	case o.Mode == rgcli.ModeFiles:
		// rg --files ends each path with '\n' (a NUL with --null) whatever
		// --null-data and --crlf say of lines.
	case o.NullData:
		r.cfg.Terminator = []byte{0} // rg --null-data ends its own lines with NUL
	case o.CRLF:
		r.cfg.Terminator = []byte("\r\n") // rg --crlf ends its own lines so
	}
	if color {
		p := o.Palette()
		r.cfg.Styles = printer.Styles{Path: p.Path.Escape(), Line: p.Line.Escape(), Column: p.Column.Escape(), Match: p.Match.Escape()}
		if p.Match.IsZero() {
			// rg prints matches plainly then (other elements still get
			// their reset sequences).
			r.cfg.Styles.Match = ""
		}
	}
	if color && o.HyperlinkFormatActive() && (o.PathSeparator == "" || o.PathSeparator == "/") {
		// rg prints hyperlinks only where it prints colour, and not for
		// paths whose separators --path-separator changed.
		r.cfg.Hyperlink, r.cfg.HyperlinkLines = hyperlinker(o, host)
	}
	if o.Replace != nil {
		r.replacer = replacerFor(o)
	}
	switch {
	case o.Format == "rgkit-json":
		r.legacy = printer.NewJSON(w, map[rgcli.Mode]search.OutputMode{rgcli.ModeFilesWithMatches: search.ModeFilesWithMatches, rgcli.ModeCount: search.ModeCount}[o.Mode])
	case o.Mode == rgcli.ModeJSON:
		r.js = printer.NewRgJSON(w)
		r.js.NoLineNumber = o.LineNumber != nil && !*o.LineNumber // rg --json -N
	default:
		r.std = printer.NewStandard(w, r.cfg)
	}
	return r
}

// expander expands -r's template for the match text[start:end] of a line.
type expander func(dst []byte, tmpl string, text []byte, start, end int) []byte

// replacerFor compiles the pattern the way the library matches it, for
// expanding -r's $1 / ${name} against each match.
func replacerFor(o *rgcli.Options) expander {
	if o.PCRE2 {
		x, err := native.NewPCRE2Expander(native.MatchOptions{Pattern: withoutDotall(o, pcreQueryPattern(o, o.Patterns)),
			CaseInsensitive: pcreCaseless(o), Word: o.Word, Multiline: o.Multiline, CRLF: o.CRLF, NoUnicode: o.NoUnicode})
		if err != nil {
			return nil
		}
		return func(dst []byte, tmpl string, text []byte, start, _ int) []byte {
			out, err := x.Expand(dst, tmpl, text, start)
			if err != nil {
				return append(dst, tmpl...)
			}
			return out
		}
	}
	if x := defaultExpander(o); x != nil {
		return func(dst []byte, tmpl string, text []byte, start, end int) []byte {
			if out, ok := x.Expand(dst, tmpl, text[start:end]); ok {
				return out
			}
			// The match alone does not match the pattern (an assertion
			// saw the text around it): $0 is still the match, and a
			// group rgkit cannot tell is empty, where the template was
			// printed as it was.
			return wholeMatch().Expand(dst, []byte(tmpl), text, []int{start, end})
		}
	}
	return nil
}

// wholeMatch expands a template with the match as $0 and no other group
// (compiled when first needed: cmd/rg pays for every initialiser).
var wholeMatch = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s).*`) })

// defaultExpander reads the patterns of the default engine as the
// matcher does (rg's dialect, smart case resolved as the search
// resolves it) for -r's groups; nil when it cannot (-r then prints its
// template as it is).
func defaultExpander(o *rgcli.Options) *native.Expander {
	q, err := search.Normalize(search.Query{Pattern: withoutDotall(o, defaultPattern(o, o.Patterns)), Case: caseMode(o.Case),
		Multiline: o.Multiline, CRLF: o.CRLF, Root: "/"})
	if err != nil {
		return nil
	}
	x, err := native.NewExpander(native.MatchOptions{Pattern: q.Pattern, CaseInsensitive: q.Case == search.CaseInsensitive,
		Multiline: o.Multiline && o.MultilineDotall, CRLF: o.CRLF, NoUnicode: o.NoUnicode})
	if err != nil {
		return nil
	}
	return x
}

// sinkFor returns the search.Sink for one target.
func (r *rgRun) sinkFor(t target) search.Sink {
	return &rgSink{run: r, t: t}
}

// rgSink adapts the library's results for one target to rg's printers.
type rgSink struct {
	run *rgRun
	t   target
	// around is the file aroundBlock reads -U blocks' edges from, open
	// from the first block that needs it to the file's End; aroundSkip
	// is how many bytes of it precede the text searched (a UTF-8 byte
	// order mark rg strips), -1 when the text is not the file's bytes.
	around     *os.File
	aroundSkip int64

	path      string // as printed
	rel       string // as the engine named it (relative to the target's root)
	abs       string
	loc       *lineLocator
	binaryOff int64 // first NUL of an explicit file, -1 none
	lateNUL   bool  // a mapped named file's NUL comes after its first 64 KiB (see namedBinary)
	readStop  int64 // a read named file's lines print up to here, -1 all (see namedBinary)
	firstNUL  int64 // and its NUL, for the note
	// walkStop, when above 0, is where rg stopped reading a walked file
	// at its NUL at walkNUL (listedFile.stopAt): the listing's lines end
	// there.
	walkStop, walkNUL int64
	// binaryDone: the line where rg noticed the NUL came (unprinted; only
	// a match there counts): rg stops there, no later line counts.
	binaryDone bool
	std        *printer.Standard
	buf        bytes.Buffer // the file's output when sorting
	// chunks is --sort's output of the file held so far, sortChunk bytes
	// at a time; buf holds the rest.
	chunks  []heldBytes
	lines   int64
	matches int64
	// lastMatch is the number of the file's last match line (see
	// countedMatches).
	lastMatch int
	// block is the run of match lines held under rg -U (see multiline.go).
	block heldBlock
	// stopAt is the end of the line of the -m'th match: rg stops reading
	// the file there (its after-context is printed but not counted as
	// searched). 0 until the limit is reached.
	stopAt int64
	// binaryStop is where rg's printer stopped the file on noticing its
	// NUL (the end of the match line there, or of the last match before a
	// context line there), -1 when it did not.
	binaryStop   int64
	lastMatchEnd int64 // the end of the file's last match line printed
	// own: this sink is one file's alone, printed on the search's worker
	// into buf (native.Engine.FileSink, see printsInWorkers); holding:
	// it holds the run's outMu (spillOwn, End); followed: the separator
	// before it is written.
	own, holding, followed bool
	ownStd                 *printer.Standard // own's printer, into buf (kept in the run's pool)
	// js is the JSON printer this file prints to: the run's, or with own
	// ownJS, one of the file's own (kept in the pool) whose counts the
	// run's absorbs at End.
	js, ownJS *printer.RgJSON
	// sliced: rg maps this named file and looks for a NUL in it, and the
	// statistics are printed. sliceNUL is then the NUL rg's slice searcher
	// notes: one in the first 64 KiB, or under --json the first on a line
	// handed to the printer; -1 none.
	sliced   bool
	sliceNUL int64
	// counted is FileSummary.Counted, set at End: see countedBytes.
	counted int64
}

func (s *rgSink) Begin(rel string) error {
	r := s.run
	if r.legacy != nil {
		return r.legacy.Begin(rel)
	}
	s.path, s.rel = s.t.printedPath(rel), rel
	if r.o.PathSeparator != "" && r.js == nil { // (rg's JSON keeps the paths as they are)
		s.path = strings.ReplaceAll(s.path, "/", r.o.PathSeparator)
	}
	s.abs = filepath.Join(s.t.root, filepath.FromSlash(rel))
	s.lines, s.matches, s.stopAt, s.lastMatch = 0, 0, 0, 0
	s.binaryStop, s.lastMatchEnd, s.sliceNUL = -1, 0, -1
	s.sliced = s.t.file && s.t.stream == nil && printsStats(r.o) && r.mapsLookingForNUL(s.abs)
	if s.sliced {
		s.sliceNUL = peekNUL(s.abs)
	}
	if r.begun != nil && s.t.file && s.t.stream == nil {
		// (Named files only, which cutUnbegunMapped reads; the workers
		// begin a directory's files at once.)
		r.begunMu.Lock()
		r.begun[s.abs] = true
		r.begunMu.Unlock()
	}
	s.namedBinary(-1)
	if s.loc != nil {
		s.loc.close()
	}
	s.loc = nil
	switch {
	case r.std == nil || s.t.stream != nil || r.o.Text: // -a: a NUL is a byte
	case !s.t.file && !r.o.Binary: // (--binary: a walked file's NUL as a named one's)
	case r.o.Pre != "" || r.o.NullData:
		// A --pre command's output is not looked at twice (the command
		// would run twice for each file); --null-data's NULs end lines.
	case r.o.SearchZip && readsTransformed(r.o, s.abs), r.o.Encoding != "" && r.o.Encoding != "auto" && r.o.Encoding != "none":
		s.namedBinaryDecoded(func() (io.ReadCloser, error) {
			if r.openSearched == nil {
				return nil, errors.ErrUnsupported
			}
			f, _, err := r.openSearched(context.Background(), s.abs, s.rel)
			return f, err
		})
	case r.o.Encoding != "none" && startsWithBOM(s.abs):
		// rg decodes a file that starts with a byte-order mark, and
		// reads it as -E's files.
		s.namedBinaryDecoded(func() (io.ReadCloser, error) {
			f, err := os.Open(s.abs)
			if err != nil {
				return nil, err
			}
			d, err := native.DecodeReader(f, "auto")
			return readCloser{d, f}, err
		})
	default:
		s.namedBinary(firstNUL(s.abs))
	}
	s.std = r.std
	if r.sorting() || s.own {
		s.buf.Reset()
		switch {
		case r.std != nil && s.own && s.ownStd != nil:
			s.ownStd.Reset()
			s.std = s.ownStd
		case r.std != nil && s.own:
			s.ownStd = printer.NewStandard(s.ownOutput(), r.cfg)
			s.std = s.ownStd
		case r.std != nil:
			s.std = printer.NewStandard(&s.buf, r.cfg)
		}
	}
	if s.std != nil {
		s.std.Begin(s.path)
		if s.t.stream == nil {
			s.std.LinkTo(s.abs) // stdin has no path to link
		}
	}
	if r.js != nil {
		s.js = r.js
		switch {
		case s.own:
			if s.ownJS == nil {
				s.ownJS = printer.NewRgJSON(s.ownOutput())
				s.ownJS.NoLineNumber = r.js.NoLineNumber
			}
			s.js = s.ownJS
		case r.sorting():
			r.js.SetOutput(&s.buf)
		}
		s.js.Begin(s.path)
	}
	return nil
}

func (s *rgSink) Line(l search.Line) error {
	r := s.run
	if r.legacy != nil {
		r.matched = r.matched || l.Kind == search.KindMatch
		return r.legacy.Line(l)
	}
	if s.binaryDone {
		return nil
	}
	if l.Kind == search.KindMatch {
		s.lines++
		s.matches += r.countedMatches(&l, s.lastMatch)
		s.lastMatch = l.Number
		if !s.own { // (an own sink's End says so, under outMu)
			r.matched = true
		}
		if r.o.Quiet && !r.o.Stats && r.js == nil {
			return errQuit
		}
	}
	if statsSearchWhole(r.o) {
		if l.Kind == search.KindMatch && r.o.MaxCount != nil && l.Located {
			switch end := l.Offset + int64(len(l.Text)+len(terminator(l.Term))); {
			case s.lines == int64(*r.o.MaxCount) && s.stopAt == 0:
				s.stopAt = end
			case s.stopAt > 0:
				// A match in the trailing context past -m: rg read to its end.
				s.stopAt = max(s.stopAt, end)
			}
		}
		if s.sliced && s.sliceNUL < 0 && l.Located {
			// rg's slice searcher notes a NUL on a matched line whatever
			// it prints (see below).
			if i := bytes.IndexByte(l.Text, 0); i >= 0 {
				s.sliceNUL = l.Offset + int64(i)
			}
		}
		return nil // counted for --stats; -l, -c and -q print no lines
	}
	if st := s.t.stream; st != nil && r.std != nil {
		s.binaryOff = st.binaryOff // known once the window holding the NUL is read
	}
	if r.o.Mode == rgcli.ModeCountMatches {
		return nil
	}
	rl := printer.RgLine{Line: l, Path: s.path}
	rl.Offset, rl.Term = s.locate(&l)
	fill := max(s.readStop, 0) // where rg's buffer holding the NUL starts, if read
	if s.binaryOff >= 0 || s.binaryFrom(rl.Offset, l.Text) {
		// rg's printer stops the search at the line where it noticed the
		// NUL: its statistics count the file up to that line's end, or,
		// on a context line, up to where that search step began.
		s.binaryDone = true
		if r.js == nil {
			s.binaryStop = max(s.lastMatchEnd, fill)
			if l.Kind == search.KindMatch {
				// The match line's end: located as the engine numbered
				// the lines (in a file rg reads, each NUL ends one).
				s.binaryStop = rl.Offset + int64(len(l.Text)+len(rl.Term))
			}
		}
		if s.std != nil {
			return s.std.ContextBreak(l.Number)
		}
		return nil
	}
	if l.Kind == search.KindMatch {
		s.lastMatchEnd = rl.Offset + int64(len(l.Text)+len(rl.Term))
	}
	if r.js != nil && s.sliced && s.sliceNUL < 0 {
		// rg's JSON printer goes on past a NUL, but its slice searcher
		// notes the first one on a line it hands over.
		if i := bytes.IndexByte(l.Text, 0); i >= 0 {
			s.sliceNUL = rl.Offset + int64(i)
		}
	}
	if r.holdsBlocks() {
		if l.Kind == search.KindMatch {
			switch {
			case r.o.MaxCount != nil && s.lines == int64(*r.o.MaxCount) && s.stopAt == 0:
				s.stopAt = rl.Offset + int64(len(l.Text)+len(rl.Term))
			case r.o.MaxCount != nil && s.stopAt > 0:
				// A match in the trailing context past -m: rg read to its end.
				s.stopAt = max(s.stopAt, rl.Offset+int64(len(l.Text)+len(rl.Term)))
			}
			return s.holdLine(rl)
		}
		if err := s.flushBlock(); err != nil {
			return err
		}
	}
	lineEnd := rl.Offset + int64(len(l.Text)+len(rl.Term)) // (before the '\r' moves into the text below)
	if r.crlf != nil && len(rl.Term) == 2 && l.Kind == search.KindMatch && len(l.Submatches) > 0 && l.MoreSubmatches == 0 {
		// rg matches a CRLF line with its '\r' (the engine's spans stop
		// before it): a match may end after it, an empty one sit there.
		rl.Text, rl.Term = append(l.Text[:len(l.Text):len(l.Text)], '\r'), termLF
		rl.Submatches = rl.Submatches[:0:0]
		for _, sp := range r.crlf.Spans(rl.Text) {
			rl.Submatches = append(rl.Submatches, search.Span{Start: sp[0], End: sp[1]})
		}
	}
	if l.Kind == search.KindMatch && r.o.MaxCount != nil && s.lines == int64(*r.o.MaxCount) && s.stopAt == 0 && !r.o.Invert && !r.o.Passthru {
		// (-v's stop the engine places, FileSummary.Bytes; --passthru
		// reads on)
		s.stopAt = lineEnd
	} else if l.Kind == search.KindMatch && s.stopAt > 0 && r.o.MaxCount != nil && !r.o.Invert && !r.o.Passthru {
		// A match in the trailing context past -m: rg read to its end.
		s.stopAt = max(s.stopAt, lineEnd)
	} else if l.Kind == search.KindContext && r.o.PCRE2 && !r.multiLine && s.stopAt > 0 {
		// -P: rg reads line by line, to the end of the trailing context.
		s.stopAt = max(s.stopAt, lineEnd)
	}
	var err error
	if r.needsMoreSpans(&l) && r.js == nil && r.replacer == nil && (r.cfg.OnlyMatching || r.cfg.Vimgrep) {
		// One output line per match: a chunk of matches at a time. (Not
		// with -r: rg prints columns and offsets in the line with every
		// match replaced, and --vimgrep that whole line, so the line is
		// replaced whole, as rg does.)
		err = s.printSpanChunks(&l, rl)
	} else {
		if r.needsMoreSpans(&l) {
			rl.Submatches, rl.MoreSubmatches = r.allSpans(&l), 0
		}
		err = s.printLine(&rl)
	}
	if err == nil && s.flushesEachLine() {
		err = r.w.Flush()
	}
	if err == nil {
		err = s.afterPrint()
	}
	return err
}

// afterPrint keeps the file's buffer small once a line is printed into
// it: a file printed apart goes out past ownSpill, and --sort holds its
// output in chunks of sortChunk (see chunks).
func (s *rgSink) afterPrint() error {
	r := s.run
	switch {
	case r.sorting() && s.buf.Len() >= sortChunk:
		s.chunks = append(s.chunks, r.held.hold(s.buf.Bytes()))
		s.buf.Reset()
	case s.own && s.buf.Len() >= ownSpill && !r.sorting():
		return s.spillOwn()
	}
	return nil
}

// sortChunk is how much of a file's output --sort gathers before it holds
// it: GOROOT/src has a file printing 1.6 MB of `func` lines, and gathered
// whole its buffer grew to 2 MiB, beside the 1 MiB, 512 KiB... it grew
// from (19 MiB peak RSS against rg's 7).
const sortChunk = 256 << 10

// ownSpill is how much of a file printed apart (rgSink.own) is held
// before the file takes the output for the rest of it: a file whose
// printed lines run to gigabytes is not held whole.
const ownSpill = 1 << 20

// spillOwn writes out what the file printed apart holds, taking the
// output (outMu) until its End, or Abandon.
func (s *rgSink) spillOwn() error {
	r := s.run
	if !s.holding {
		r.outMu.Lock()
		s.holding = true
		// (A match is a match even if the write below fails, a reader
		// gone, and End never comes: rg then exits 0.)
		r.matched = r.matched || s.lines > 0
		if err := s.follow(); err != nil {
			return err
		}
	}
	_, err := r.w.Write(s.buf.Bytes())
	s.buf.Reset()
	return err
}

// ownWriter is what the printer of a file printed apart writes into: the
// file's buffer until it passes ownSpill, then the output itself, also in
// the middle of a line (--vimgrep prints a long line once per match, and a
// line of thousands of matches held whole was hundreds of MB).
type ownWriter struct{ s *rgSink }

func (w ownWriter) Write(p []byte) (int, error) {
	s := w.s
	if s.holding {
		// The output is the file's (End took it, or a spill): what the
		// buffer holds goes first, so a note End prints (rg's "WARNING:
		// stopped searching binary file") follows the lines.
		if err := s.follow(); err != nil {
			return 0, err
		}
		if s.buf.Len() > 0 {
			_, err := s.run.w.Write(s.buf.Bytes())
			s.buf.Reset()
			if err != nil {
				return 0, err
			}
		}
		return s.run.w.Write(p)
	}
	n, _ := s.buf.Write(p)
	if s.buf.Len() >= ownSpill {
		return n, s.spillOwn()
	}
	return n, nil
}

// ownOutput is where the printers of a file printed apart write: its
// buffer, which --sort holds whole, else ownWriter. (A pooled sink keeps
// its printers, which write to the same sink.)
func (s *rgSink) ownOutput() io.Writer {
	if s.run.sorting() {
		return &s.buf
	}
	return ownWriter{s}
}

// follow writes, once, the separator the run's printer puts before the
// file printed apart (see printer.Standard.Follows); outMu is held.
func (s *rgSink) follow() error {
	if s.followed {
		return nil
	}
	s.followed = true
	if s.run.std == nil {
		return nil // (JSON has no separators)
	}
	if sep := s.run.std.Follows(s.std); sep != nil {
		_, err := s.run.w.Write(sep)
		return err
	}
	return nil
}

// ownSink is a sink for one file of t printed apart (rgSink.own), with
// the buffer and printer of one whose file is done.
func (r *rgRun) ownSink(t target) *rgSink {
	r.ownFreeMu.Lock()
	var s *rgSink
	if n := len(r.ownFree); n > 0 {
		s, r.ownFree = r.ownFree[n-1], r.ownFree[:n-1]
		r.ownFreeBytes -= s.buf.Cap()
	}
	r.ownFreeMu.Unlock()
	if s == nil {
		return &rgSink{run: r, t: t, own: true}
	}
	s.buf.Reset()
	*s = rgSink{run: r, t: t, own: true, buf: s.buf, ownStd: s.ownStd, ownJS: s.ownJS}
	return s
}

// recycleOwn keeps s, whose file is done, for ownSink: at most maxOwnFree
// sinks, whose buffers hold at most maxOwnKept bytes together (a buffer
// past that is let go, the sink kept).
func (r *rgRun) recycleOwn(s *rgSink) {
	r.ownFreeMu.Lock()
	defer r.ownFreeMu.Unlock()
	if len(r.ownFree) >= maxOwnFree {
		return
	}
	if r.ownFreeBytes+s.buf.Cap() > maxOwnKept {
		s.buf = bytes.Buffer{}
	}
	r.ownFreeBytes += s.buf.Cap()
	r.ownFree = append(r.ownFree, s)
}

// maxOwnFree bounds rgRun.ownFree: a worker holds one sink at a time, so
// a few beyond the workers cover those waiting for the output.
const maxOwnFree = 16

// maxOwnKept bounds the buffers of the sinks rgRun.ownFree keeps: enough
// for the files of a search that prints much (--json func over GOROOT/src
// grew a fresh buffer per file, 2.5 times the collections, under 64 KiB
// each), not so much that they weigh on the resident set.
const maxOwnKept = 4 << 20

// Abandon lets go of the output a file printed apart took (spillOwn)
// when its search failed before its End.
func (s *rgSink) Abandon() {
	for _, b := range s.chunks { // (a file that failed before its end)
		s.run.held.release(b)
	}
	s.chunks = nil
	if s.holding {
		s.holding = false
		s.run.outMu.Unlock()
	}
}

// printSpanChunks prints l one chunk of matches at a time (-o,
// --vimgrep). It has rl by value so that Line's own does not move to the
// heap for the closure: that cost an allocation per printed line.
func (s *rgSink) printSpanChunks(l *search.Line, rl printer.RgLine) error {
	return s.run.eachSpanChunk(l, func(chunk []search.Span) error {
		rl.Submatches, rl.MoreSubmatches = chunk, 0
		return s.printLine(&rl)
	})
}

// printLine prints one line (with -r, its matches replaced); JSON with
// -q only counts it. (A pointer: the line is large, and copied once per
// printed line it showed in -v's profile.)
func (s *rgSink) printLine(rl *printer.RgLine) error {
	r := s.run
	if r.replacer != nil && (rl.Kind == search.KindMatch || len(rl.Submatches) > 0) {
		// (a context line has matches only as -v's, and rg replaces them)
		rl.Replaced, rl.ReplacedSpans = replaceSpans(r.replacer, *r.o.Replace, rl.Line)
	}
	switch {
	case r.js != nil && r.o.Quiet:
		s.js.Tally(*rl)
		return nil
	case r.js != nil:
		return s.js.Line(*rl)
	}
	return s.std.Line(*rl)
}

// countedMatches is how many matches a match line adds to the count, the
// file's match line before it being number prev (0: none). rg's summary
// printer (-c, -l, -q, --count-matches) counts at least one for each match
// the search reports, also where its own look for them finds none: the
// empty match at the end of a last line with no line break ('$'), which
// the content printers leave out. Under -U what the search reports is a
// block of adjacent lines, counted once.
func (r *rgRun) countedMatches(l *search.Line, prev int) int64 {
	n := l.Matches()
	if n == 0 && !l.Continued && l.Kind == search.KindMatch && summaryOnly(r.o) && !(r.multiLine && prev > 0 && l.Number == prev+1) {
		n = 1
	}
	return int64(n)
}

// searchedBytesWhole is the file's size, as the engine searched it.
func (s *rgSink) searchedBytesWhole() int64 {
	if st := s.t.stream; st != nil {
		return st.bytes
	}
	if fi, _ := os.Stat(s.abs); fi != nil {
		return fi.Size()
	}
	return 0
}

// countedBytes is what the engine counted as searched in the file: all
// of it, or up to where it stopped (FileSummary.Counted).
func (s *rgSink) countedBytes() int64 {
	n := s.searchedBytesWhole()
	if s.counted > 0 && s.counted < n {
		n = s.counted
	}
	return n
}

// searchedBytes is what rg counts as searched in the file: all of it, or
// up to where -m or the line where rg noticed a NUL stopped it; a file rg
// maps counts no further than its NUL (rg's slice searcher reports the
// binary offset when it comes before where the search ended).
func (s *rgSink) searchedBytes() int64 {
	n := s.countedBytes()
	if s.stopAt > 0 && s.stopAt < n && !s.run.readsWholeText() {
		n = s.stopAt
	}
	if s.binaryStop >= 0 && s.binaryStop < n {
		n = s.binaryStop
	}
	if s.sliced {
		// rg's slice searcher counts a file no further than the NUL it
		// noted, whatever it printed.
		for _, nul := range []int64{s.sliceNUL, s.binaryOff} {
			if nul >= 0 && nul < n {
				n = nul
			}
		}
	}
	return n
}

// readsWholeText says rg counts a file's every byte as searched though -m
// stopped its printing: rg -P -U searches the whole text at once, whatever
// the pattern. (With after-context past -m it counts up to where the
// context ended, as otherwise, in the cases measured.)
func (r *rgRun) readsWholeText() bool {
	_, after := r.o.ContextLines()
	return r.o.PCRE2 && r.o.Multiline && after == 0
}

// countsLess reports whether rg may count less of the file as searched
// than the whole (see searchedBytes), so that the size need not be taken
// for every file.
func (s *rgSink) countsLess() bool {
	return s.stopAt > 0 || s.binaryStop >= 0 || s.sliced
}

// mapsLookingForNUL reports whether rg maps the named file at abs and
// looks for a NUL in it (not with -a, nor in what -z or -E decode, nor in
// a file it decodes for its byte-order mark).
func (r *rgRun) mapsLookingForNUL(abs string) bool {
	return r.mapped && !r.o.Text && !readsTransformed(r.o, abs) && (r.o.Encoding == "none" || !startsWithBOM(abs))
}

// cutUnbegunMapped counts, for the statistics, the named files the engine
// searched without a line to print (no Begin, no End) at what rg counts
// for them: a mapped file with an early NUL up to that NUL.
func (r *rgRun) cutUnbegunMapped(targets []target) {
	if !r.mapped || !printsStats(r.o) {
		return
	}
	for _, t := range targets {
		if !t.file || t.stream != nil || len(t.paths) != 1 {
			continue
		}
		abs := filepath.Join(t.root, filepath.FromSlash(t.paths[0]))
		if r.begun[abs] {
			continue
		}
		if fi, err := os.Stat(abs); err == nil && fi.Mode().IsRegular() {
			if !r.mapsLookingForNUL(abs) {
				continue
			}
			if nul := peekNUL(abs); nul >= 0 {
				r.bytesCut += fi.Size() - nul
			}
		}
	}
}

// locate is where line l starts in its file or stream, and its terminator.
func (s *rgSink) locate(l *search.Line) (int64, []byte) {
	switch st := s.t.stream; {
	case st != nil && !st.located:
		// A stream's window knows where its lines start in the stream (an
		// engine's offsets would count from the window).
		return st.loc.at(l.Number)
	case l.Located:
		// The engine read the file and knows where the line is: no
		// second pass over it.
		return l.Offset, terminator(l.Term)
	}
	if s.loc == nil {
		s.loc = openLocator(s.abs, s.nulEndsLines())
	}
	return s.loc.at(l.Number)
}

// lineEnds is which bytes end the file's lines as the search reads them.
func (s *rgSink) lineEnds() lineEnds {
	switch {
	case s.run.o.NullData:
		return endNUL
	case s.nulEndsLines():
		return endLFOrNUL
	}
	return endLF
}

// nulEndsLines says rg reads the file with each NUL as a line break
// (--binary, or a file named on the command line, read, not mapped).
func (s *rgSink) nulEndsLines() bool {
	r := s.run
	return !r.o.Text && !r.mapped && (r.o.Binary || s.t.file)
}

// listPath lists the file as one the search was after (--files,
// --files-without-match), printing its path when show is set: with -q rg
// prints nothing, and without --stats it stops at the first such file.
func (s *rgSink) listPath(show bool) error {
	r := s.run
	r.matched = true
	switch {
	case !r.o.Quiet && !show:
	case !r.o.Quiet:
		return s.std.PathLine(s.path)
	case !r.o.Stats:
		return errQuit
	}
	return nil
}

func (s *rgSink) End(sum search.FileSummary) error {
	r := s.run
	if s.own {
		// The file was printed on its worker; what it adds to the run,
		// and its output, go in one at a time.
		if !s.holding {
			r.outMu.Lock()
			s.holding = true
		}
		defer r.recycleOwn(s)
		defer s.Abandon()
		r.matched = r.matched || s.lines > 0
	}
	if r.legacy != nil {
		r.matched = r.matched || sum.MatchedLines > 0 || r.o.Mode == rgcli.ModeFilesWithMatches
		return r.legacy.End(sum)
	}
	if err := s.flushBlock(); err != nil {
		return err
	}
	if s.loc != nil {
		s.loc.close()
		s.loc = nil
	}
	s.closeAround()
	s.counted = sum.Counted
	filesMode := r.o.Mode == rgcli.ModeFilesWithMatches || (r.o.Quiet && r.o.Mode != rgcli.ModeJSON)
	// rg's summary printer squashes the count (and the path) of a file it
	// stopped reading at a NUL: with --stats it reads past the first
	// match, so -c and -l see the NUL that a plain -l never reaches. The
	// statistics keep the file's matches.
	squashed := statsSearchWhole(r.o) && (r.o.Mode == rgcli.ModeCount || filesMode) && sum.Binary && !s.t.file && !r.o.Binary &&
		(r.o.MaxCount == nil || int64(sum.MatchedLines) < int64(*r.o.MaxCount))
	// Under -U, -c counts matches; rg's statistics count the lines they
	// touch, which the sink heard.
	statsLines := s.lines
	if r.o.Mode == rgcli.ModeCount || filesMode {
		s.lines = int64(sum.MatchedLines)
		if s.lines == 0 && filesMode {
			s.lines = 1
		}
		if !(r.multiLine && statsSearchWhole(r.o) && statsLines > 0) {
			statsLines = s.lines
		}
		r.matched = r.matched || (s.lines > 0 && !squashed)
		if r.o.Quiet && r.matched && !r.o.Stats {
			return errQuit
		}
	}
	failed := r.reports != nil && r.reports.failedFile(s.path)
	if s.lines > 0 && !failed { // rg's statistics leave out a file whose reading failed
		r.files++
		r.lines += statsLines
		r.matches += s.matches
	}
	if (r.js != nil || r.o.Stats) && s.countsLess() {
		r.bytesCut += s.countedBytes() - s.searchedBytes()
	}
	s.noticeReadNUL()
	var err error
	switch {
	case r.js != nil:
		if failed {
			break // rg's JSON has no "end" for a file whose reading failed
		}
		binaryOff := int64(-1)
		switch {
		case s.sliced:
			// A mapped file: rg saw only the NULs in its first 64 KiB
			// and on the lines it handed over.
			binaryOff = s.sliceNUL
		case sum.Binary:
			binaryOff = sum.BinaryOffset
		}
		size := s.searchedBytes()
		if sum.Bytes > 0 && !s.t.file && !readsTransformed(r.o, s.abs) {
			size = min(size, sum.Bytes) // read up to where rg stopped (a NUL, -v's -m) or decoded
		} else if sum.Bytes > 0 {
			size = sum.Bytes // decompressed or transcoded
		}
		err = s.js.End(size, binaryOff) // with -q it only counts
		if s.own {
			r.js.Absorb(s.js) // (outMu is held)
		}
	case r.o.Quiet, squashed:
	case r.o.Mode == rgcli.ModeFilesWithMatches:
		err = s.std.PathLine(s.path)
	case r.o.Mode == rgcli.ModeCount:
		err = s.std.Count(s.path, s.lines)
	case r.o.Mode == rgcli.ModeCountMatches && sum.Binary && !s.t.file && !r.o.Binary && (r.o.MaxCount == nil || s.lines < int64(*r.o.MaxCount)):
		// rg's summary printer squashes the count of a file it stopped
		// reading at a NUL, as for -c.
	case r.o.Mode == rgcli.ModeCountMatches:
		err = s.std.Count(s.path, s.matches)
	case s.binaryOff >= 0 && s.lines > 0:
		err = s.std.Binary(s.path, s.binaryOff)
	case sum.Binary && s.lines > 0 && !s.t.file && !r.o.Binary:
		err = s.std.BinaryStopped(s.path, sum.BinaryOffset)
	}
	if err != nil {
		return err
	}
	return s.finishFile()
}

// flushesEachLine says each line is written out as soon as it is
// printed (on a terminal or with --line-buffered) where rg writes lines
// as it finds them: a stream, whose lines come as it arrives (what
// `tail -f log | rgkit grep ERROR` needs), a file named on the command
// line, and -j1. A file a walk found is written out when it is done
// (finishFile), as rg writes each file's buffer whole in its parallel
// search: a write per line cost a system call each (135,000 for `func`
// over GOROOT/src) and made --line-buffered 1.55× rg.
func (s *rgSink) flushesEachLine() bool {
	r := s.run
	return r.flushEach && !r.sorting() && !s.own && (s.t.stream != nil || s.t.file || r.o.Threads == 1)
}

// finishFile hands the file's output on: held for --sort, else flushed
// per file when the output is a terminal or line-buffered.
func (s *rgSink) finishFile() error {
	r := s.run
	if s.own && !r.sorting() && s.buf.Len() > 0 {
		// Printed apart (see printsInWorkers): the separator the run's
		// printer would have put before it, then the file.
		if err := s.follow(); err != nil {
			return err
		}
		if _, err := r.w.Write(s.buf.Bytes()); err != nil {
			return err
		}
	}
	if r.sorting() {
		if s.buf.Len() == 0 && len(s.chunks) == 0 {
			return r.inOrder.failed()
		}
		printed := s.std != nil && s.std.Printed()
		chunks := s.chunks
		s.chunks = nil
		if r.sortsInPathOrder() {
			return r.holdInOrder(s.rel, printed, chunks, s.buf.Bytes())
		}
		r.sorted = append(r.sorted, sortedFile{arg: s.t.index, path: s.path, abs: s.abs, chunks: chunks, out: r.held.hold(s.buf.Bytes()), printed: printed})
		return nil
	}
	if r.flushEach {
		return r.w.Flush()
	}
	if r.w.Buffered() > 0 && time.Since(r.lastFlush) >= pipeFlushGap {
		r.lastFlush = time.Now()
		return r.w.Flush()
	}
	return nil
}

// pipeFlushGap paces the output that is neither a terminal nor
// line-buffered: it goes out in 64 KiB writes, and also at the end of a
// file once this long has passed since the last such write. rg writes each
// file's lines when the file is done; a reader of the pipe (`| head -1`,
// an editor listing results) gets the first file's lines as soon as from
// rg, without a write per file on a search that prints thousands.
const pipeFlushGap = 5 * time.Millisecond

// sorting reports whether files are held for --sort / --sortr.
func (r *rgRun) sorting() bool {
	return r.o.Sort != rgcli.SortNone || r.o.SortReverse
}

// finish writes the held files in --sort order, and --json's summary.
func (r *rgRun) finish(wall time.Duration) error {
	if err := r.releaseInOrder("", true); err != nil {
		return err
	}
	if r.sorting() {
		r.sortFiles()
		for _, f := range r.sorted {
			if err := r.writeSorted(f); err != nil {
				return err
			}
		}
	}
	if r.js != nil {
		r.js.SetOutput(r.w)
		return r.js.Summary(wall, r.stats.FilesSearched, r.stats.BytesSearched-r.bytesCut)
	}
	if r.legacy != nil {
		return r.legacy.Summary(search.Result{Backend: r.backend, Stats: r.stats}, nil)
	}
	return nil
}

// writeSorted writes one held file's output, after the separator rg
// prints between two files.
func (r *rgRun) writeSorted(f sortedFile) error {
	if r.std != nil && r.o.Mode == rgcli.ModeStandard {
		if sep := r.std.FollowsFile(f.printed); sep != nil {
			if _, err := r.w.Write(sep); err != nil {
				return err
			}
		}
	}
	var err error
	for _, b := range append(f.chunks, f.out) {
		if err == nil {
			err = r.held.writeTo(r.w, b)
		}
		r.held.release(b)
	}
	return err
}

// sortFiles orders the held files by --sort / --sortr's key.
func (r *rgRun) sortFiles() {
	key := func(f sortedFile) time.Time {
		if r.o.Sort == rgcli.SortCreated {
			t, _ := createdTime(f.abs) // unknown: the zero time, first
			return t
		}
		fi, err := os.Stat(f.abs)
		if err != nil {
			return time.Time{}
		}
		if r.o.Sort == rgcli.SortAccessed {
			if t, ok := r.atimes.get(f.abs); ok {
				return t
			}
			if t, ok := accessTime(fi); ok {
				return t
			}
		}
		return fi.ModTime()
	}
	slices.SortStableFunc(r.sorted, func(a, b sortedFile) int {
		if a.arg != b.arg && r.o.Sort == rgcli.SortPath && !r.o.SortReverse {
			// rg's --sort path is the walk's, one PATH argument after
			// another; its other orders sort all the files together.
			return a.arg - b.arg
		}
		var c int
		switch r.o.Sort {
		case rgcli.SortModified, rgcli.SortAccessed, rgcli.SortCreated:
			c = key(a).Compare(key(b))
		default:
			c = search.ComparePaths(a.path, b.path)
		}
		if r.o.SortReverse {
			c = -c
		}
		return c
	})
}

// accessTimes holds files' access times as they were before the search
// read them, by absolute path (rg takes its sort keys before searching).
type accessTimes struct{ m sync.Map }

// record notes abs's access time now (native.Engine.BeforeRead).
func (a *accessTimes) record(abs string) {
	if fi, err := os.Stat(abs); err == nil {
		if t, ok := accessTime(fi); ok {
			a.m.Store(abs, t)
		}
	}
}

func (a *accessTimes) get(abs string) (time.Time, bool) {
	if a == nil {
		return time.Time{}, false
	}
	t, ok := a.m.Load(abs)
	if !ok {
		return time.Time{}, false
	}
	return t.(time.Time), true
}

// printStats writes rg's --stats block.
func (r *rgRun) printStats(w io.Writer, printed int64, wall time.Duration) {
	matches := r.matches
	countsLines := r.o.Mode == rgcli.ModeCount || r.o.Mode == rgcli.ModeFilesWithMatches || (r.o.Mode == rgcli.ModeCountMatches && r.o.Invert) // rg: -v --count-matches is -v -c
	if countsLines && !statsSearchWhole(r.o) && !(includeZero(r.o) && !r.o.Invert) {
		matches = r.lines
	}
	if r.o.Invert && summaryOnly(r.o) {
		matches = r.lines // rg's summary printer counts an inverted line as a match
	}
	fmt.Fprintf(w, "\n%d matches\n%d matched lines\n%d files contained matches\n%d files searched\n%d bytes printed\n%d bytes searched\n%.6f seconds spent searching\n%.6f seconds total\n",
		matches, r.lines, r.files, r.stats.FilesSearched, printed, r.stats.BytesSearched-r.bytesCut, wall.Seconds(), wall.Seconds())
}

// replaceSpans builds -r's line: each match replaced by the template
// expanded against it.
func replaceSpans(expand expander, tmpl string, l search.Line) ([]byte, []search.Span) {
	out := []byte{} // (not nil: a line replaced whole by "" prints empty, not as it was)
	var spans []search.Span
	at := 0
	for _, sp := range l.Submatches {
		if sp.Start < at || sp.End > len(l.Text) {
			continue
		}
		out = append(out, l.Text[at:sp.Start]...)
		start := len(out)
		if expand != nil {
			out = expand(out, tmpl, l.Text, sp.Start, sp.End)
		} else {
			out = append(out, tmpl...)
		}
		spans = append(spans, search.Span{Start: start, End: len(out)})
		at = sp.End
	}
	out = append(out, l.Text[at:]...)
	return out, spans
}

// firstNUL returns the offset of the first NUL byte in the file at path,
// or -1: rg reports a file named on the command line that holds one as
// "binary file matches" instead of printing its lines. (A file rg
// transcodes is looked at decoded, see namedBinaryDecoded.)
func firstNUL(path string) int64 {
	f, err := os.Open(path)
	if err != nil {
		return -1
	}
	defer f.Close()
	// The buffer is sized to the file, up to 64 KiB: a constant 64 KiB would
	// live on the goroutine's stack, and growing the stack to hold it costs
	// a short search about 50 page faults.
	size := int64(64 << 10)
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() < size {
		size = fi.Size() + 1
	}
	buf := make([]byte, size)
	var off int64
	for {
		n, err := f.Read(buf)
		if i := bytes.IndexByte(buf[:n], 0); i >= 0 {
			return off + int64(i)
		}
		off += int64(n)
		if err != nil {
			return -1
		}
	}
}

// The terminators a line can have, shared so that printing one allocates
// nothing.
var (
	termLF   = []byte("\n")
	termCRLF = []byte("\r\n")
	nulByte  = []byte{0} // a line end where rg reads NULs as line breaks
)

// terminator is a search.Line's Term as the printers take it.
// splitLine cuts one raw line into its text and the terminator rg prints
// ("\r\n", "\n", or none: a last line without one, or a stream's line
// that a NUL ended, which rg turns into a line break of its own).
func splitLine(raw []byte) (text, term []byte) {
	switch {
	case bytes.HasSuffix(raw, termCRLF):
		return raw[:len(raw)-2], termCRLF
	case bytes.HasSuffix(raw, termLF):
		return raw[:len(raw)-1], termLF
	case bytes.HasSuffix(raw, []byte{0}):
		return raw[:len(raw)-1], nil
	}
	return raw, nil
}

func terminator(t string) []byte {
	switch t {
	case "\n":
		return termLF
	case "\r\n":
		return termCRLF
	case "":
		return nil
	}
	return []byte(t) // rg --null-data's ("\x00", or "\n\x00" after a trailing '\n')
}

// lineLocator reads a file alongside the results to give each line its
// byte offset and its terminator as rg prints them (the library's lines
// carry neither). Lines arrive in increasing order, so one forward pass
// over the file suffices.
type lineLocator struct {
	f    *os.File
	r    *bufio.Reader
	line int   // lines consumed so far
	off  int64 // offset of the next line
	err  error
	// nulEnds: a NUL ends a line too, as in a file rg reads with --binary
	// or names: it turns each NUL into a line break before searching, so
	// the engine counted lines that way.
	nulEnds bool
}

func openLocator(path string, nulEnds bool) *lineLocator {
	f, err := os.Open(path)
	if err != nil {
		return &lineLocator{err: err}
	}
	return &lineLocator{f: f, r: bufio.NewReaderSize(f, 64<<10), nulEnds: nulEnds}
}

// at returns line n's offset and terminator ("\n", "\r\n" or none).
func (l *lineLocator) at(n int) (int64, []byte) {
	if l.err != nil || n <= l.line {
		return 0, nil
	}
	for {
		start := l.off
		size, term, err := l.nextLine()
		if err != nil {
			l.err = err
			return 0, nil
		}
		l.off += size
		l.line++
		if l.line == n {
			return start, term
		}
	}
}

// nextLine consumes one line and returns its size and terminator; a last
// line without one is a line, the end of the file is io.EOF.
func (l *lineLocator) nextLine() (int64, []byte, error) {
	var size int64
	var prev byte // the byte before what is buffered
	for {
		if _, err := l.r.Peek(1); err != nil {
			if size > 0 && errors.Is(err, io.EOF) {
				return size, nil, nil
			}
			return size, nil, err
		}
		buf, _ := l.r.Peek(l.r.Buffered())
		i := bytes.IndexByte(buf, '\n')
		if l.nulEnds {
			if z := bytes.IndexByte(buf, 0); z >= 0 && (i < 0 || z < i) {
				i = z
			}
		}
		if i < 0 {
			prev = buf[len(buf)-1]
			size += int64(len(buf))
			l.r.Discard(len(buf))
			continue
		}
		cr := i > 0 && buf[i-1] == '\r' || i == 0 && prev == '\r'
		size += int64(i + 1)
		l.r.Discard(i + 1)
		if cr {
			return size, termCRLF, nil
		}
		return size, termLF, nil
	}
}

func (l *lineLocator) close() {
	if l.f != nil {
		l.f.Close()
	}
}

// addResult accumulates one target's search result.
func (r *rgRun) addResult(res search.Result) {
	if res.Backend != "" {
		r.backend = res.Backend
	}
	st := &r.stats
	st.FilesSearched += res.Stats.FilesSearched
	st.FilesMatched += res.Stats.FilesMatched
	st.MatchedLines += res.Stats.MatchedLines
	st.BytesSearched += res.Stats.BytesSearched
	st.Binary += res.Stats.Binary
	st.Unreadable += res.Stats.Unreadable
	st.TooLarge += res.Stats.TooLarge
}
