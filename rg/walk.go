package rg

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/internal/rgcli"
	"github.com/rgkit/rgkit/search"
	"github.com/rgkit/rgkit/search/printer"
)

// The modes here need every file rg would search, not only those with a
// match: --files, --files-without-match, --passthru and -v. They list the
// files with the native walker (rg's file selection) and then search file
// by file.

// needsListing reports whether o needs the per-file listing path.
func needsListing(o *rgcli.Options) bool {
	return o.Mode == rgcli.ModeFiles || o.Mode == rgcli.ModeFilesWithoutMatch || o.Passthru || o.Invert || includeZero(o) || stopsOnNonmatch(o)
}

// stopsOnNonmatch reports --stop-on-nonmatch where it acts: line by line
// (a later -U turns it off, as in rg).
func stopsOnNonmatch(o *rgcli.Options) bool { return o.StopOnNonmatch && !o.Multiline }

// includeZero reports --include-zero where it counts: with -c or
// --count-matches, a file searched without a match is printed with 0.
func includeZero(o *rgcli.Options) bool {
	return o.IncludeZero && (o.Mode == rgcli.ModeCount || o.Mode == rgcli.ModeCountMatches)
}

// listFiles returns the files rg would search in t, sorted by path when
// asked (rg's --sort path) and in walk order otherwise.
func (r *rgRun) listFiles(ctx context.Context, q search.Query, t target) ([]string, error) {
	q.Root, q.Paths = t.root, t.paths
	q.GlobBase, q.GlobCwd = t.globBase()
	nq, err := search.Normalize(q)
	if err != nil {
		return nil, err
	}
	typeGlobs, err := search.TypeGlobs(nq.Types)
	if err != nil {
		return nil, typeError(err)
	}
	wo := native.WalkOptionsFor(nq, typeGlobs, 0)
	wo.NoStat = wo.MaxFileSize == 0
	var mu sync.Mutex
	wo.OnError = func(e search.FileError) {
		mu.Lock()
		r.errs.report(t, e)
		mu.Unlock()
	}
	var files []string
	_, err = native.Walk(ctx, wo, func(f native.File) error {
		mu.Lock()
		files = append(files, f.Path)
		mu.Unlock()
		return nil
	})
	slices.SortFunc(files, comparePaths)
	return files, err
}

// runListing prints one target in a listing mode.
func (r *rgRun) runListing(ctx context.Context, chain *search.Chain, q search.Query, t target) error {
	files, err := r.listFiles(ctx, q, t)
	if err != nil {
		return err
	}
	for _, rel := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		s := &rgSink{run: r, t: t}
		if r.o.Mode == rgcli.ModeFiles {
			if err := s.Begin(rel); err != nil {
				return err
			}
			if r.o.Quiet {
				r.matched = true
				return errQuit // rg -q --files lists nothing: it stops at the first file
			}
			if err := s.listPath(true); err != nil {
				return err
			}
			if err := s.finishFile(); err != nil {
				return err
			}
			continue
		}
		if err := r.searchOne(ctx, chain, q, t, rel, s); err != nil {
			return err
		}
	}
	return nil
}

