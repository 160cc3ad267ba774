package printer

import (
	"bytes"
	"strconv"

	"github.com/rgkit/rgkit/search"
)

// TakesRun reports whether Run can print a run of lines starting at line
// first: each line is printed as its prefix and its own bytes (no colour,
// trimming, column cap, per-match lines, byte offsets, hyperlinks, or a
// terminator of the printer's own), and the file's first line, or a
// separator before the run, is already behind (Line prints those).
func (p *Standard) TakesRun(first int) bool {
	c := &p.cfg
	return p.fileStarted && !c.Color && !c.Trim && c.MaxColumns == 0 && !c.OnlyMatching && !c.Vimgrep &&
		!c.ByteOffset && p.linkStart(1, 1) == "" && c.Terminator == nil &&
		!(c.Context && c.ContextSeparator != nil && first > p.lastLine+1)
}

// Run prints the lines of r, printed by path, as Line prints each; only
// when TakesRun(r.Number) says so. It is rg -v's and --passthru's path,
// where nearly every line of the tree prints: a line costs a prefix and a
// copy, not a call through the search's layers.
func (p *Standard) Run(path string, r search.LineRun) error {
	sep := p.matchSep
	if r.Kind != search.KindMatch {
		sep = p.contextSep
	}
	withPath := p.cfg.WithFilename && !p.cfg.Heading
	b := p.buf[:0]
	text, n := r.Text, r.Number
	for len(text) > 0 {
		i := bytes.IndexByte(text, '\n')
		if i < 0 {
			i = len(text) - 1 // (a run's lines all end in '\n')
		}
		if withPath {
			b = append(b, path...)
			if p.cfg.Null {
				b = append(b, 0)
			} else {
				b = append(b, sep...)
			}
		}
		if p.cfg.LineNumber {
			b = strconv.AppendInt(b, int64(n), 10)
			b = append(b, sep...)
		}
		b = append(b, text[:i+1]...)
		text = text[i+1:]
		n++
		if len(b) >= 64<<10 {
			if err := p.flush(b); err != nil {
				return err
			}
			b = p.buf
		}
	}
	p.lastLine = n - 1
	p.anyPrinted = true
	if len(b) == 0 {
		return nil
	}
	return p.flush(b)
}
