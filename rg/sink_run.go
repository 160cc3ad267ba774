package rg

import (
	"github.com/rgkit/rgkit/internal/rgcli"
	"github.com/rgkit/rgkit/search"
)

// LineRun prints a run of whole lines (search.RunSink): through the
// printer's Run when every rule Line applies to a line without matches
// comes to printing it as it is, else a line at a time through Line.
func (s *rgSink) LineRun(run search.LineRun) error {
	if !s.takesRun(run) {
		return run.Each(s.Line)
	}
	if !s.std.TakesRun(run.Number) {
		// The file's first line (or one after a gap) sets the printer up:
		// it goes alone, the rest as a run.
		first, rest := run.SplitFirst()
		if err := first.Each(s.Line); err != nil || rest.Lines == 0 {
			return err
		}
		if !s.takesRun(rest) || !s.std.TakesRun(rest.Number) {
			return rest.Each(s.Line)
		}
		run = rest
	}
	r := s.run
	if run.Kind == search.KindMatch {
		s.lines += int64(run.Lines)
		if !s.own {
			r.matched = true
		}
		s.lastMatchEnd = run.Offset + int64(len(run.Text))
	}
	if err := s.std.Run(s.path, run); err != nil {
		return err
	}
	return s.afterPrint()
}

// takesRun reports whether Line would print each line of run as the
// standard printer prints a plain line (if the printer takes runs: see
// printer.Standard.TakesRun), with nothing else to note: no
// binary file rule, statistics-only mode, -m, -q, replacement, CRLF
// matching, held multiline block or per-line flush in play.
func (s *rgSink) takesRun(run search.LineRun) bool {
	r := s.run
	return r.legacy == nil && r.js == nil && r.std != nil && s.std != nil && !s.binaryDone &&
		s.t.stream == nil && !statsSearchWhole(r.o) && r.o.Mode == rgcli.ModeStandard &&
		r.o.MaxCount == nil && !r.o.Quiet && r.replacer == nil && r.crlf == nil && !r.holdsBlocks() &&
		s.binaryOff < 0 && !s.lateNUL && (s.readStop < 0 || run.Offset+int64(len(run.Text)) <= s.readStop) &&
		!s.flushesEachLine()
}
