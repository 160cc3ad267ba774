package search

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp/syntax"
	"strings"
	"unicode/utf8"

	"github.com/rgkit/rgkit/internal/rgregex"
	"github.com/rgkit/rgkit/internal/textenc"
)

// Normalize validates q and puts it in the one form every engine receives:
//   - the pattern (unless Fixed) is valid in rg's regex dialect (the Rust
//     regex syntax rg 15 reads without -P), else an *InvalidPatternError
//     with the offending offset, rg's reason and a hint (look-around and
//     back-references are refused the same way, as is a pattern that
//     needs a NUL byte);
//   - a pattern that could match a line break is refused unless Multiline,
//     as rg does ("the literal '\n' is not allowed in a regex");
//   - Root is absolute and clean and names an existing directory (default:
//     the working directory);
//   - Paths are slash-separated, relative to Root, clean, existing, and never
//     climb out of Root ("." for Root itself);
//   - CaseSmart is resolved with rg's rule to CaseSensitive or CaseInsensitive;
//   - Types are known rg type names; IgnoreFiles are non-empty paths;
//     negative numbers (MaxDepth too) and unknown enum values are refused.
func Normalize(q Query) (Query, error) {
	if err := checkNumbers(q); err != nil {
		return q, err
	}
	if q.NullData {
		q.Binary, q.CRLF = BinaryText, false // what rg --null-data implies
	}
	if q.PCRE2 {
		// The engine that runs it (the native engine's PCRE2 emulation, or
		// rg -P) checks a PCRE2 pattern.
		if q.Case == CaseSmart {
			q.Case = PCRE2SmartCase(q.Pattern)
		}
	} else if err := checkPattern(q); err != nil {
		return q, err
	}
	if q.Case == CaseSmart {
		q.Case = smartCase(q.Pattern, q.Fixed)
	}
	if _, err := TypeGlobs(q.Types); err != nil {
		return q, err
	}
	for _, f := range q.IgnoreFiles {
		if f == "" {
			return q, errors.New("search: an ignore file needs a path")
		}
	}
	root, err := normalizeRoot(q.Root)
	if err != nil {
		return q, err
	}
	q.Root = root
	if len(q.Paths) > 0 {
		paths := make([]string, 0, len(q.Paths))
		links := &linkResolver{dirs: map[string]resolved{}}
		for _, p := range q.Paths {
			rel, err := normalizePath(root, p, links)
			if err != nil {
				return q, err
			}
			paths = append(paths, rel)
		}
		q.Paths = paths
	}
	return q, nil
}

func checkNumbers(q Query) error {
	for _, n := range []struct {
		name string
		v    int64
	}{
		{"before-context", int64(q.Before)}, {"after-context", int64(q.After)},
		{"max-count", int64(q.MaxCountPerFile)}, {"max-filesize", q.MaxFileSize},
		{"max-columns", int64(q.MaxColumns)}, {"limit", int64(q.Limit)},
		{"offset", int64(q.Offset)}, {"timeout", int64(q.Timeout)},
		{"max-depth", int64(q.MaxDepth)},
	} {
		if n.v < 0 {
			return fmt.Errorf("search: %s must not be negative (got %d)", n.name, n.v)
		}
	}
	switch {
	case q.Case < CaseSensitive || q.Case > CaseSmart:
		return fmt.Errorf("search: unknown case mode %d", q.Case)
	case q.Mode < ModeContent || q.Mode > ModeCount:
		return fmt.Errorf("search: unknown output mode %d", q.Mode)
	case q.Sort < SortPath || q.Sort > SortNone:
		return fmt.Errorf("search: unknown sort order %d", q.Sort)
	case q.Binary < BinaryQuit || q.Binary > BinaryText:
		return fmt.Errorf("search: unknown binary mode %d", q.Binary)
	}
	if _, err := textenc.Lookup(q.Encoding); err != nil {
		return fmt.Errorf("search: encoding: %w", err)
	}
	return nil
}

