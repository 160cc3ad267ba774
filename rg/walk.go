package rg

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"maps"
	"math"
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

// listFiles returns the files rg would search in t, sorted by path (the
// batches of the listing path are searched and printed in this order).
func (r *rgRun) listFiles(ctx context.Context, q search.Query, t target) ([]string, error) {
	var files []string
	err := r.walkFiles(ctx, q, t, func(rel string) error {
		files = append(files, rel)
		return nil
	})
	slices.SortFunc(files, search.ComparePaths)
	return files, err
}

// walkFiles calls fn with each file rg would search in t, in the walk's
// order, one call at a time (fn needs no lock of its own). An error from
// fn ends the walk and is returned.
func (r *rgRun) walkFiles(ctx context.Context, q search.Query, t target, fn func(rel string) error) error {
	q.Root, q.Paths = t.root, t.paths
	q.GlobBase, q.GlobCwd = t.globBase()
	nq, err := search.Normalize(q)
	if err != nil {
		return err
	}
	typeGlobs, err := search.TypeGlobs(nq.Types)
	if err != nil {
		return typeError(err)
	}
	wo := native.WalkOptionsFor(nq, typeGlobs, 0)
	wo.NoStat = wo.MaxFileSize == 0
	var mu sync.Mutex
	wo.OnError = func(e search.FileError) {
		mu.Lock()
		r.errs.report(t, e)
		mu.Unlock()
	}
	_, err = native.Walk(ctx, wo, func(f native.File) error {
		mu.Lock()
		defer mu.Unlock()
		return fn(f.Path)
	})
	return err
}

// listEachFile prints --files for t as the walk finds each file, as rg
// does: nothing is held (listing the Linux tree first and sorting it cost
// 19 MiB more than rg at its peak), and --sort orders what the sink holds
// (rgSink.finishFile).
func (r *rgRun) listEachFile(ctx context.Context, q search.Query, t target) error {
	s := &rgSink{run: r, t: t}
	return r.walkFiles(ctx, q, t, func(rel string) error {
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
		return s.finishFile()
	})
}

// listingBatch is how many listed files one search takes: a search per
// file pays the query's set-up (the root's links resolved, the git
// excludes read, the pattern compiled) for every file, which made
// --files-without-match twenty times slower than rg on a large tree; a
// batch also bounds what is held for -v and --passthru (the matched lines
// of its files) before they are printed.
const listingBatch = 256

// summaryBatch is listingBatch where only counts are printed
// (summaryMode): the matched lines are held without their text, and fewer,
// larger searches keep both cores busy (at 256 files a search, half the
// time went between searches).
const summaryBatch = 2048

// summaryMode says no listed file of t prints a line of its own
// (printsSummary), whichever file: none can be found binary by name (a
// named file, --binary), which prints its lines the long way.
func (r *rgRun) summaryMode(t target) bool {
	return r.printsSummary() && !t.file && !r.o.Binary
}

// runListing prints one target in a listing mode.
func (r *rgRun) runListing(ctx context.Context, chain *search.Chain, q search.Query, t target) error {
	r.openSearched = nil
	if n := nativeEngine(chain); n != nil {
		open, err := n.OpenAsSearched(q)
		if err != nil {
			return err
		}
		r.openSearched = open
	}
	if r.o.Mode == rgcli.ModeFilesWithoutMatch && !r.o.Invert && !r.o.Passthru && !stopsOnNonmatch(r.o) {
		if n := nativeEngine(chain); n != nil {
			return r.listWithoutMatch(ctx, n, q, t)
		}
	}
	if r.countsInverted(t) || r.countsWithZero(t) {
		if n := nativeEngine(chain); n != nil {
			return r.summarizeCounts(ctx, n, q, t)
		}
	}
	if r.countsMatchesWithZero(t) {
		if n := nativeEngine(chain); n != nil && len(chain.Engines) == 1 {
			return r.searchWithZeros(ctx, chain, n, q, t)
		}
	}
	if r.o.Mode == rgcli.ModeFiles {
		return r.listEachFile(ctx, q, t)
	}
	if r.printsEveryLine(t) {
		if n := nativeEngine(chain); n != nil {
			return r.searchEveryLine(ctx, n, q, t)
		}
	}
	files, err := r.listFiles(ctx, q, t)
	if err != nil {
		return err
	}
	batch := listingBatch
	if r.summaryMode(t) {
		batch = summaryBatch // no line's text is held
	}
	for len(files) > 0 {
		n := min(len(files), batch)
		if err := r.searchBatch(ctx, chain, q, t, files[:n]); err != nil {
			return err
		}
		files = files[n:]
	}
	return nil
}

// nativeEngine is the chain's native engine, nil if it has none. The
// listing modes search with it alone: it tells of every file it searched
// (Engine.Searched), where the other engines tell only of matches.
func nativeEngine(chain *search.Chain) *native.Engine {
	for _, e := range chain.Engines {
		if n, ok := e.(*native.Engine); ok {
			return n
		}
	}
	return nil
}

