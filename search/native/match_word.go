package native

import (
	"regexp"
	"regexp/syntax"
	"unicode/utf8"

	"github.com/rgkit/rgkit/internal/runeclass"
)

// compileWord builds rg -w's two regexps around the rewritten pattern:
// `(?:^|\W)(pat)(?:\W|$)`, used at the start of a line, and `\W(pat)(?:\W|$)`,
// used after a previous match, where rg's captures_read_at can no longer
// match ^ (see BurntSushi/ripgrep crates/regex/src/word.rs). The match is
// capture group 1.
func (m *Matcher) compileWord(inner string) error {
	nonWord, err := syntax.Parse(runeclass.RgNonWord, syntax.Perl)
	if err != nil {
		return err
	}
	if err := rewriteForRg(nonWord, m.multi); err != nil {
		return err
	}
	w := nonWord.String()
	if m.wordFirst, err = regexp.Compile(`(?m)(?:^|` + w + `)(` + inner + `)(?:` + w + `|$)`); err != nil {
		return err
	}
	if m.wordMid, err = regexp.Compile(`(?m)` + w + `(` + inner + `)(?:` + w + `|$)`); err != nil {
		return err
	}
	m.wordWhole, err = regexp.Compile(`\A(?:` + inner + `)\z`)
	return err
}

// wordSpans appends the spans of rg -w matches in one line, exactly as rg
// 13 reports them (grep-regex's WordMatcher::find_at, driven by
// grep-matcher's find_iter), bugs included: the conformance suite pins
// rg 13's spans for every engine.
//
// rg 13 first tries a fast path: unless the wrapper's match starts at the
// start of rg's buffer or ends at the end of the line, it drops the match's
// first and last character, taken to be the \W guards, and keeps the middle
// when the pattern matches all of it; otherwise it takes capture group 1.
// When the wrapper matched at a line start through ^, the first character
// was no guard, and rg reports the word one character short ("line 10"
// with \w[a-z]\w* gives "ine"; ripgrep#2574, #2623, fixed in rg 14).
// bufStart says the line starts rg's buffer (see fillStarts), where the
// fast path is not taken.
// keep, when set, says whether to store a span starting at a given offset
// (it counts those it refuses).
func (m *Matcher) wordSpans(line []byte, spans [][2]int, bufStart bool, keep func(start int) bool) [][2]int {
	at, lastEnd := 0, -1
	for at <= len(line) {
		re := m.wordMid
		if at == 0 {
			re = m.wordFirst
		}
		loc := re.FindSubmatchIndex(line[at:])
		if loc == nil || loc[2] < 0 {
			break
		}
		s, e := at+loc[2], at+loc[3]
		if ms, me := at+loc[0], at+loc[1]; !(ms == 0 && bufStart) && me != len(line) {
			_, slen := utf8.DecodeRune(line[ms:me])
			_, elen := utf8.DecodeLastRune(line[ms:me])
			if ns, ne := ms+slen, me-elen; ns <= ne && m.wordWhole.Match(line[ns:ne]) {
				s, e = ns, ne
			}
		}
		if s == e { // an empty match: step past it, and skip one right after a match
			at = e + 1
			if e == lastEnd {
				continue
			}
		} else {
			at = e
		}
		lastEnd = e
		if keep == nil || keep(s) {
			spans = append(spans, [2]int{s, e})
		}
	}
	return spans
}

// WordSpans returns the spans rg 13 reports for -w in one line, for a
// caller that has the line but not the whole file (an engine re-spanning
// another tool's output). The Matcher must be compiled with Word. line is
// the line without its '\n' (keep a '\r' before it: rg sees it).
// atBufferStart says whether rg's read buffer began at this line: for a
// file under 64 KiB that is the file's first line, or a line starting in
// the file's first 3 bytes that is the last line to start there (rg's
// first read is the BOM sniffer's 3 bytes). Every other line of such a file
// is not at a buffer start.
func (m *Matcher) WordSpans(line []byte, atBufferStart bool) [][2]int {
	if m.wordFirst == nil {
		return nil
	}
	return m.wordSpans(line, nil, atBufferStart, nil)
}

// wordMatch reports whether a line holds an rg -w match.
func (m *Matcher) wordMatch(line []byte) bool {
	return m.wordFirst.Match(line)
}