// searchOne searches one listed file and prints it in the listing mode.
func (r *rgRun) searchOne(ctx context.Context, chain *search.Chain, q search.Query, t target, rel string, s *rgSink) error {
	q.Root, q.Paths = t.root, []string{rel}
	q.Before, q.After, q.Mode = 0, 0, search.ModeContent
	if r.o.Invert {
		q.MaxCountPerFile = 0 // -m counts the inverted lines, below
	}
	matched := map[int]search.Line{}
	unreadable := r.errs.count
	res, err := chain.Search(ctx, q, errorSink{run: r, t: t, Sink: search.SinkFunc(func(l search.Line) error {
		if l.Kind == search.KindMatch {
			l.Text = bytes.Clone(l.Text)
			l.Submatches = slices.Clone(l.Submatches)
			matched[l.Number] = l
		}
		return nil
	})})
	binary := r.quitsAtNUL(t, firstNUL(filepath.Join(t.root, filepath.FromSlash(rel))))
	if binary {
		// rg stops at a NUL in a file it found by walking: it counts
		// neither its bytes nor its matches.
		res.Stats.BytesSearched, res.Stats.MatchedLines, res.Stats.FilesMatched = 0, 0, 0
		clear(matched)
	}
	r.addResult(res)
	if err != nil {
		return err
	}
	if r.errs.count > unreadable {
		return nil // reported: the file is not listed as without a match
	}
	if err := s.Begin(rel); err != nil {
		return err
	}
	if r.o.Mode == rgcli.ModeFilesWithoutMatch {
		if len(matched) > 0 {
			r.files++ // for --stats, as rg counts them
			for _, l := range matched {
				r.lines++
				r.matches += int64(len(l.Submatches) + l.MoreSubmatches)
			}
		}
		if len(matched) == 0 {
			// A binary file the walk found is never listed (rg stops at its
			// NUL), yet it counts as a file without a match.
			if err := s.listPath(!binary); err != nil {
				return err
			}
		}
		return s.finishFile()
	}
	if binary {
		return s.finishFile()
	}
	if err := r.printAllLines(ctx, s, matched); err != nil {
		return err
	}
	return s.finishFile()
}

// printAllLines prints a file line by line: --passthru prints matches and
// everything else as context; -v prints the lines that do not match.
func (r *rgRun) printAllLines(ctx context.Context, s *rgSink, matched map[int]search.Line) error {
	f, err := os.Open(s.abs)
	if err != nil {
		return err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	all := allLines{r: r, s: s, n: 1}
	for n := 0; ; n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		raw, err := br.ReadBytes('\n')
		if len(raw) == 0 && err != nil {
			break
		}
		if done, perr := all.line(raw, matched); perr != nil || done {
			if perr != nil {
				return perr
			}
			break
		}
		if errors.Is(err, io.EOF) {
			break
		}
	}
	return all.finish()
}

// allLines prints a file (or a stream) line by line for --passthru and -v,
// given which lines match: the selected lines (the matches, or with -v the
// others) as matches, and the rest as context (--passthru) or as -A/-B
// context around them.
type allLines struct {
	r       *rgRun
	s       *rgSink
	n       int   // the next line's number
	off     int64 // and its offset
	count   int64 // lines selected (printed as matches)
	matches int64 // their submatches (--count-matches, --json)
	// before holds the last unselected lines not printed, for -B;
	// afterLeft is how many lines of -A context are still owed.
	before    []printer.RgLine
	afterLeft int
	// succeeded: a line has been selected, after which
	// --stop-on-nonmatch ends the file at the first line that is not.
	succeeded bool
}

