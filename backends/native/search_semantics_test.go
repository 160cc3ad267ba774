package native

import (
	"strings"
	"testing"
)

// TestSearchMatchesRg runs each rule of rg 15's line semantics through the
// real rg and through Matcher.Search on the same files.
func TestSearchMatchesRg(t *testing.T) {
	prose := "alpha beta\nfoo bar foo\n\nbaz qux\nfoo\nlast foo line"
	checkAgainstRg(t, []rgCase{
		{name: "literal", files: map[string]string{"a.txt": prose}, match: MatchOptions{Pattern: "foo"}},
		{name: "final line without newline counts", files: map[string]string{"a.txt": "x\ny foo"}, match: MatchOptions{Pattern: "foo"}},
		{name: "regex with classes", files: map[string]string{"a.go": "func readErr() error\nfunc ParseError(x int)\nfunc x2 = 3\n"}, match: MatchOptions{Pattern: `func \w+Error\(`}},
		{name: "no required literal", files: map[string]string{"a.go": "a1 = 2\nb = c\nxy9  =  7\n"}, match: MatchOptions{Pattern: `\w+\d\s*=\s*\d`}},
		{name: "alternation", files: map[string]string{"a.go": "ReadAt WriteTo\nReadFull\nx.WriteFrom()\n"}, match: MatchOptions{Pattern: `(Read|Write)(At|From|To)`}},
		{name: "case insensitive", files: map[string]string{"a.txt": "HTTP\nhttps\nHtTp/2\nhtp\n"}, match: MatchOptions{Pattern: "http", CaseInsensitive: true}},
		{name: "case insensitive with k and s folds", files: map[string]string{"a.txt": "KELVIN \u212a\nstring \u017f\nnone\n"}, match: MatchOptions{Pattern: "ks|k|s", CaseInsensitive: true}},
		{name: "fixed strings", files: map[string]string{"a.txt": "a.b\naxb\n(a.b)\n"}, match: MatchOptions{Pattern: "a.b", Fixed: true}},
		{name: "empty pattern matches every line", files: map[string]string{"a.txt": "a\n\nb", "empty.txt": ""}, match: MatchOptions{Pattern: ""}},
		{name: "anchors are line anchors", files: map[string]string{"a.txt": "foo\nxfoo\nfoox\nfoo\n"}, match: MatchOptions{Pattern: "^foo$"}},
		{name: "a whole-line literal at every edge of a line", files: map[string]string{"a.txt": "foo\nxfoo\nfoox\nfoofoo\n foo\nfoo\r\nfoo\rfoo\nfoo", "b.txt": "foofoo\nfo\nfoo", "c.txt": "foo", "d.txt": "xfoo", "e.txt": "foo\n\nfoo\n", "f.txt": "foo\nfoo"}, match: MatchOptions{Pattern: "^foo$"}},
		{name: "a whole-line literal with CRLF", files: map[string]string{"a.txt": "foo\r\nxfoo\r\nfoo\r\r\nfoo\rx\nfoo\r"}, match: MatchOptions{Pattern: "^foo$", CRLF: true}},
		{name: "dollar does not match before CR", files: map[string]string{"a.txt": "foo\r\nbar foo\r\nfoo"}, match: MatchOptions{Pattern: "foo$"}},
		{name: "CRLF text excludes the terminator", files: map[string]string{"a.txt": "foo bar\r\nbaz\r\n"}, match: MatchOptions{Pattern: "foo.*"}},
		{name: "negated class never crosses a line", files: map[string]string{"a.txt": "ab\ncd\n"}, match: MatchOptions{Pattern: `b[^x]`}},
		{name: "space class never crosses a line", files: map[string]string{"a.txt": "b\ncd\n"}, match: MatchOptions{Pattern: `b\s*c`}},
		{name: "dot skips invalid UTF-8", files: map[string]string{"a.txt": "a\xffb\naxb\na\xc3\xa9b\n"}, match: MatchOptions{Pattern: `a.b`}},
		{name: "negated class skips invalid UTF-8", files: map[string]string{"a.txt": "a\xffb\naxb\n"}, match: MatchOptions{Pattern: `a[^z]b`}},
		{name: "word mode", files: map[string]string{"a.txt": "foo foo foo\nfoofoo foo_x\n(foo)\nfoo-bar\n"}, match: MatchOptions{Pattern: "foo", Word: true}},
		{name: "word mode is Unicode aware", files: map[string]string{"a.txt": "\u00e9foo\nfoo\u00e9\n\u2603foo\u2603\nfoo\xff\n"}, match: MatchOptions{Pattern: "foo", Word: true}},
		// rg's regex engine reads the character before a position by
		// stepping back over up to three continuation bytes and decoding
		// what starts there: 'a' before ")" in "a\x95)", U+007F in
		// "_\x7f\x95)".
		{name: "word boundaries look back over invalid UTF-8 as rg does", files: map[string]string{"a.txt": "_\x7f\x95)\na\x95)\n\x95)\n_\x95)\na\xe2\x82)\n\xe2\x82\xac)\nx\xf0\x9f)\n\xc3\xa9\x95)\n"}, match: MatchOptions{Pattern: `\)`, Word: true}},
		{name: "a boundary after invalid UTF-8 looks back as rg does", files: map[string]string{"a.txt": "_\x7f\x95)\na\x95)\n\x95)\n_\x95)\na\xe2\x82)\n\xe2\x82\xac)\nx\xf0\x9f)\n\xc3\xa9\x95)\n"}, match: MatchOptions{Pattern: `\b\)`}},
		{name: "no boundary after invalid UTF-8 looks back as rg does", files: map[string]string{"a.txt": "_\x7f\x95)\na\x95)\n\x95)\n_\x95)\na\xe2\x82)\n\xe2\x82\xac)\nx\xf0\x9f)\n\xc3\xa9\x95)\n"}, match: MatchOptions{Pattern: `\B\)`}},
		{name: "word mode with punctuation in pattern", files: map[string]string{"a.txt": "-2\nx-2\n a-2b\n"}, match: MatchOptions{Pattern: "-2", Word: true}},
		{name: "word mode with a pattern starting with a non-word character", files: map[string]string{"a.txt": "x\n)FOO-x\n"}, match: MatchOptions{Pattern: "[^a-z]+", Word: true}},
		{name: "word mode regex", files: map[string]string{"a.txt": "ab abc abcd\nabcabc\n"}, match: MatchOptions{Pattern: "ab(c|cd)?", Word: true}},
		{name: "context groups", files: map[string]string{"a.txt": "1\n2\nm3\n4\n5\n6\n7\nm8\n9\nm10\n11\n12\n13\n"}, match: MatchOptions{Pattern: "m"}, search: SearchOptions{Before: 2, After: 1}},
		{name: "context at file edges", files: map[string]string{"a.txt": "m1\n2\nm3"}, match: MatchOptions{Pattern: "m"}, search: SearchOptions{Before: 3, After: 3}},
		{name: "max count with trailing context", files: map[string]string{"a.txt": "a1\nb\na2\nc\na3\nd\ne\na4\n"}, match: MatchOptions{Pattern: "a"}, search: SearchOptions{MaxCount: 2, After: 3}},
		{name: "max count", files: map[string]string{"a.txt": "a1\nb\na2\nc\na3\n"}, match: MatchOptions{Pattern: "a"}, search: SearchOptions{MaxCount: 2}},
		{name: "max count with before context", files: map[string]string{"a.txt": "x\na1\nb\na2\nc\na3\n"}, match: MatchOptions{Pattern: "a"}, search: SearchOptions{MaxCount: 1, Before: 1, After: 1}},
		{name: "multiline match spans lines", files: map[string]string{"a.txt": "foo\nbar\nbaz\nfoo\nbar\n"}, match: MatchOptions{Pattern: `o\nba`, Multiline: true}},
		{name: "multiline dotall", files: map[string]string{"a.txt": "start\nmid\nend\nstart end\n"}, match: MatchOptions{Pattern: `start.*?end`, Multiline: true}},
		// A line of the trailing context past -m whose text alone matches
		// is a match (rg 15), under -U too; one a match across lines
		// reaches is not.
		{name: "multiline trailing context past max count", files: map[string]string{"a.txt": "x1\nyy\nx2\nyy\nx3\ny\nz\n", "b.txt": "// a\n// b\n// c\nx\n// d\n"}, match: MatchOptions{Pattern: `^y|y$|^\s*//`, Multiline: true}, search: SearchOptions{MaxCount: 1, After: 4}},
		{name: "-P under -U: trailing context past max count", files: map[string]string{"a.txt": "AAA 1\nb\nCCC 2\nd\nEEE\nf\n"}, match: MatchOptions{Pattern: `[A-Z]{3,}`, PCRE2: true, Multiline: true}, search: SearchOptions{MaxCount: 1, After: 3}},
		{name: "multiline trailing context past max count, across lines", files: map[string]string{"a.txt": "x1\ny\nx2\ny\nx3\ny\nz\n"}, match: MatchOptions{Pattern: `x\d\ny`, Multiline: true}, search: SearchOptions{MaxCount: 1, After: 3}},
		{name: "multiline blocks join on a shared line", files: map[string]string{"a.txt": "a\nb a\nb\nx\na\nb\n"}, match: MatchOptions{Pattern: `a\nb`, Multiline: true}},
		{name: "multiline match starting at a newline", files: map[string]string{"a.txt": "ab\ncd\n"}, match: MatchOptions{Pattern: `\ncd`, Multiline: true}},
		{name: "multiline with context", files: map[string]string{"a.txt": "1\n2\nfoo\nbar\n5\n6\n"}, match: MatchOptions{Pattern: `foo\nbar`, Multiline: true}, search: SearchOptions{Before: 1, After: 1}},
		{name: "multiline single-line matches", files: map[string]string{"a.txt": "foo\nfoo\nx\nfoo\n"}, match: MatchOptions{Pattern: "foo", Multiline: true}},
		{name: "multiline flag with a pattern that cannot match a newline is line mode", files: map[string]string{"a.txt": "foo foo\nx\nfoo\n"}, match: MatchOptions{Pattern: "foo", Multiline: true}},
		{name: "multiline counts matches", files: map[string]string{"a.txt": "a\nb a\nb\nx\na\nb\n"}, match: MatchOptions{Pattern: `a\nb`, Multiline: true}},
		{name: "multiline max count", files: map[string]string{"a.txt": "a\nb\nx\na\nb\n"}, match: MatchOptions{Pattern: `a\nb`, Multiline: true}, search: SearchOptions{MaxCount: 1}},
		{name: "multiline max count: -c adds a whole block's matches", files: map[string]string{"a.txt": "x1 = 2x1 = 2\nab\nx1 = 2\n"}, match: MatchOptions{Pattern: `[a-z]\d\s*=\s*\d`, Multiline: true}, search: SearchOptions{MaxCount: 1}},
		{name: "multiline word mode", files: map[string]string{"a.txt": "foo foo\nfoox\n"}, match: MatchOptions{Pattern: "foo", Multiline: true, Word: true}},
		// (rg 13 panics and hangs on `\Afoo|foo\nfoo|^o` with -U: not a case here.)
		{name: "multiline text anchor sees the whole file", files: map[string]string{"a.txt": "fooxfoox\nfoox\n"}, match: MatchOptions{Pattern: `\Afoo(?:\n|x)`, Multiline: true}},
		{name: "multiline line anchor sees the previous byte", files: map[string]string{"a.txt": "fooxfoox\nfoox\n"}, match: MatchOptions{Pattern: `(?:^|x)foo(?:\n|x)`, Multiline: true}},
		{name: "multiline case insensitive", files: map[string]string{"a.txt": "FOO\nbar\n"}, match: MatchOptions{Pattern: `foo\nBAR`, Multiline: true, CaseInsensitive: true}},
		{name: "no literal: word boundaries", files: map[string]string{"a.txt": "foo\nfoobar\n(foo)\nx_foo\n\u00e9foo\n"}, match: MatchOptions{Pattern: `\bfo+\b`}},
		{name: "no literal: blank lines", files: map[string]string{"a.txt": "a\n\n  \n\t\nb\n\r\n"}, match: MatchOptions{Pattern: `^\s*$`}},
		{name: "a class run before a literal", files: map[string]string{"a.go": "x := ErrFoo, io.EOFError\nfmt.Errorf(\"SyntaxErrorError\") + Error\n\u00e9Error aErrorb ParseError\n"}, match: MatchOptions{Pattern: `\w+Error`}},
		{name: "a lazy class run before a literal", files: map[string]string{"a.txt": "xabyab abab\n\u00e9ab ab\n"}, match: MatchOptions{Pattern: `[a-z\x{e9}]+?ab`}},
		{name: "no literal: classes and repeats", files: map[string]string{"a.txt": "Abc12\nabc12\nXy9\nZz99 \u00e9\nQq\u0661\u0662\n"}, match: MatchOptions{Pattern: `[A-Z][a-z]+[0-9]{2}`}},
		{name: "no literal: not a boundary", files: map[string]string{"a.txt": "ab\na b\n"}, match: MatchOptions{Pattern: `a\B`}},
		{name: "no literal: case folded class", files: map[string]string{"a.txt": "X1\nx2\ny3\n"}, match: MatchOptions{Pattern: `[x-y]\d`, CaseInsensitive: true}},
		{name: "UTF-16LE with BOM is transcoded", files: map[string]string{"u16.txt": "\xff\xfeh\x00i\x00\n\x00f\x00o\x00o\x00\n\x00"}, match: MatchOptions{Pattern: "foo"}},
		{name: "UTF-16BE with BOM is transcoded", files: map[string]string{"u16.txt": "\xfe\xff\x00h\x00\n\x00f\x00o\x00o\x00\n"}, match: MatchOptions{Pattern: "o+"}},
		{name: "UTF-8 BOM is dropped", files: map[string]string{"b.txt": "\xef\xbb\xbffoo\nfoo\n"}, match: MatchOptions{Pattern: "^foo"}},
	})
}