// listWithoutMatch prints --files-without-match for t from one search of
// it by the native engine, which tells of every file it searched (the
// external engines tell only of files with a match, so they sit this
// mode out). Each file is printed as soon as it is searched, as rg prints
// it: nothing is held for the tree (holding every file's result cost 40
// MiB over rg on the Linux tree).
func (r *rgRun) listWithoutMatch(ctx context.Context, n *native.Engine, q search.Query, t target) error {
	q.Mode = search.ModeFilesWithMatches // rg stops reading a file at its first match
	if r.o.Stats {
		q.Mode = search.ModeContent // except to count them all
	}
	// --stats counts the files with a match, their lines and matches: the
	// sink hears the lines, and at the file's End (always after Searched,
	// below) adds them unless Searched found rg stops at the file's NUL.
	var lines, matches int64
	var lastMatch int            // the number of the file's last match line
	var path string              // the file the sink is hearing of
	stopped := map[string]bool{} // files with a match rg stops at a NUL in, until their End
	var mu sync.Mutex
	sink := search.SinkFuncs{
		BeginFunc: func(p string) error {
			path, lines, matches, lastMatch = p, 0, 0, 0
			return nil
		},
		LineFunc: func(l search.Line) error {
			if l.Kind == search.KindMatch {
				lines++
				matches += r.countedMatches(&l, lastMatch)
				lastMatch = l.Number
			}
			return nil
		},
		EndFunc: func(search.FileSummary) error {
			mu.Lock()
			defer mu.Unlock()
			if stopped[path] {
				delete(stopped, path)
				return nil
			}
			if lines > 0 || !r.o.Stats {
				r.files++ // for --stats, as rg counts them
				r.lines += lines
				r.matches += matches
			}
			return nil
		},
	}
	var cut search.Stats // what rg does not count of the files it stops at a NUL in
	res, err := r.searchEveryFile(ctx, n, q, t, sink, false, &mu, func(rel string, fr native.FileResult) error {
		// Binary now means rg stopped at the NUL (not so with --binary,
		// -a or a file named on the command line).
		fr.Binary = fr.Binary && r.quitsAtNUL(t, fr.NULOffset)
		if fr.Binary {
			// rg stops at a NUL in a file it found by walking: it counts
			// neither its bytes nor its matches.
			cut.BytesSearched -= fr.Bytes
			if fr.MatchedLines > 0 {
				cut.MatchedLines -= int64(fr.MatchedLines)
				cut.FilesMatched--
				stopped[rel] = true
			}
		} else if fr.MatchedLines > 0 {
			return nil
		}
		s := &rgSink{run: r, t: t}
		if err := s.Begin(rel); err != nil {
			return err
		}
		// A binary file the walk found is never listed (rg stops at its
		// NUL), yet it counts as a file without a match.
		if err := s.listPath(!fr.Binary); err != nil {
			return err
		}
		return s.finishFile()
	})
	res.Stats.BytesSearched += cut.BytesSearched
	res.Stats.MatchedLines += cut.MatchedLines
	res.Stats.FilesMatched += cut.FilesMatched
	r.addResult(res)
	return err
}

// searchEveryFile runs q over t with the native engine alone and calls
// each with what it found in every file it searched (Engine.Searched),
// also in those without a match, of which the other engines never tell.
// NULs are looked for in every file (a file rg stops at one prints
// otherwise), and with countLines each file's lines are counted
// (Engine.CountLines). each is called from the search's workers with mu
// held, one file at a time; its error ends the search and is returned
// (errQuit included).
func (r *rgRun) searchEveryFile(ctx context.Context, n *native.Engine, q search.Query, t target, sink search.Sink, countLines bool, mu *sync.Mutex, each func(rel string, fr native.FileResult) error) (search.Result, error) {
	q.Root, q.Paths = t.root, t.paths
	q.GlobBase, q.GlobCwd = t.globBase()
	q.Before, q.After = 0, 0
	searchCtx, stop := context.WithCancel(ctx)
	defer stop()
	var failed error
	n.Searched = func(path string, res native.FileResult) {
		mu.Lock()
		defer mu.Unlock()
		if failed != nil {
			return
		}
		if err := each(path, res); err != nil {
			failed = err
			stop()
		}
	}
	noStats, counts := n.NoStats, n.CountLines
	n.NoStats, n.CountLines = false, countLines
	defer func() { n.Searched, n.NoStats, n.CountLines = nil, noStats, counts }()
	res, err := (&search.Chain{Engines: []search.Engine{n}, MaxOutputBytes: -1}).Search(searchCtx, q, errorSink{run: r, t: t, Sink: sink})
	mu.Lock()
	defer mu.Unlock()
	if failed != nil && ctx.Err() == nil {
		return res, failed
	}
	return res, err
}

// readsOwnLines says every file of t is read as its own lines in line
// mode: not -U, --null-data, -z, --pre or an -E encoding, not
// --stop-on-nonmatch, not a stream. Files named on the command line and
// mapped files may be among them: rgSink replays rg's NUL rules for them
// by name (what -v and --passthru need, printsEveryLine).
func (r *rgRun) readsOwnLines(t target) bool {
	o := r.o
	return t.stream == nil && !stopsOnNonmatch(o) && !o.Multiline && !o.SearchZip &&
		o.Pre == "" && (o.Encoding == "" || o.Encoding == "auto")
}

// walksOwnLines is readsOwnLines for files the walk found alone, read,
// where rg stops at a NUL as the engine does: not the NUL rules of files
// named on the command line or mapped. The summary modes searched in one
// pass of the native engine instead of the listing path need it.
func (r *rgRun) walksOwnLines(t target) bool {
	return !t.file && !r.mapped && !r.o.NullData && r.readsOwnLines(t)
}

// countsInverted says -v prints only counts, paths or nothing for t
// (summaryMode), each file's from its number of lines less its matching
// ones: summarizeCounts then has both from one search, and every file it
// reports has its lines counted (native.FileResult.LinesCounted).
// --passthru stays on the listing path, and so does -m with -A, whose
// count only a line-by-line read finds (countsPastInvertedLimit).
func (r *rgRun) countsInverted(t target) bool {
	return r.o.Invert && r.printsSummary() && !r.o.Passthru && r.walksOwnLines(t) && !r.countsPastInvertedLimit()
}

// countsWithZero says -c --include-zero prints t's counts, which
// summarizeCounts has from one search. It leaves -v to countsInverted,
// --count-matches to countsMatchesWithZero, and -q and --stats to the
// listing path. (With --binary it once went there too, which searched
// each binary file as rg prints one, to its first match: -c counted 1.)
func (r *rgRun) countsWithZero(t target) bool {
	o := r.o
	return includeZero(o) && o.Mode == rgcli.ModeCount && !o.Invert && !o.Quiet && !o.Stats &&
		!o.Passthru && r.printsSummary() && r.walksOwnLines(t) &&
		countedAfterContext(o) == 0 // (those matches count on the listing path)
}