// line prints raw, line a.n with its terminator; done reports that the -m
// limit and its trailing context are past.
func (a *allLines) line(raw []byte, matched map[int]search.Line) (done bool, err error) {
	r, s, n := a.r, a.s, a.n
	_, isMatch := matched[n]
	if stopsOnNonmatch(r.o) {
		if isMatch != r.o.Invert {
			a.succeeded = true
		} else if a.succeeded {
			return true, nil // rg reads no further
		}
	}
	a.n++
	text, term := raw, []byte(nil)
	if bytes.HasSuffix(raw, termLF) { // lines here are cut at '\n' alone
		text, term = splitLine(raw)
	}
	l := matched[n]
	selected := isMatch != r.o.Invert
	var rl printer.RgLine
	switch {
	case r.o.Invert && selected:
		rl = printer.RgLine{Line: search.Line{Number: n, Text: text, Kind: search.KindMatch}}
	case selected:
		rl = printer.RgLine{Line: l}
	case isMatch:
		// -v: a matching line shown as context keeps its matches (rg
		// colours them and lists them in JSON).
		rl = printer.RgLine{Line: l}
		rl.Kind = search.KindContext
	default:
		rl = printer.RgLine{Line: search.Line{Number: n, Text: text, Kind: search.KindContext}}
	}
	rl.Path, rl.Term, rl.Offset = s.path, term, a.off
	a.off += int64(len(raw))
	limited := r.o.Invert && r.o.MaxCount != nil && a.count >= int64(*r.o.MaxCount)
	if limited {
		// Past -v's -m limit only the trailing context is printed (a
		// selected line in it still as a match, as rg 15 does).
		if a.afterLeft == 0 {
			return true, nil
		}
		a.afterLeft--
		return false, a.emit(rl)
	}
	if !selected {
		if r.o.Passthru {
			return false, a.emit(rl)
		}
		if a.afterLeft > 0 {
			a.afterLeft--
			return false, a.emit(rl)
		}
		if b, _ := r.o.ContextLines(); b > 0 {
			rl.Text, rl.Term = bytes.Clone(rl.Text), bytes.Clone(rl.Term)
			if a.before = append(a.before, rl); len(a.before) > b {
				a.before = a.before[1:]
			}
		}
		return false, nil
	}
	a.count++
	a.matches += int64(len(rl.Submatches) + rl.MoreSubmatches)
	for _, c := range a.before {
		if err := a.emit(c); err != nil {
			return true, err
		}
	}
	a.before = a.before[:0]
	_, a.afterLeft = r.o.ContextLines()
	if s.binaryOff >= 0 && r.std != nil {
		// A stream found binary: rg prints a note instead of its lines and
		// stops at the first one it would print.
		return true, nil
	}
	return false, a.emit(rl)
}

// emit prints one line in the run's output mode.
func (a *allLines) emit(rl printer.RgLine) error {
	r, s := a.r, a.s
	switch {
	case r.o.Quiet, r.o.Mode == rgcli.ModeCount, r.o.Mode == rgcli.ModeFilesWithMatches, r.o.Mode == rgcli.ModeCountMatches:
		return nil
	case s.binaryOff >= 0 && r.std != nil:
		return nil
	}
	if r.replacer != nil && len(rl.Submatches) > 0 {
		rl.Replaced, rl.ReplacedSpans = replaceSpans(r.replacer, *r.o.Replace, rl.Line)
	}
	var err error
	if r.js != nil {
		err = r.js.Line(rl)
	} else {
		err = s.std.Line(rl)
	}
	if err == nil && r.flushEach && !r.sorting() {
		err = r.w.Flush()
	}
	return err
}

// finish counts the file and prints its count, name or JSON end.
func (a *allLines) finish() error {
	r, s := a.r, a.s
	count := a.count
	if r.o.Invert && r.o.MaxCount != nil {
		count = min(count, int64(*r.o.MaxCount))
	}
	if count > 0 {
		r.matched = true
		r.files++
		r.lines += count
		r.matches += a.matches
	}
	switch {
	case r.o.Quiet || (count == 0 && !includeZero(r.o)):
	case r.js != nil:
		return r.js.End(s.searchedBytesWhole(), -1)
	case r.o.Mode == rgcli.ModeCount:
		return s.std.Count(s.path, count)
	case r.o.Mode == rgcli.ModeCountMatches:
		if r.o.Invert {
			return s.std.Count(s.path, count)
		}
		return s.std.Count(s.path, a.matches)
	case r.o.Mode == rgcli.ModeFilesWithMatches:
		return s.std.PathLine(s.path)
	case s.binaryOff >= 0:
		return s.std.Binary(s.path, s.binaryOff)
	}
	return nil
}

// quitsAtNUL reports whether rg stops searching t's file, whose first NUL
// is at nul (-1: none), as binary: a file the walk found, without -a or
// --binary, when its read sees the NUL (a mapped read looks in the first
// 64 KiB only, see namedBinary).
func (r *rgRun) quitsAtNUL(t target, nul int64) bool {
	switch {
	case nul < 0 || t.file || r.o.Text || r.o.Binary:
		return false
	case r.mapped:
		return nul < namedBinaryPeek
	}
	return true
}