// checkPattern validates the pattern in rg's dialect (as rg 15 reads it
// without -P: internal/rgregex) and applies rg's rules that a line-oriented
// search cannot contain a literal line break and that a pattern needing a
// NUL byte is an error (binary detection makes it impossible to match).
func checkPattern(q Query) error {
	if q.Fixed {
		if i := strings.IndexByte(q.Pattern, '\n'); i >= 0 && !q.Multiline && !q.NullData {
			return newlineError(q.Pattern, i)
		}
		if !utf8.ValidString(q.Pattern) {
			return &InvalidPatternError{Pattern: q.Pattern, Offset: invalidUTF8At(q.Pattern),
				Reason: "invalid UTF-8", Hint: "patterns are UTF-8 text; use \\xHH escapes in a regexp for raw bytes"}
		}
		if i := strings.IndexByte(q.Pattern, 0); i >= 0 && (q.Binary != BinaryText || q.NullData) {
			return &InvalidPatternError{Pattern: q.Pattern, Offset: i, Reason: nulReason}
		}
		return nil
	}
	re, err := rgregex.Parse(q.Pattern, rgregex.Options{CaseInsensitive: q.Case == CaseInsensitive, DotNL: q.Multiline,
		CRLF: q.CRLF, NoUnicode: q.NoUnicode, AllowNUL: q.Binary == BinaryText && !q.NullData})
	if err != nil {
		var pe *rgregex.Error
		if errors.As(err, &pe) {
			e := &InvalidPatternError{Pattern: q.Pattern, Offset: pe.Offset, Reason: pe.Msg, Hint: patternHint(q.Pattern, pe)}
			switch {
			case pe.Kind == rgregex.KindNUL && q.NullData:
				e.Offset, e.Reason = -1, `the literal "\0" is not allowed in a regex: NUL ends lines with --null-data`
			case pe.Kind == rgregex.KindNUL:
				e.Offset, e.Reason = -1, nulReason
			case strings.HasPrefix(pe.Msg, "unclosed group"):
				// rg points at the group it wraps the pattern in; the
				// '(' never closed is what to fix.
				if i := unclosedParen(q.Pattern); i >= 0 {
					e.Offset = i
				}
			}
			return e
		}
		return &InvalidPatternError{Pattern: q.Pattern, Offset: -1, Reason: err.Error()}
	}
	if !q.Multiline && !q.NullData && hasLiteralNewline(re) {
		return newlineError(q.Pattern, strings.Index(q.Pattern, `\n`))
	}
	if q.CRLF && !q.Multiline && !q.NullData && hasLiteralRune(re, '\r') {
		// rg --crlf: "\r\n" is the line terminator, '\r' part of it.
		e := newlineError(q.Pattern, strings.Index(q.Pattern, `\r`))
		e.(*InvalidPatternError).Reason = "the pattern contains a carriage return, part of the line terminator with --crlf"
		return e
	}
	return nil
}

