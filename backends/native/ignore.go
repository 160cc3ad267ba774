package native

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ignoreMatch is the verdict of one ignore file (or the glob overrides) for a
// path: no rule matched, the last matching rule ignores it, or it whitelists
// it (a "!" rule).
type ignoreMatch uint8

const (
	matchNone ignoreMatch = iota
	matchIgnore
	matchWhitelist
)

// ignoreRule is one line of a gitignore-style file.
type ignoreRule struct {
	g         *glob
	whitelist bool // the line started with '!'
	dirOnly   bool // the line ended with '/'
}

// ignoreFile is the rules of one .gitignore, .ignore, .rgignore,
// .git/info/exclude or global excludes file. Paths are matched relative to
// the directory the file applies to.
type ignoreFile struct {
	rules []ignoreRule
	// The verdict is the last matching rule's. Rules of the common shapes
	// are indexed so that a path is checked with a few map lookups instead
	// of every rule: by exact path, by file name, by extension (each map
	// holds the highest rule index, and a second map the dir-only ones);
	// the rest are scanned from the end and only down to the best index
	// found so far.
	exact, name, ext          map[string]int
	exactDir, nameDir, extDir map[string]int
	slow                      []int
}

// readIgnoreFile parses the ignore file at path; a missing or unreadable file
// is an empty one (rg ignores such errors too). A nil result means no rules.
// fold compares the globs ignoring ASCII case.
func readIgnoreFile(path string, fold bool) *ignoreFile {
	data, err := os.ReadFile(path)
	if err != nil || len(data) == 0 {
		return nil
	}
	f := parseIgnore(data, fold)
	if len(f.rules) == 0 {
		return nil
	}
	return f
}

// parseIgnore parses gitignore lines the way rg 15.2 does (ignore crate,
// GitignoreBuilder::add). Lines are split on '\n' with a trailing '\r'
// removed; a UTF-8 byte order mark at the start of the first line is
// dropped; reading stops at the first line that is not valid UTF-8; a line
// that is not a valid glob is skipped.
func parseIgnore(data []byte, fold bool) *ignoreFile {
	f := &ignoreFile{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), len(data)+1)
	first := true
	for sc.Scan() {
		line := sc.Bytes()
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if !utf8.Valid(line) {
			break
		}
		if first {
			for bytes.HasPrefix(line, utf8BOM) {
				line = line[len(utf8BOM):]
			}
			first = false
		}
		if r, ok, err := parseIgnoreLineFold(string(line), true, fold); ok && err == nil {
			f.add(r)
		}
	}
	return f
}

// utf8BOM is the byte order mark git skips at the start of an ignore file.
var utf8BOM = []byte("\uFEFF")

// add appends a rule and indexes it.
func (f *ignoreFile) add(r ignoreRule) {
	i := len(f.rules)
	f.rules = append(f.rules, r)
	put := func(m *map[string]int, k string) {
		if *m == nil {
			*m = map[string]int{}
		}
		(*m)[k] = i
	}
	switch {
	case r.g.fast == fastExact && !r.dirOnly:
		put(&f.exact, r.g.lit)
	case r.g.fast == fastExact:
		put(&f.exactDir, r.g.lit)
	case r.g.fast == fastBasename && !r.dirOnly:
		put(&f.name, r.g.lit)
	case r.g.fast == fastBasename:
		put(&f.nameDir, r.g.lit)
	case r.g.fast == fastExt && isPureExt(r.g.lit) && !r.dirOnly:
		put(&f.ext, r.g.lit)
	case r.g.fast == fastExt && isPureExt(r.g.lit):
		put(&f.extDir, r.g.lit)
	default:
		f.slow = append(f.slow, i)
	}
}

// isPureExt reports whether a suffix is one extension (".log"): then the
// suffix test is a lookup of the name's text from its last '.'.
func isPureExt(s string) bool {
	return len(s) > 1 && s[0] == '.' && strings.IndexByte(s[1:], '.') < 0 && strings.IndexByte(s, '/') < 0
}