// TestBinaryRuleMatchesRg checks where rg stops at a NUL byte in a recursive
// search: a NUL in the first buffer fill hides even earlier matches, a NUL in
// a later fill keeps the matches of earlier fills.
func TestBinaryRuleMatchesRg(t *testing.T) {
	long := strings.Repeat("a", 70000)
	line := strings.Repeat("foo filler text\n", 1)
	many := strings.Repeat(line, 5000) // 80,000 bytes of short lines
	checkAgainstRg(t, []rgCase{
		{name: "NUL right after a match in the first fill hides it", files: map[string]string{"b1": "foo\nbar foo\x00baz foo\nqux foo\n"}, match: MatchOptions{Pattern: "foo"}},
		{name: "NUL on line two", files: map[string]string{"b2": "zzz\n\x00foo\n"}, match: MatchOptions{Pattern: "foo"}},
		{name: "newline within the first three bytes", files: map[string]string{"b3": "fo\nfoo\n\x00"}, match: MatchOptions{Pattern: "fo"}},
		{name: "NUL after a long line in a later fill", files: map[string]string{"b4": "foo\nfoo\n" + long + "\nfoo\x00\n"}, match: MatchOptions{Pattern: "foo"}},
		{name: "NUL after many lines", files: map[string]string{"b5": many + "foo\x00\nfoo\n"}, match: MatchOptions{Pattern: "foo"}},
		{name: "NUL near the first fill boundary", files: map[string]string{"b6": strings.Repeat(line, 4095) + "foo\x00"}, match: MatchOptions{Pattern: "foo"}},
		{name: "NUL just after the first fill", files: map[string]string{"b7": strings.Repeat(line, 4096) + "foo\x00"}, match: MatchOptions{Pattern: "foo"}},
		{name: "multiline: NUL in the first 64 KiB skips the file", files: map[string]string{"m1": "foo\nbar\nzzz\x00baz\n"}, match: MatchOptions{Pattern: `foo\nbar`, Multiline: true}},
		{name: "multiline: a later NUL is searched through", files: map[string]string{"m2": "foo\nbar\n" + strings.Repeat("x\n", 40000) + "\x00\nfoo\nbar\x00\n"}, match: MatchOptions{Pattern: `foo\nbar`, Multiline: true}},
	})
}