// patternHint is the advice that goes with rg's reason for refusing a
// pattern: how to write what was probably meant. (rg's own hint for
// look-around and back-references, -P, is no use here: no engine runs
// PCRE2 patterns.)
func patternHint(pattern string, e *rgregex.Error) string {
	at := ""
	if e.Offset >= 0 && e.Offset < len(pattern) {
		at = pattern[e.Offset : e.Offset+1]
	}
	switch {
	case e.Kind == rgregex.KindLookAround:
		return "match the surrounding text instead, or search for the main part and filter the results"
	case e.Kind == rgregex.KindBackreference:
		return "repeat the group's text explicitly instead of referring back to it"
	case e.Kind == rgregex.KindNUL:
		return "search for the text around the NUL byte"
	case strings.HasPrefix(e.Msg, "repetition operator missing expression") && at != "":
		return fmt.Sprintf("to match '%s' literally, escape it as '\\%s'", at, at)
	case strings.HasPrefix(e.Msg, "repetition quantifier expects a valid decimal"),
		strings.HasPrefix(e.Msg, "unclosed counted repetition"):
		return "to match '{' literally, escape it as '\\{'"
	case strings.HasPrefix(e.Msg, "unclosed group"), strings.HasPrefix(e.Msg, "unopened group"):
		return "to match a parenthesis literally, escape it as '\\(' or '\\)'"
	case strings.HasPrefix(e.Msg, "unclosed character class"):
		return "to match '[' literally, escape it as '\\['"
	case strings.HasPrefix(e.Msg, "invalid character class range"):
		return "a range runs low-high, like [a-z]; to match '-' literally put it first or last in the class"
	case strings.HasPrefix(pattern[max(e.Offset, 0):], `\Q`):
		return `rg has no \Q...\E quoting: escape each special character, or search a fixed string (-F)`
	case strings.HasPrefix(e.Msg, "unrecognized escape sequence"):
		return `escape a literal backslash as '\\'; rg's escapes include \d \w \s \b \A \z \pL \x41 \u{41}`
	case strings.HasPrefix(e.Msg, "unrecognized flag"):
		return "flags are i, m, s, R, U, u and x, as (?flags) or (?flags:...); named groups are (?P<name>...) or (?<name>...)"
	}
	return ""
}

// unclosedParen returns the offset of the last '(' that is never closed,
// or -1. It skips escapes and bracket classes (nested ones too).
func unclosedParen(p string) int {
	var open []int
	depth := 0 // bracket class nesting
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '\\':
			i++
		case c == '[':
			depth++
			if strings.HasPrefix(p[i+1:], "^") {
				i++
			}
			if strings.HasPrefix(p[i+1:], "]") {
				i++ // a leading ']' is a literal
			}
		case c == ']' && depth > 0:
			depth--
		case depth > 0:
		case c == '(':
			open = append(open, i)
		case c == ')' && len(open) > 0:
			open = open[:len(open)-1]
		}
	}
	if len(open) == 0 {
		return -1
	}
	return open[len(open)-1]
}

// nulReason is rg's refusal of a pattern that needs a NUL byte.
const nulReason = `pattern contains "\0" but it is impossible to match: binary detection is enabled and matching a NUL byte is impossible`

func invalidUTF8At(s string) int {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(s[i:]); n == 1 {
				return i
			}
		}
	}
	return -1
}

func newlineError(pattern string, at int) error {
	return &InvalidPatternError{
		Pattern: pattern, Offset: at,
		Reason: "the pattern contains a line break, which can never match in a line-by-line search",
		Hint:   "enable multiline mode (rg -U) to match across lines",
	}
}

// hasLiteralNewline reports whether re requires a literal '\n' somewhere
// (rg refuses those outside multiline mode; a class with '\n' among other
// characters is fine, rg just drops the '\n').
func hasLiteralNewline(re *syntax.Regexp) bool { return hasLiteralRune(re, '\n') }

// hasLiteralRune reports whether re requires the rune r: a literal holding
// it, or a class of r alone.
func hasLiteralRune(re *syntax.Regexp, r rune) bool {
	switch re.Op {
	case syntax.OpLiteral:
		return strings.ContainsRune(string(re.Rune), r)
	case syntax.OpCharClass:
		return len(re.Rune) == 2 && re.Rune[0] == r && re.Rune[1] == r
	}
	for _, s := range re.Sub {
		if hasLiteralRune(s, r) {
			return true
		}
	}
	return false
}

func normalizeRoot(root string) (string, error) {
	if root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", fmt.Errorf("search: no root and no working directory: %w", err)
		}
		root = wd
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", fmt.Errorf("search: root %q: %w", root, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("search: root: %w", err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("search: root %s is not a directory", abs)
	}
	return abs, nil
}