// parseIgnoreLine turns one gitignore line into a rule, following rg 15.2:
// comments start with '#'; trailing whitespace is trimmed unless the line ends
// with "\ "; "\!" and "\#" escape a leading '!' or '#'; '!' negates; a leading
// '/' anchors the pattern to the file's directory; a trailing '/' (or "\/")
// restricts it to directories; a pattern without '/' matches at any depth
// ("**/" is prepended); a trailing "/**" matches only below the directory.
// allowUnclosed reads an unclosed '[' as a literal (ignore files do, --glob
// does not). ok is false for a comment or blank line; err is set for an
// invalid glob.
func parseIgnoreLine(line string, allowUnclosed bool) (r ignoreRule, ok bool, err error) {
	return parseIgnoreLineFold(line, allowUnclosed, false)
}

// parseIgnoreLineFold is parseIgnoreLine; fold compares the glob ignoring
// ASCII case (rg's --iglob, --glob-case-insensitive and
// --ignore-file-case-insensitive).
func parseIgnoreLineFold(line string, allowUnclosed, fold bool) (r ignoreRule, ok bool, err error) {
	if strings.HasPrefix(line, "#") {
		return r, false, nil
	}
	if !strings.HasSuffix(line, "\\ ") {
		line = strings.TrimRightFunc(line, unicode.IsSpace)
	}
	if line == "" {
		return r, false, nil
	}
	original := line
	absolute := false
	if strings.HasPrefix(line, "\\!") || strings.HasPrefix(line, "\\#") {
		line = line[1:]
		absolute = strings.HasPrefix(line, "/")
	} else {
		if strings.HasPrefix(line, "!") {
			r.whitelist = true
			line = line[1:]
		}
		if strings.HasPrefix(line, "/") {
			line = line[1:]
			absolute = true
		}
	}
	if strings.HasSuffix(line, "/") {
		r.dirOnly = true
		line = line[:len(line)-1]
		// An escaped slash ("\/") is a slash too.
		line = strings.TrimSuffix(line, "\\")
	}
	actual := line
	if !absolute && !strings.Contains(line, "/") {
		if !strings.HasPrefix(actual, "**/") && actual != "**" {
			actual = "**/" + actual
		}
	}
	if strings.HasSuffix(actual, "/**") {
		actual += "/*"
	}
	g, err := compileGlobFold(actual, true, allowUnclosed, fold)
	if err != nil {
		var ge *GlobError
		if errors.As(err, &ge) {
			ge.Glob = original // rg names the glob as written
		}
		return r, false, err
	}
	r.g = g
	return r, true, nil
}

// match returns the verdict of the last rule matching path (relative to the
// file's directory, slash-separated); isDir says whether path is a directory.
func (f *ignoreFile) match(path string, isDir bool) ignoreMatch {
	if f == nil {
		return matchNone
	}
	best := -1
	look := func(m map[string]int, k string) {
		if i, ok := m[k]; ok && i > best {
			best = i
		}
	}
	base := basename(path)
	ext := ""
	if d := strings.LastIndexByte(base, '.'); d >= 0 {
		ext = base[d:]
	}
	look(f.exact, path)
	look(f.name, base)
	look(f.ext, ext)
	if isDir {
		look(f.exactDir, path)
		look(f.nameDir, base)
		look(f.extDir, ext)
	}
	for j := len(f.slow) - 1; j >= 0 && f.slow[j] > best; j-- {
		r := &f.rules[f.slow[j]]
		if r.dirOnly && !isDir {
			continue
		}
		if r.g.match(path) {
			best = f.slow[j]
			break
		}
	}
	switch {
	case best < 0:
		return matchNone
	case f.rules[best].whitelist:
		return matchWhitelist
	}
	return matchIgnore
}
