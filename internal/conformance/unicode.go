package conformance

import "github.com/rgkit/rgkit/search"

// UnicodeLines is unicode.txt, one entry per line (line n is
// UnicodeLines[n-1]): the text on which rg's Unicode-aware dialect (\w \d
// \s \b, -w, -i) differs from ASCII classes.
var UnicodeLines = []string{
	"naïve résumé",                   // Latin, precomposed
	"nai\u0308ve re\u0301sume\u0301", // Latin, combining marks (Mn is \w)
	"цифры ١٢٣",                      // Cyrillic, Arabic-Indic digits (Nd is \d)
	"ключ_слово",                     // Cyrillic around '_'
	"КЛЮЧ_СЛОВО",                     // the same in capitals
	"Σίσυφος ΣΊΣΥΦΟΣ λόγος",          // Greek, final sigma
	"\u212A kelvin K k",              // the Kelvin sign folds to k
	"plain ascii_word 123",           // ASCII
	"x\u00a0y tab\there",             // NO-BREAK SPACE is \s
}

// unicodeCases hold every engine to rg 15's Unicode classes: an engine
// that cannot say them exactly refuses (ErrUnsupported) and the next one
// answers. Lines were checked with rg 15.2.0.
func unicodeCases() []Case {
	u := func(name string, q search.Query, lines []int, why string) Case {
		q.Paths = []string{"unicode.txt"}
		return Case{Name: "unicode/" + name, Query: q, WantLines: lines, Why: why}
	}
	p := func(pattern string) search.Query { return search.Query{Pattern: pattern} }
	w := func(pattern string) search.Query { return search.Query{Pattern: pattern, Word: true} }
	i := func(pattern string) search.Query { return search.Query{Pattern: pattern, Case: search.CaseInsensitive} }
	return []Case{
		u("word-class-latin", p(`na\wve`), []int{1}, `\w is Unicode: ï is a word character`),
		u("word-class-combining", p(`nai\w*ve`), []int{2}, `a combining mark (Mn) is \w`),
		u("word-class-cyrillic", p(`\w+_слово`), []int{4}, `Cyrillic letters are \w`),
		u("word-class-whole-line", p(`^\w+$`), []int{4, 5}, `only the Cyrillic words with '_' are one \w+ run`),
		u("digit-arabic-indic", p(`\d+`), []int{3, 8}, `\d is Unicode Nd: ١٢٣`),
		u("digit-counted", p(`\d{3}`), []int{3, 8}, `three Arabic-Indic digits`),
		u("digit-ascii-flag", p(`(?-u:\d)+`), []int{8}, `(?-u:\d) is ASCII`),
		u("digit-difference", p(`[\d--[0-9]]`), []int{3}, `class difference: non-ASCII digits`),
		u("space-nbsp", p(`x\sy`), []int{9}, `\s is Unicode White_Space: U+00A0`),
		u("space-nbsp-ascii", p(`(?-u:x\sy)`), []int{}, `(?-u:\s) is ASCII`),
		u("boundary-cyrillic-start", p(`\bключ`), []int{4}, `\b is Unicode: start of a Cyrillic word`),
		u("boundary-underscore", p(`ключ\b`), []int{}, `'_' is a word character: no boundary before it`),
		u("boundary-word-length", p(`\b\w{5}\b`), []int{1, 3, 6, 8}, `five-letter words, Unicode-aware`),
		u("boundary-word-start", p(`\<ключ`), []int{4}, `\< is \b{start}`),
		u("boundary-start-half", p(`_\b{start-half}слово`), []int{}, `'_' before: not a half start`),
		u("script-class", p(`\p{Cyrillic}+`), []int{3, 4, 5}, `\p{Cyrillic}`),
		u("intersection-greek", p(`[\w&&\p{Greek}]{6}`), []int{6}, `class intersection`),
		u("verbose", p("(?x) ключ _ слово"), []int{4}, `(?x) ignores whitespace`),
		u("mark-class", p(`\pM`), []int{2}, `combining marks`),
		u("word-flag-cyrillic", w(`ключ`), []int{}, `-w: '_' is a word character, ключ_слово is one word`),
		u("word-flag-digits", w(`\d+`), []int{3, 8}, `-w with Unicode digits`),
		u("word-flag-latin", w(`naïve`), []int{1}, `-w: a precomposed word`),
		u("word-flag-part", w(`na`), []int{}, `-w: ï continues the word`),
		u("fold-cyrillic", i(`ключ_слово`), []int{4, 5}, `-i folds Cyrillic`),
		u("fold-greek-sigma", i(`σίσυφοσ`), []int{6}, `-i: σ, ς and Σ are one orbit; ί and Ί fold`),
		u("fold-kelvin", i(`k`), []int{7}, `-i: the Kelvin sign folds to k`),
		u("fold-word-kelvin", search.Query{Pattern: `KELVIN`, Word: true, Case: search.CaseInsensitive}, []int{7}, `-w -i`),
		u("smart-cyrillic-upper", search.Query{Pattern: `Ключ`, Case: search.CaseSmart}, []int{}, `smart case: К is uppercase, sensitive`),
		u("smart-cyrillic-lower", search.Query{Pattern: `ключ`, Case: search.CaseSmart}, []int{4, 5}, `smart case: all lowercase, insensitive`),
	}
}
