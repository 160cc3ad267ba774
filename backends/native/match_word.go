package native

import (
	"regexp"
	"regexp/syntax"
)

// rgNonWord is rg's \W in the word-mode wrapper. rg builds that wrapper in
// Unicode mode, so a word character is a letter, mark, decimal digit,
// connector punctuation or joiner (Unicode's \w), not Go's ASCII \w: with
// rg -w foo, "éfoo" has no match.
const rgNonWord = `[^\p{L}\p{Nl}\p{M}\p{Nd}\p{Pc}\x{200C}\x{200D}]`

// compileWord builds rg -w's two regexps around the rewritten pattern:
// `(?:^|\W)(pat)(?:\W|$)`, used at the start of a line, and `\W(pat)(?:\W|$)`,
// used after a previous match, where rg's captures_read_at can no longer
// match ^ (see BurntSushi/ripgrep crates/regex/src/word.rs). The match is
// capture group 1.
func (m *Matcher) compileWord(inner string) error {
	nonWord, err := syntax.Parse(rgNonWord, syntax.Perl)
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
	m.wordMid, err = regexp.Compile(`(?m)` + w + `(` + inner + `)(?:` + w + `|$)`)
	return err
}

// wordSpans appends the spans of rg -w matches in one line: capture group
// 1 of the wrapper, each search restarting at the end of the previous word
// (grep-regex's WordMatcher::find_at, slow path).
//
// rg 13 first tries a fast path that drops the wrapper match's first and
// last character, taken to be the \W guards; when the wrapper matched at a
// line start through ^ and the pattern itself can start with a non-word
// character ([^a-z]+ on "(FOO-"), rg sometimes reports the word one
// character short, depending on where the line sits in its buffer. We
// report the full word; the matching lines are the same.
func (m *Matcher) wordSpans(line []byte, spans [][2]int) [][2]int {
	at := 0
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
		spans = append(spans, [2]int{s, e})
		if e > at {
			at = e
		} else {
			at++
		}
	}
	return spans
}

// wordMatch reports whether a line holds an rg -w match.
func (m *Matcher) wordMatch(line []byte) bool {
	return m.wordFirst.Match(line)
}