// countedAfterContext is the after-context whose matches a count or the
// statistics take in: rg's searcher goes on past the -m-th match to print
// its after-context, and reports a line there that matches as a match (rg
// -c -m1 -A2 can count 3). 0 without -m, and for -v.
func countedAfterContext(o *rgcli.Options) int {
	if o.MaxCount == nil || o.Invert {
		return 0
	}
	_, after := o.ContextLines()
	return after
}

// countsMatchesWithZero says --count-matches --include-zero prints t's
// counts from one search (searchWithZeros): the files printed on the
// search's workers (printsInWorkers), and not -v, -q or --stats, which
// stay on the listing path.
func (r *rgRun) countsMatchesWithZero(t target) bool {
	o := r.o
	return includeZero(o) && o.Mode == rgcli.ModeCountMatches && !o.Invert && !o.Quiet && !o.Stats &&
		!o.Passthru && r.printsInWorkers() && r.printsSummary() && r.walksOwnLines(t)
}

// searchWithZeros prints --count-matches --include-zero for t from one
// search by the native engine: the files with a match print their counts
// as in a search without --include-zero, and the engine tells of the
// others (Engine.Searched), each printed with its 0 as it is searched. The
// listing path searched batches of files named one by one, 2.9x rg's time
// on GOROOT/src. A file rg stops at a NUL before any match prints nothing,
// so every file is looked at for one (NoStats off).
func (r *rgRun) searchWithZeros(ctx context.Context, chain *search.Chain, n *native.Engine, q search.Query, t target) error {
	searchCtx, stop := context.WithCancel(ctx)
	defer stop()
	var failed error
	searched, noStats := n.Searched, n.NoStats
	n.NoStats = false
	n.Searched = func(rel string, fr native.FileResult) {
		if fr.MatchedLines > 0 || (fr.Binary && r.quitsAtNUL(t, fr.NULOffset)) {
			return // (printed by the sink, or nothing: rg stopped at its NUL)
		}
		r.outMu.Lock() // as the files printed on the workers are written out
		defer r.outMu.Unlock()
		if failed != nil {
			return
		}
		s := &rgSink{run: r, t: t}
		err := s.Begin(rel)
		if err == nil {
			err = (&allLines{r: r, s: s}).finish()
		}
		if err == nil {
			err = s.finishFile()
		}
		if err != nil {
			failed = err
			stop()
		}
	}
	defer func() { n.Searched, n.NoStats = searched, noStats }()
	tq := q
	tq.Root, tq.Paths = t.root, t.paths
	tq.GlobBase, tq.GlobCwd = t.globBase()
	res, err := r.search(searchCtx, chain, tq, t)
	r.addResult(res)
	r.outMu.Lock()
	defer r.outMu.Unlock()
	if failed != nil && ctx.Err() == nil {
		return failed
	}
	return err
}

// summarizeCounts prints the counts of countsInverted and countsWithZero
// for t from one search of it by the native engine, which tells of every
// file it searched with its matching lines and, for -v, its number of
// lines (Engine.Searched, Engine.CountLines). The listing path searched
// batches of files named one by one (3.1x rg's time for -c
// --include-zero on GOROOT/src), and for -v then read each file again to
// count its lines. Each file is printed as soon as it is searched, as rg
// prints it, and nothing is held for the tree.
func (r *rgRun) summarizeCounts(ctx context.Context, n *native.Engine, q search.Query, t target) error {
	invert := r.o.Invert
	q.Mode = search.ModeCount
	if invert {
		q.MaxCountPerFile, q.MaxCountSet = 0, false // -m counts the inverted lines (finish)
	}
	// rg -q stops at the first file with a line that does not match.
	quits := invert && r.o.Quiet && !r.o.Stats && (r.o.MaxCount == nil || *r.o.MaxCount > 0)
	var mu sync.Mutex
	res, err := r.searchEveryFile(ctx, n, q, t, search.Discard, invert, &mu, func(rel string, fr native.FileResult) error {
		if quits && !fr.Binary && fr.Lines > int64(fr.MatchedLines) {
			r.matched = true
			return errQuit
		}
		selected := int64(fr.MatchedBeforeStop)
		if invert {
			selected = fr.Lines - selected
		}
		mStopsFirst := r.o.MaxCount != nil && *r.o.MaxCount > 0 && selected >= int64(*r.o.MaxCount)
		if fr.Binary && r.quitsAtNUL(t, fr.NULOffset) && !mStopsFirst {
			// rg stopped at the NUL, where -m did not stop it first: the
			// lines before it count in --stats, but rg prints nothing
			// for the file and it is no match.
			if selected > 0 {
				r.files++
				r.lines += selected
			}
			return nil
		}
		s := &rgSink{run: r, t: t}
		if err := s.Begin(rel); err != nil {
			return err
		}
		if err := (&allLines{r: r, s: s, count: selected}).finish(); err != nil {
			return err
		}
		return s.finishFile()
	})
	if errors.Is(err, errQuit) {
		return err
	}
	r.addResult(res)
	return err
}

// printsEveryLine says -v or --passthru prints t's lines (rg's standard
// or JSON output) from one search of it by the native engine
// (Engine.Invert, Engine.Passthru), on its parallel workers and through
// the run's sink, as a search without them. It leaves to the listing
// path what reads a file otherwise than as its own lines in line mode
// (-U, --null-data, -z, --pre, -E), --stop-on-nonmatch and -q. Binary
// files take this path too, whatever rg does with their NULs: the engine
// splits lines at them where rg reads each as a line break (--binary, a
// named file read), and rgSink.Line cuts the lines where rg notices one
// (the listing path printed them whole, numbered and offset as text, and
// printed on past the NUL). -v with --passthru and -m stays on the listing
// path (rg's -m counts oddly with both), as does -P with -m (rg's searcher goes
// line by line there, and past -m prints what the engine's replay of its
// faster search does not).
func (r *rgRun) printsEveryLine(t target) bool {
	o := r.o
	return (o.Invert != o.Passthru || o.MaxCount == nil) && (o.Mode == rgcli.ModeStandard || o.Mode == rgcli.ModeJSON) && !o.Quiet &&
		r.legacy == nil && !(o.PCRE2 && o.MaxCount != nil) && (r.readsOwnLines(t) || r.invertsFinds(t))
}