// TestExplicitBinaryFileMatchesRg checks rg's "convert" mode for a file
// named on the command line (read, not mapped: rgkit runs rg with several
// paths or --no-mmap): the search goes past NUL bytes, each one a line break.
func TestExplicitBinaryFileMatchesRg(t *testing.T) {
	checkAgainstRgExplicit(t, []rgCase{
		{name: "match after a NUL", files: map[string]string{"x.dat": "a needle\nb\x00c\nd needle\ne\n"}, match: MatchOptions{Pattern: "needle"}, search: SearchOptions{BinaryConvert: true}},
		{name: "NUL inside a matching line", files: map[string]string{"x.dat": "foo\x00foo\nbar\n"}, match: MatchOptions{Pattern: "foo"}, search: SearchOptions{BinaryConvert: true, After: 1}},
		{name: "no NUL", files: map[string]string{"x.dat": "foo\n"}, match: MatchOptions{Pattern: "foo"}, search: SearchOptions{BinaryConvert: true}},
	})
}

// TestMappedBinaryFileMatchesRg checks a file rg maps into memory (at most
// 10 paths on its command line, all files): a NUL is searched as any byte,
// so lines keep their numbers (issue 11, item 7d: "a\0b\0c\nfoo\nbar\0\nfoo\n"
// has foo on lines 2 and 4, not 4 and 7).
func TestMappedBinaryFileMatchesRg(t *testing.T) {
	mapped := SearchOptions{BinaryConvert: true, KeepNUL: true}
	checkAgainstRgExplicit(t, []rgCase{
		{name: "NULs before the matches", files: map[string]string{"n.bin": "a\x00b\x00c\nfoo\nbar\x00\nfoo\n"}, match: MatchOptions{Pattern: "foo"}, search: mapped},
		{name: "a match across a NUL", files: map[string]string{"n.bin": "a\x00b\x00c\nfoo\n"}, match: MatchOptions{Pattern: "a.b|c"}, search: mapped},
		{name: "context around a NUL line", files: map[string]string{"n.bin": "x\nfoo\x00\ny\nfoo\n"}, match: MatchOptions{Pattern: "foo"}, search: SearchOptions{BinaryConvert: true, KeepNUL: true, Before: 1, After: 1}},
	})
}