// normalizePath makes p relative to root, slash-separated and clean, and
// refuses paths that leave root (lexically) or do not exist.
func normalizePath(root, p string, links *linkResolver) (string, error) {
	if p == "" {
		return "", errors.New("search: empty path")
	}
	if strings.IndexByte(p, 0) >= 0 {
		return "", fmt.Errorf("search: path %q contains a NUL byte", p)
	}
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(root, p)
	}
	rel, err := filepath.Rel(root, filepath.Clean(abs))
	if err != nil || !filepath.IsLocal(rel) && rel != "." {
		return "", fmt.Errorf("search: path %q is outside the root %s", p, root)
	}
	full := filepath.Join(root, rel)
	lfi, err := os.Lstat(full)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("search: path %q: %w", p, fs.ErrNotExist)
		}
		return "", fmt.Errorf("search: path %q: %w", p, err)
	}
	// Engines follow a symbolic link named explicitly (rg does), so what it
	// leads to must be inside the root too and be something a search can
	// read without blocking (a FIFO would hang rg and grep).
	fi := lfi
	if lfi.Mode()&fs.ModeSymlink != 0 {
		if fi, err = os.Stat(full); err != nil {
			return "", fmt.Errorf("search: path %q: broken symbolic link: %w", p, err)
		}
	}
	if !fi.IsDir() && !fi.Mode().IsRegular() {
		return "", fmt.Errorf("search: path %q is not a regular file or directory (%v)", p, fi.Mode().Type())
	}
	if real, err := links.eval(full, lfi); err == nil {
		if realRoot, err := links.eval(root, nil); err == nil && real != realRoot && !Within(realRoot, real) {
			return "", fmt.Errorf("search: path %q is outside the root %s (it resolves to %s)", p, root, real)
		}
	}
	return filepath.ToSlash(rel), nil
}

// linkResolver is filepath.EvalSymlinks for many paths of one query: the
// directories they share are resolved once (a search of a listed tree
// names thousands of files, and resolving each anew was most of its cost).
type linkResolver struct{ dirs map[string]resolved }

type resolved struct {
	path string
	err  error
}

// eval resolves p's links; lfi, when not nil, is p's Lstat.
func (l *linkResolver) eval(p string, lfi fs.FileInfo) (string, error) {
	if lfi != nil && lfi.Mode()&fs.ModeSymlink == 0 {
		dir, err := l.eval(filepath.Dir(p), nil)
		if err != nil {
			return "", err
		}
		return filepath.Join(dir, filepath.Base(p)), nil
	}
	if r, ok := l.dirs[p]; ok {
		return r.path, r.err
	}
	real, err := filepath.EvalSymlinks(p)
	l.dirs[p] = resolved{real, err}
	return real, err
}

// smartCase applies rg's smart-case rule (grep-regex's AstAnalysis in
// ripgrep 13): insensitive when the pattern has at least one literal
// character and none of its literals is uppercase. Class escapes (\d, \W,
// \pL, [[:upper:]]) are not literals; characters in bracket classes and
// ranges are; escapes like \x41 count as the character they denote.
func smartCase(pattern string, fixed bool) CaseMode {
	var anyLit, anyUpper bool
	lit := func(r rune) {
		anyLit = true
		anyUpper = anyUpper || rgregex.IsUpper(r)
	}
	if fixed {
		for _, r := range pattern {
			lit(r)
		}
	} else {
		scanLiterals(pattern, lit)
	}
	if anyLit && !anyUpper {
		return CaseInsensitive
	}
	return CaseSensitive
}