// invertsFinds says -v -U's lines for t come from one search, which
// selects the lines the finds of rg's inverted searcher leave as it goes
// (native.SearchOptions.InvertFinds): the listing path held every
// matching line of a file, its text too, before printing the others.
func (r *rgRun) invertsFinds(t target) bool {
	o := r.o
	return r.multiLine && o.Invert && !o.Passthru && t.stream == nil && !o.SearchZip && o.Pre == "" &&
		(o.Encoding == "" || o.Encoding == "auto")
}

// searchEveryLine prints -v's or --passthru's lines for t
// (printsEveryLine) from one search of it by the native engine, which
// emits the selected lines as matches and the others as context (see
// native.SearchOptions.Invert): the listing path searched batches of
// files named one by one, held their matching lines, then read each file
// again on one goroutine to print it.
func (r *rgRun) searchEveryLine(ctx context.Context, n *native.Engine, q search.Query, t target) error {
	q.Root, q.Paths = t.root, t.paths
	q.GlobBase, q.GlobCwd = t.globBase()
	invert, passthru, fileSink, inOrder := n.Invert, n.Passthru, n.FileSink, n.InOrder
	n.Invert, n.Passthru, n.InvertFinds = r.o.Invert, r.o.Passthru, r.invertsFinds(t)
	if r.printsInWorkers() && !t.file { // (as search: a named file prints through the run's sink)
		n.FileSink = func(string) search.Sink { return r.ownSink(t) }
		n.InOrder = r.walkPassed()
	}
	defer func() {
		n.Invert, n.Passthru, n.FileSink, n.InOrder, n.InvertFinds = invert, passthru, fileSink, inOrder, false
	}()
	nq, err := search.Normalize(q)
	if err != nil {
		return err
	}
	// The engine itself, not a Chain: a Chain's collector passes on only
	// the context lines the query's -B/-A ask for, which drops
	// --passthru's.
	st, err := n.Search(ctx, nq, r.sinkFor(t))
	r.addResult(search.Result{Backend: n.Name(), Stats: st})
	return err
}

// search runs tq over t through the chain. A chain of the native engine
// alone prints each file on the search's worker where it can
// (printsInWorkers), as -v and --passthru do: printed one line at a time
// under the search's lock, printing was the search's bottleneck wherever
// many lines print.
func (r *rgRun) search(ctx context.Context, chain *search.Chain, tq search.Query, t target) (search.Result, error) {
	if n := nativeEngine(chain); n != nil && len(chain.Engines) == 1 && r.printsInWorkers() && !t.file {
		fileSink, inOrder := n.FileSink, n.InOrder
		n.FileSink = func(string) search.Sink { return r.ownSink(t) }
		n.InOrder = r.walkPassed()
		defer func() { n.FileSink, n.InOrder = fileSink, inOrder }()
	}
	return chain.Search(ctx, tq, r.sinkFor(t))
}

// printsInWorkers says each file's lines are printed on the search's
// worker into a buffer of the file's own, and the buffer written out when
// the file is done, as rg prints: printed one at a time under the
// search's lock, the printing was most of the run's time where many lines
// print (-v, --passthru, context, JSON). rg's own formats only (with
// JSON each file has a printer of its own whose counts the run's absorbs,
// RgJSON.Absorb), and not with -j1, where --line-buffered writes each line
// as it is printed.
func (r *rgRun) printsInWorkers() bool {
	return (r.std != nil || r.js != nil) && r.legacy == nil && r.o.Threads != 1
}

// listedFile is what a batch's search found in one of its files.
type listedFile struct {
	binary     bool                // rg stops at its NUL: nothing in it counts
	unreadable bool                // reported: not listed as without a match
	matched    map[int]search.Line // its matching lines by number
	// stopAt, when above 0, is where rg stopped reading a walked file it
	// reads through a decoder (-E, -z, --pre) at its NUL (at nul): the
	// lines before print, then rg's note (see streamCut).
	stopAt, nul int64
}

// searchBatch searches a batch of listed files in one search and prints
// each in the listing mode, in the batch's order.
func (r *rgRun) searchBatch(ctx context.Context, chain *search.Chain, q search.Query, t target, rels []string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	found := make(map[string]*listedFile, len(rels))
	var searched []string
	afterSearch := func() {}
	n := nativeEngine(chain)
	if n != nil {
		// The native engine says which files hold a NUL as it searches
		// them (below): they need no read of their own first.
		for _, rel := range rels {
			found[rel] = &listedFile{}
		}
		searched = rels
		chain = &search.Chain{Engines: []search.Engine{n}, MaxOutputBytes: -1}
		var mu sync.Mutex
		binaries := map[string]native.FileResult{}
		n.Searched = func(path string, res native.FileResult) {
			if res.Binary && r.quitsAtNUL(t, res.NULOffset) {
				mu.Lock()
				binaries[path] = res
				mu.Unlock()
			}
		}
		noStats := n.NoStats
		n.NoStats = false // a file's NUL is looked for even where no match can be
		defer func() { n.Searched, n.NoStats = nil, noStats }()
		afterSearch = func() {
			// rg stops at a NUL in a file it found by walking: it counts
			// the file as searched, but neither its bytes nor its matches.
			var st search.Stats
			for path, fr := range binaries {
				st.BytesSearched -= fr.Bytes
				st.MatchedLines -= int64(fr.MatchedLines)
				if fr.MatchedLines > 0 {
					st.FilesMatched--
				}
				if lf := found[path]; lf != nil {
					if r.streamCut(ctx, t, path, lf) {
						continue
					}
					lf.binary, lf.matched = true, nil
				}
			}
			r.addResult(search.Result{Stats: st})
		}
	} else {
		binaries := int64(0)
		for _, rel := range rels {
			lf := &listedFile{binary: r.quitsAtNUL(t, firstNUL(filepath.Join(t.root, filepath.FromSlash(rel))))}
			found[rel] = lf
			if lf.binary {
				// rg stops at a NUL in a file it found by walking: it counts
				// the file as searched, but neither its bytes nor its matches.
				binaries++
				continue
			}
			searched = append(searched, rel)
		}
		r.addResult(search.Result{Stats: search.Stats{FilesSearched: binaries, Binary: binaries}})
	}
	if len(searched) > 0 {
		q.Root, q.Paths = t.root, searched
		q.Before, q.After, q.Mode = 0, 0, search.ModeContent
		if m := r.o.Mode; m == rgcli.ModeCount || m == rgcli.ModeCountMatches {
			q.After = countedAfterContext(r.o) // (the search reports its matches)
		}
		if r.o.Invert && !r.multiLine {
			q.MaxCountPerFile = 0 // -m counts the inverted lines, below
		}
		if n != nil && r.o.Invert && r.multiLine {
			n.InvertFinds = true // the lines no find touches are -v's
			defer func() { n.InvertFinds = false }()
		}
		keepText := r.o.Mode != rgcli.ModeFilesWithoutMatch && !r.summaryMode(t)
		var cur *listedFile
		sink := batchSink{errorSink: errorSink{run: r, t: t, Sink: search.SinkFuncs{
			BeginFunc: func(path string) error {
				cur = found[path]
				if cur == nil { // an engine that names the file otherwise
					cur = &listedFile{}
					found[path] = cur
				}
				return nil
			},
			LineFunc: func(l search.Line) error {
				if l.Kind != search.KindMatch || cur == nil {
					return nil
				}
				if cur.matched == nil {
					cur.matched = map[int]search.Line{}
				}
				if keepText {
					l.Text = bytes.Clone(l.Text)
					l.Submatches = slices.Clone(l.Submatches)
				} else {
					// (only counted: rg's --stats with --files-without-match,
					// and the summary modes)
					l.Text, l.MoreSubmatches, l.Submatches = nil, l.MoreSubmatches+len(l.Submatches), nil
				}
				cur.matched[l.Number] = l
				return nil
			},
		}}, found: found}
		res, err := chain.Search(ctx, q, sink)
		r.addResult(res)
		afterSearch()
		if err != nil {
			return err
		}
	}
	for _, rel := range rels {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := r.printListed(ctx, t, rel, found[rel]); err != nil {
			return err
		}
	}
	return nil
}

// batchSink marks the files whose read failed, besides reporting them.
type batchSink struct {
	errorSink
	found map[string]*listedFile
}

// FileError implements search.FileErrorSink.
func (s batchSink) FileError(e search.FileError) error {
	if lf := s.found[e.Path]; lf != nil {
		lf.unreadable = true
	}
	return s.errorSink.FileError(e)
}

// printListed prints one listed file in the listing mode, given what the
// search found in it.
func (r *rgRun) printListed(ctx context.Context, t target, rel string, lf *listedFile) error {
	if lf.unreadable && !readsTransformed(r.o, filepath.Join(t.root, filepath.FromSlash(rel))) {
		return nil
	}
	s := &rgSink{run: r, t: t}
	if err := s.Begin(rel); err != nil {
		return err
	}
	matched := lf.matched
	if r.o.Mode == rgcli.ModeFilesWithoutMatch {
		selected := int64(len(matched))
		if r.o.Invert && !lf.binary { // (rg counts nothing of a file it stopped at a NUL)
			// -v: the file has a match where it has a line that does not
			// match (it was listed when no line matched).
			total, err := r.countListedLines(ctx, s)
			if err != nil {
				if !lf.unreadable && !readsTransformed(r.o, s.abs) {
					return err
				}
				return nil // (the search reported it; such a file is not listed)
			}
			selected = total - selected
			if selected > 0 {
				r.files++
				r.lines += selected
			}
		} else if selected > 0 {
			r.files++ // for --stats, as rg counts them
			for _, l := range matched {
				r.lines++
				r.matches += int64(l.Matches())
			}
		}
		if selected == 0 {
			// A binary file the walk found is never listed (rg stops at its
			// NUL), yet it counts as a file without a match.
			if err := s.listPath(!lf.binary); err != nil {
				return err
			}
		}
		return s.finishFile()
	}
	if lf.binary {
		return s.finishFile()
	}
	s.walkStop, s.walkNUL = lf.stopAt, lf.nul
	lines := r.printAllLines
	if r.summaryOnly(s) && !(stopsOnNonmatch(r.o) && (r.o.Invert || printsStats(r.o))) && !r.countsPastInvertedLimit() {
		// Nothing but a count or the path is printed: the search's matched
		// lines say it all, with the file's number of lines for -v. (Not
		// where --stop-on-nonmatch's stop is to be found line by line, or
		// counted for the statistics, nor where -v's -m has a trailing
		// context whose selected lines count.)
		lines = r.summarizeListed
	}
	if err := lines(ctx, s, matched); err != nil {
		if !lf.unreadable && !readsTransformed(r.o, s.abs) || ctx.Err() != nil {
			return err
		}
		// A file read through a decompressor or a --pre command that
		// failed part way: the search, which read it the same way,
		// reported it; the lines before the failure print, as in rg.
		return nil
	}
	return s.finishFile()
}

// streamCut sets lf up for a walked file that holds a NUL and that rg
// reads through a decoder (transcoded, decompressed, a --pre command's
// output), where the listing prints lines: rg searched the lines of its
// buffer fills before the one that brought the NUL in (its first read is
// the few bytes its decoder peeked at for a byte-order mark) and printed
// them, then its "stopped searching binary file" note. The batch's search
// read such a file by name, past its NULs. false: nothing of it prints
// (the NUL came with the first fill), or the listing prints no lines.
func (r *rgRun) streamCut(ctx context.Context, t target, rel string, lf *listedFile) bool {
	o := r.o
	if !(o.Mode == rgcli.ModeStandard || o.Mode == rgcli.ModeJSON) || o.Quiet || r.summaryMode(t) || o.NullData {
		return false
	}
	abs := filepath.Join(t.root, filepath.FromSlash(rel))
	if !readsTransformed(o, abs) || r.openSearched == nil {
		return false
	}
	f, _, err := r.openSearched(ctx, abs, rel)
	if err != nil {
		return false
	}
	defer f.Close()
	stop, nul, lines := decodedReadStop(f)
	if stop <= 0 {
		return false
	}
	for n := range lf.matched {
		if n > lines {
			delete(lf.matched, n)
		}
	}
	lf.stopAt, lf.nul = stop, nul
	return true
}