// scanLiterals calls lit for every literal character written in a (valid)
// Go regexp pattern.
func scanLiterals(p string, lit func(rune)) {
	inClass := false
	for i := 0; i < len(p); {
		r, n := utf8.DecodeRuneInString(p[i:])
		switch {
		case r == '\\':
			i += scanEscape(p[i:], lit)
			continue
		case inClass && r == '[' && strings.HasPrefix(p[i:], "[:"):
			if k := strings.Index(p[i:], ":]"); k >= 0 {
				i += k + 2
				continue
			}
			lit(r)
		case inClass && r == ']':
			inClass = false
		case inClass:
			if r != '-' && r != '^' {
				lit(r)
			}
		case r == '[':
			inClass = true
			i += n
			if strings.HasPrefix(p[i:], "^") {
				i++
			}
			if strings.HasPrefix(p[i:], "]") {
				lit(']')
				i++
			}
			continue
		case r == '(' && strings.HasPrefix(p[i:], "(?"):
			// Flags or a group name: up to ':' , ')' or '>'.
			j := strings.IndexAny(p[i+2:], ":)>")
			if j < 0 {
				return
			}
			i += j + 3
			continue
		case r == '{':
			if k := repeatEnd(p[i:]); k > 0 {
				i += k
				continue
			}
			lit(r)
		case strings.ContainsRune(".^$|*+?()", r):
		default:
			lit(r)
		}
		i += n
	}
}

// repeatEnd returns the length of a repetition {n}, {n,} or {n,m} at the
// start of s, or 0 when s does not start with one (then '{' is a literal).
func repeatEnd(s string) int {
	j := 1
	digits := func() int {
		k := j
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		return j - k
	}
	if digits() == 0 {
		return 0
	}
	if j < len(s) && s[j] == ',' {
		j++
		digits()
	}
	if j < len(s) && s[j] == '}' {
		return j + 1
	}
	return 0
}

// scanEscape handles the escape at the start of s and returns its length.
func scanEscape(s string, lit func(rune)) int {
	if len(s) < 2 {
		return len(s)
	}
	c, n := utf8.DecodeRuneInString(s[1:])
	switch c {
	case 'Q':
		body := s[2:]
		end := strings.Index(body, `\E`)
		if end < 0 {
			end = len(body)
		}
		for _, r := range body[:end] {
			lit(r)
		}
		return min(len(s), 2+end+2)
	case 'x':
		if strings.HasPrefix(s[2:], "{") {
			k := strings.IndexByte(s, '}')
			if k < 0 {
				return len(s)
			}
			lit(hexRune(s[3:k]))
			return k + 1
		}
		if len(s) >= 4 {
			lit(hexRune(s[2:4]))
			return 4
		}
		return len(s)
	case 'p', 'P':
		if strings.HasPrefix(s[2:], "{") {
			if k := strings.IndexByte(s, '}'); k >= 0 {
				return k + 1
			}
			return len(s)
		}
		return min(len(s), 3)
	case 'd', 'D', 'w', 'W', 's', 'S', 'b', 'B', 'A', 'z', 'C':
		return 2
	case 'a', 'f', 't', 'n', 'r', 'v':
		lit(0) // a control character: a literal, never uppercase
		return 2
	}
	if c >= '0' && c <= '7' {
		j := 1
		for j < 4 && j < len(s) && s[j] >= '0' && s[j] <= '7' {
			j++
		}
		lit(0)
		return j
	}
	lit(c)
	return 1 + n
}

func hexRune(h string) rune {
	var r rune
	for _, c := range h {
		switch {
		case c >= '0' && c <= '9':
			r = r*16 + c - '0'
		case c >= 'a' && c <= 'f':
			r = r*16 + c - 'a' + 10
		case c >= 'A' && c <= 'F':
			r = r*16 + c - 'A' + 10
		}
	}
	return r
}

// Within reports whether path lies strictly below dir (lexically, after
// cleaning). External engines use it to refuse running a binary that sits
// inside the tree being searched, which that tree's author could have planted.
func Within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && filepath.IsLocal(rel)
}

// PCRE2SmartCase is rg -P's smart-case rule, a plain scan of the pattern:
// case-insensitive unless a character that is not escaped is upper case
// (so \S and \W do not count, but \p{Lu}'s "L" does).
func PCRE2SmartCase(pattern string) CaseMode {
	rs := []rune(pattern)
	for i := 0; i < len(rs); i++ {
		if rs[i] == '\\' {
			i++
		} else if rgregex.IsUpper(rs[i]) {
			return CaseSensitive
		}
	}
	return CaseInsensitive
}