// printAllLines prints a file line by line: --passthru prints matches and
// everything else as context; -v prints the lines that do not match.
func (r *rgRun) printAllLines(ctx context.Context, s *rgSink, matched map[int]search.Line) error {
	f, permuted, err := r.openListed(ctx, s)
	if err != nil {
		return err
	}
	defer f.Close()
	if r.lineReader == nil {
		r.lineReader = bufio.NewReaderSize(f, 64<<10)
	}
	br := r.lineReader
	br.Reset(f)
	defer br.Reset(nil)
	all := allLines{r: r, s: s, n: 1, permuted: permuted, read: true}
	var long []byte // a line longer than br's buffer, pieced together
	for n := 0; ; n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		// (each line is printed or copied before the next is read, so
		// br's buffer serves without a copy per line)
		raw, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long[:0], raw...)
			for errors.Is(err, bufio.ErrBufferFull) {
				raw, err = br.ReadSlice('\n')
				long = append(long, raw...)
			}
			raw = long
		}
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
	// permuted: the lines come with their bytes permuted for --null-data
	// (native.NullDataReader), each ending in '\n' for a NUL.
	permuted bool
	// printed: a line went out (rg's JSON then ends the file, even with
	// no line selected: --passthru's context). read: the file's lines
	// came through line, all of them unless stopped.
	printed bool
	read    bool
	// stopped: rg stopped reading the file (--stop-on-nonmatch, -v's -m)
	// at stopOff; the statistics count no further.
	stopped bool
	stopOff int64
	// slow: -v --stop-on-nonmatch went on line by line, past the first run
	// of selected lines (from runStart) and its first step (see line and
	// pastLimitLine). firstFill is where the complete lines of rg's first
	// read of a stream end (see stepsOver).
	slow      bool
	runStart  int64
	firstFill int64
	// limitAt is where the line that reached -v's -m limit starts;
	// bufEnd is bufferEnd's last answer, for bufEndFor-1.
	limitAt           int64
	bufEnd, bufEndFor int64
	// pastLimit counts the lines rg selects past -v's -m limit when it
	// reached it line by line (see line): they count beyond the limit.
	pastLimit int64
}

// summaryOnly says a listed file prints no line of its own (printsSummary)
// and no NUL found by name holds its lines up. A count is never held up:
// rg stops a binary file at its first match only where it prints lines
// ("binary file matches"), and -c and --count-matches count to the end
// (they counted 1).
func (r *rgRun) summaryOnly(s *rgSink) bool {
	counts := r.o.Mode == rgcli.ModeCount || r.o.Mode == rgcli.ModeCountMatches
	return r.printsSummary() && (s.binaryOff < 0 || (counts && !r.o.Quiet))
}

// printsSummary says the listing mode prints a count, the path or nothing
// for each file, no line: -c, --count-matches, -l, or -q without --json.
func (r *rgRun) printsSummary() bool {
	if r.js != nil {
		return false
	}
	m := r.o.Mode
	return r.o.Quiet || m == rgcli.ModeCount || m == rgcli.ModeCountMatches || m == rgcli.ModeFilesWithMatches
}

// countsPastInvertedLimit reports -v with -m and -A or --passthru: rg 15
// counts the selected lines inside the trailing context of the -m-th (rg
// -v -c -m 2 -A 2 can print 4), and with --passthru every line after it,
// which only a line-by-line read finds (pastLimitLine).
func (r *rgRun) countsPastInvertedLimit() bool {
	_, after := r.o.ContextLines()
	return r.o.Invert && r.o.MaxCount != nil && (after > 0 || r.o.Passthru)
}

// summarizeListed finishes a listed file whose lines are not printed from
// the search's matched lines alone, as printAllLines' loop would count
// them: without -v the selected lines are the matched ones (with
// --stop-on-nonmatch, their first run of consecutive lines); with -v
// (and no --stop-on-nonmatch) the file's other lines, counted in one read
// of it. -m is already applied by the search, and to -v by finish.
func (r *rgRun) summarizeListed(ctx context.Context, s *rgSink, matched map[int]search.Line) error {
	a := allLines{r: r, s: s}
	if r.o.Invert {
		total, err := r.countListedLines(ctx, s)
		if err != nil {
			return err
		}
		a.count = total - int64(len(matched))
		return a.finish()
	}
	numbers := slices.Sorted(maps.Keys(matched))
	for i, n := range numbers {
		if stopsOnNonmatch(r.o) && i > 0 && n != numbers[i-1]+1 {
			break // rg reads no further than the first line after the run
		}
		l := matched[n]
		a.count++
		a.matches += int64(l.Matches())
	}
	return a.finish()
}

// lineBuf is the buffer countReaderLines reads into, reused across files.
func (r *rgRun) lineBuf() []byte {
	if r.countBuf == nil {
		r.countBuf = make([]byte, 64<<10)
	}
	return r.countBuf
}

// lineEnds is which bytes end a line for countReaderLines.
type lineEnds uint8

const (
	endLF      lineEnds = iota // '\n'
	endLFOrNUL                 // '\n' and NUL: rg reads each NUL as a line break
	endNUL                     // NUL alone: --null-data
)

// openListed opens a listed file as the search read it: the --pre
// command's output, decompressed (-z), transcoded (-E), permuted for
// --null-data (permuted says so). Its raw bytes printed -z's compressed
// data as lines (and -v -c counted -1).
func (r *rgRun) openListed(ctx context.Context, s *rgSink) (io.ReadCloser, bool, error) {
	if r.openSearched == nil {
		f, err := os.Open(s.abs)
		return f, false, err
	}
	return r.openSearched(ctx, s.abs, s.rel)
}

// countListedLines is the number of lines of a listed file as the search
// read it (openListed): counted at its NULs under --null-data, which it
// reads permuted, each NUL a '\n'.
func (r *rgRun) countListedLines(ctx context.Context, s *rgSink) (int64, error) {
	f, permuted, err := r.openListed(ctx, s)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	ends := s.lineEnds()
	if permuted {
		ends = endLF
	}
	return countReaderLines(f, r.lineBuf(), ends)
}

// countReaderLines returns the number of lines f holds as the search splits
// them (ends), one for a last line without an end.
func countReaderLines(f io.Reader, buf []byte, ends lineEnds) (int64, error) {
	var lines int64
	ended := true // the data so far ends with a line end
	for {
		n, err := f.Read(buf)
		if n > 0 {
			last := buf[n-1]
			if ends != endNUL {
				lines += int64(bytes.Count(buf[:n], termLF))
			}
			if ends != endLF {
				lines += int64(bytes.Count(buf[:n], nulByte))
			}
			ended = (last == '\n' && ends != endNUL) || (last == 0 && ends != endLF)
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return 0, err
		}
	}
	if !ended {
		lines++
	}
	return lines, nil
}

// line prints raw, line a.n with its terminator; done reports that the -m
// limit and its trailing context are past.
func (a *allLines) line(raw []byte, matched map[int]search.Line) (done bool, err error) {
	r, s, n := a.r, a.s, a.n
	if s.walkStop > 0 && a.off >= s.walkStop {
		return true, nil // rg stopped at the fill that brought the NUL
	}
	if (s.readStop >= 0 || s.lateNUL) && r.std != nil && a.printsLines() && s.binaryFrom(a.off, raw) {
		// A named file's NUL, where rg stops its lines (see namedBinary):
		// its "binary file matches" note follows the lines before.
		return true, nil
	}
	l, isMatch := matched[n]
	stopHere, skipHere := false, false
	if stopsOnNonmatch(r.o) && !a.pastMaxCount() { // (past -v's -m, its trailing context ends the file)
		switch {
		case isMatch != r.o.Invert:
			if !a.succeeded {
				a.succeeded, a.runStart = true, a.off
			}
		case a.succeeded && r.o.Invert && !r.o.Passthru && !a.slow && a.stepsOver(a.off+int64(len(raw))):
			// rg's -v takes the first run of selected lines in one step
			// that ends past the matching line after it, when both are
			// in one buffer of its: it does not stop at that line (nor
			// print it as after-context); the next is the first it
			// checks (and may select) line by line.
			a.slow, skipHere = true, true
		case a.succeeded:
			stopHere = true // rg reads no further than this line
		}
	}
	a.n++
	text, term := raw, []byte(nil)
	switch {
	case a.permuted:
		if bytes.HasSuffix(raw, termLF) {
			text, term = raw[:len(raw)-1], nulByte
		}
		text = native.UnpermuteLine(native.Line{Text: text}).Text
	case bytes.HasSuffix(raw, termLF): // lines here are cut at '\n' alone
		text, term = splitLine(raw)
	}
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
	if a.permuted {
		// The record's text up to its NUL: the matcher's line may have
		// left a line break at its end out (a '\n' is a '\r' there).
		rl.Text = text
	}
	a.off += int64(len(raw))
	if a.off <= streamPeek {
		a.firstFill = a.off
	}
	if skipHere {
		a.holdBefore(rl) // (it is a -B context line of the next selected one)
		return false, nil
	}
	if stopHere {
		// --stop-on-nonmatch: the first line after the run of selected
		// ones still prints as the after-context owed or as --passthru's,
		// then rg stops, having read to its end.
		a.stopped, a.stopOff = true, a.off
		if (r.o.Passthru || a.afterLeft > 0) && !a.binaryStops() {
			if !r.o.Passthru && s.std != nil {
				s.std.Visited(rl.Number - 1) // rg puts no "--" before after-context
			}
			return true, a.emit(rl)
		}
		return true, nil
	}
	if a.pastMaxCount() {
		return a.pastLimitLine(rl, raw, selected)
	}
	if !selected {
		if (r.o.Passthru || a.afterLeft > 0) && a.binaryStops() {
			return true, nil
		}
		if r.o.Passthru {
			return false, a.emit(rl)
		}
		if a.afterLeft > 0 {
			a.afterLeft--
			return false, a.emit(rl)
		}
		a.holdBefore(rl)
		return false, nil
	}
	if a.binaryStops() {
		// The line counts unless a -B context line before it stopped rg
		// first.
		if len(a.before) == 0 {
			a.count++
			a.matches += int64(rl.Matches())
		}
		return true, nil
	}
	a.count++
	a.matches += int64(rl.Matches())
	if a.pastMaxCount() {
		a.limitAt = rl.Offset
	}
	for _, c := range a.before {
		if err := a.emit(c); err != nil {
			return true, err
		}
	}
	a.before = a.before[:0]
	_, a.afterLeft = r.o.ContextLines()
	return false, a.emit(rl)
}

// pastLimitLine is line for a line past -v's -m limit: only the trailing
// context is printed (a selected line in it still as a match, as rg 15
// does).
func (a *allLines) pastLimitLine(rl printer.RgLine, raw []byte, selected bool) (done bool, err error) {
	o := a.r.o
	if o.Passthru && !a.binaryStops() {
		// -v --passthru past -m: rg prints every line left as a match
		// and counts it (its matches are those of the pattern's).
		rl.Kind = search.KindMatch
		a.pastLimit++
		a.matches += int64(rl.Matches())
		return false, a.emit(rl)
	}
	if !a.slow && stopsOnNonmatch(o) && !o.Passthru && a.afterLeft > 0 && !a.stepsOver(a.off) {
		a.slow = true // the context owed goes past rg's first step
	}
	if a.slow {
		// -v --stop-on-nonmatch past -m, line by line: rg stops after
		// the last line, unless context is owed; then its search matches
		// nothing more, so every line is selected, printed as a match and
		// owes the context again, to the end.
		if a.afterLeft == 0 || a.binaryStops() {
			a.stopped, a.stopOff = true, a.off-int64(len(raw))
			return true, nil
		}
		rl.Kind = search.KindMatch
		a.pastLimit++
		a.matches += int64(rl.Matches())
		return false, a.emit(rl)
	}
	// rg has read to the end of the matching line that ended the run of
	// selected lines, or of a selected line in the trailing context after
	// it, where it moves back to.
	if !selected && !a.stopped || selected && a.afterLeft > 0 {
		a.stopped, a.stopOff = true, a.off
	}
	if a.afterLeft == 0 && selected && !a.stopped {
		if a.s.t.stream == nil && a.off <= a.bufferEnd(a.limitAt) {
			return false, nil // (the run goes on in rg's buffer: its read ends past it)
		}
		a.stopped, a.stopOff = true, a.off-int64(len(raw)) // (at its buffer's end)
		return true, nil
	}
	if a.afterLeft == 0 || a.binaryStops() {
		return true, nil
	}
	a.afterLeft--
	if selected {
		a.pastLimit++ // rg 15 counts a selected line in the trailing context
		a.matches += int64(rl.Matches())
	}
	return false, a.emit(rl)
}

// streamPeek is how much rg's first read of a stream takes (its
// byte-order-mark sniffer's).
const streamPeek = 3

// maxStepSpan bounds how far stepsOver reads a file to replay rg's
// buffer fills: a run and its end farther apart are not in one fill.
const maxStepSpan = 8 << 20

// stepsOver says rg's first search step over a -v run of selected lines
// (from a.runStart) reaches end: both are in one buffer of rg's.
func (a *allLines) stepsOver(end int64) bool { return end <= a.bufferEnd(a.runStart) }

// bufferEnd is where the buffer of rg's that holds offset from ends (the
// last answer is kept): a mapped file is one buffer; a file read comes in
// fills (native.FillEnd); a stream's first read takes a few bytes and,
// for an input that is not large, the next one the rest.
func (a *allLines) bufferEnd(from int64) int64 {
	if a.bufEndFor == from+1 {
		return a.bufEnd
	}
	s := a.s
	a.bufEndFor = from + 1
	switch {
	case s.t.stream != nil && from < a.firstFill:
		a.bufEnd = a.firstFill
	case s.t.stream != nil, s.t.file && a.r.mapped:
		a.bufEnd = math.MaxInt64
	default:
		a.bufEnd = from // (unreadable: no buffer past the line)
		if f, err := os.Open(s.abs); err == nil {
			head := make([]byte, from+maxStepSpan)
			n, _ := io.ReadFull(f, head)
			f.Close()
			a.bufEnd = int64(native.FillEnd(head[:n], int(from)))
		}
	}
	return a.bufEnd
}

// pastMaxCount says -v's -m limit is reached: only the trailing context
// is printed from here (a selected line in it still as a match, as rg 15
// does).
func (a *allLines) pastMaxCount() bool {
	o := a.r.o
	return o.Invert && o.MaxCount != nil && a.count >= int64(*o.MaxCount)
}

// holdBefore keeps rl, a line not printed, among the last -B lines.
func (a *allLines) holdBefore(rl printer.RgLine) {
	if b, _ := a.r.o.ContextLines(); b > 0 {
		rl.Text, rl.Term = bytes.Clone(rl.Text), bytes.Clone(rl.Term)
		if a.before = append(a.before, rl); len(a.before) > b {
			a.before = a.before[1:]
		}
	}
}

// binaryStops says the stream was found binary where its lines print: rg
// prints no line from there, stops at the first one it would print (a
// context line too), and says "binary file matches" if a line was
// selected before. Counts (-c, --count-matches) and -l read on.
func (a *allLines) binaryStops() bool {
	return a.s.binaryOff >= 0 && a.r.std != nil && a.printsLines()
}

// printsLines says the run's output mode prints lines (not -q, -c,
// --count-matches or -l).
func (a *allLines) printsLines() bool {
	m := a.r.o.Mode
	return !a.r.o.Quiet && m != rgcli.ModeCount && m != rgcli.ModeFilesWithMatches && m != rgcli.ModeCountMatches
}

// emit prints one line in the run's output mode.
func (a *allLines) emit(rl printer.RgLine) error {
	r, s := a.r, a.s
	if !a.printsLines() || a.binaryStops() {
		return nil
	}
	if r.replacer != nil && len(rl.Submatches) > 0 {
		rl.Replaced, rl.ReplacedSpans = replaceSpans(r.replacer, *r.o.Replace, rl.Line)
	}
	var err error
	a.printed = true
	if r.js != nil {
		err = r.js.Line(rl)
	} else {
		err = s.std.Line(rl)
	}
	if err == nil && s.flushesEachLine() {
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
	count += a.pastLimit
	if count > 0 {
		r.matched = true
		r.files++
		r.lines += count
		r.matches += a.matches
	}
	searched := s.searchedBytesWhole()
	if a.read && s.t.stream == nil && readsTransformed(r.o, s.abs) {
		searched = a.off // the bytes as read: decompressed, transcoded
	}
	if a.stopped && a.stopOff < searched {
		if printsStats(r.o) {
			r.bytesCut += searched - a.stopOff // (the search counted all of it)
		}
		searched = a.stopOff
	}
	switch {
	case r.o.Quiet && r.js != nil:
		// rg --json -q prints only the summary, which counts the lines
		matches := a.matches
		if r.o.Invert {
			matches = count
		}
		r.js.Count(count, matches)
	case r.o.Quiet:
	case r.js != nil && (count > 0 || a.printed):
		binaryOff := int64(-1)
		if st := s.t.stream; st != nil {
			binaryOff = st.binaryOff // (a file's goes through the engine's search, not here)
		}
		if s.walkStop > 0 {
			binaryOff = s.walkNUL
		}
		return r.js.End(searched, binaryOff)
	case count == 0 && !includeZero(r.o):
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
	case s.walkStop > 0:
		return s.std.BinaryStopped(s.path, s.walkNUL)
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
