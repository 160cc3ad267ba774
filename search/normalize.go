package search

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rgkit/rgkit/internal/rgregex"
)

// Normalize validates q and puts it in the one form every engine receives:
//   - the pattern (unless Fixed) is valid in rg 15's regex dialect (the
//     Rust regex crate's syntax, Unicode-aware), else an
//     *InvalidPatternError with rg's offset and message and a hint
//     (look-around and back-references are refused the same way, with
//     rg's advice to use -P, which rgkit does not offer);
//   - a pattern that could match a line break is refused unless Multiline,
//     as rg does ("the literal '\n' is not allowed in a regex");
//   - Root is absolute and clean and names an existing directory (default:
//     the working directory);
//   - Paths are slash-separated, relative to Root, clean, existing, and never
//     climb out of Root ("." for Root itself);
//   - CaseSmart is resolved with rg's rule to CaseSensitive or CaseInsensitive;
//   - Types are known rg type names; negative numbers and unknown enum values
//     are refused.
func Normalize(q Query) (Query, error) {
	if err := checkNumbers(q); err != nil {
		return q, err
	}
	// Smart case first: the case mode can decide whether rg accepts the
	// pattern (rg -S refuses `\x00|a`, whose folded 'a' leaves the NUL a
	// literal; rg -s accepts it as one class).
	if q.Case == CaseSmart {
		q.Case = smartCase(q.Pattern, q.Fixed)
	}
	if err := checkPattern(q); err != nil {
		return q, err
	}
	if _, err := TypeGlobs(q.Types); err != nil {
		return q, err
	}
	root, err := normalizeRoot(q.Root)
	if err != nil {
		return q, err
	}
	q.Root = root
	if len(q.Paths) > 0 {
		paths := make([]string, 0, len(q.Paths))
		for _, p := range q.Paths {
			rel, err := normalizePath(root, p)
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
	}
	return nil
}

// checkPattern validates the pattern in rg's dialect (see
// internal/rgregex: the parser the native matcher uses too) and applies
// rg's rule that a line-oriented search cannot contain a literal line
// break.
func checkPattern(q Query) error {
	if q.Fixed {
		if i := strings.IndexByte(q.Pattern, '\n'); i >= 0 && !q.Multiline {
			return newlineError(q.Pattern, i)
		}
		if !utf8.ValidString(q.Pattern) {
			return &InvalidPatternError{Pattern: q.Pattern, Offset: invalidUTF8At(q.Pattern),
				Reason: "invalid UTF-8", Hint: "patterns are UTF-8 text; use \\xHH escapes in a regexp for raw bytes"}
		}
		return nil
	}
	re, err := rgregex.Parse(q.Pattern, rgregex.Options{
		CaseInsensitive: q.Case == CaseInsensitive, DotNL: q.Multiline})
	if err != nil {
		var re *rgregex.Error
		if errors.As(err, &re) {
			return patternError(re)
		}
		return &InvalidPatternError{Pattern: q.Pattern, Offset: -1, Reason: err.Error(), Err: err}
	}
	if !q.Multiline && hasLiteralNewline(re) {
		return newlineError(q.Pattern, strings.Index(q.Pattern, `\n`))
	}
	return nil
}

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
func hasLiteralNewline(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral:
		return strings.ContainsRune(string(re.Rune), '\n')
	case syntax.OpCharClass:
		return len(re.Rune) == 2 && re.Rune[0] == '\n' && re.Rune[1] == '\n'
	}
	for _, s := range re.Sub {
		if hasLiteralNewline(s) {
			return true
		}
	}
	return false
}

// syntaxHints are fix-it hints for rg's syntax errors, by the start of
// rg's message (look-around, back-references and NUL carry rg's own).
var syntaxHints = []struct{ msg, hint string }{
	{"repetition operator missing expression", "to match a repetition operator literally, escape it, e.g. '\\*' or '\\{'"},
	{"unclosed group", "to match a parenthesis literally, escape it as '\\(' or '\\)'"},
	{"unopened group", "to match a parenthesis literally, escape it as '\\(' or '\\)'"},
	{"unclosed character class", "to match '[' literally, escape it as '\\['"},
	{"unrecognized escape sequence", "escape a literal backslash as '\\\\'; rg's escapes include \\d \\w \\s \\b \\pL \\x{41} \\u{41}; \\Q..\\E is not one"},
	{"repetition quantifier expects a valid decimal", "a counted repetition is {n}, {n,} or {n,m}; to match '{' literally, escape it as '\\{'"},
	{"unclosed counted repetition", "a counted repetition is {n}, {n,} or {n,m}; to match '{' literally, escape it as '\\{'"},
	{"invalid repetition count range", "a counted repetition {n,m} needs n <= m"},
	{"invalid character class range", "a range runs low-high, like [a-z]; to match '-' literally put it first or last in the class"},
	{"unrecognized flag", "flags are i, m, s, U, u, x and R, as (?flags) or (?flags:...); groups are (?:...), (?P<name>...) and (?<name>...)"},
	{"invalid capture group character", "a group name is letters, digits and '_': (?P<name>...)"},
	{"Unicode property not found", "see rg's \\p{..} names: general categories (L, Lu), scripts (Greek) and binary properties"},
}

// patternError turns rgregex's refusal into an InvalidPatternError: rg's
// offset and message, and a hint a person or a model can act on.
func patternError(e *rgregex.Error) *InvalidPatternError {
	out := &InvalidPatternError{Pattern: e.Pattern, Offset: e.Offset, Reason: e.Msg, Hint: e.Hint(), Err: e}
	switch e.Kind {
	case rgregex.KindNUL:
		out.Offset = -1
	case rgregex.KindUnsupported:
		out.Reason = "rg accepts this pattern but rgkit cannot give it rg's meaning: " + e.Msg
	case rgregex.KindSyntax:
		if e.Msg == "unclosed group" {
			// rg points at its own wrapper group; the '(' left open is
			// what a person has to fix.
			if i := unclosedParen(e.Pattern); i >= 0 {
				out.Offset = i
			}
		}
		for _, h := range syntaxHints {
			if strings.HasPrefix(e.Msg, h.msg) {
				out.Hint = h.hint
				break
			}
		}
	}
	return out
}

// unclosedParen returns the offset of the last '(' that is never closed,
// or -1. It skips escapes and (nested) bracket classes.
func unclosedParen(p string) int {
	var open []int
	class := 0
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '\\':
			i++
		case c == '[':
			class++
			if i+1 < len(p) && p[i+1] == ']' && class == 1 {
				i++ // []...] : the first ']' is a literal
			}
		case c == ']' && class > 0:
			class--
		case class > 0:
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
func normalizePath(root, p string) (string, error) {
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
	if _, err := os.Lstat(full); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("search: path %q: %w", p, fs.ErrNotExist)
		}
		return "", fmt.Errorf("search: path %q: %w", p, err)
	}
	// Engines follow a symbolic link named explicitly (rg does), so what it
	// leads to must be inside the root too and be something a search can
	// read without blocking (a FIFO would hang rg and grep).
	fi, err := os.Stat(full)
	if err != nil {
		return "", fmt.Errorf("search: path %q: broken symbolic link: %w", p, err)
	}
	if !fi.IsDir() && !fi.Mode().IsRegular() {
		return "", fmt.Errorf("search: path %q is not a regular file or directory (%v)", p, fi.Mode().Type())
	}
	if real, err := filepath.EvalSymlinks(full); err == nil {
		if realRoot, err := filepath.EvalSymlinks(root); err == nil && real != realRoot && !Within(realRoot, real) {
			return "", fmt.Errorf("search: path %q is outside the root %s (it resolves to %s)", p, root, real)
		}
	}
	return filepath.ToSlash(rel), nil
}

// smartCase applies rg's smart-case rule (rgregex.SmartCase): insensitive
// when the pattern has at least one literal character and none of its
// literals is uppercase. A fixed string is all literals.
func smartCase(pattern string, fixed bool) CaseMode {
	insensitive := false
	if fixed {
		insensitive = pattern != "" && !strings.ContainsFunc(pattern, func(r rune) bool {
			return unicode.IsUpper(r) || unicode.Is(unicode.Other_Uppercase, r)
		})
	} else {
		insensitive = rgregex.SmartCase(pattern)
	}
	if insensitive {
		return CaseInsensitive
	}
	return CaseSensitive
}

// Within reports whether path lies strictly below dir (lexically, after
// cleaning). External engines use it to refuse running a binary that sits
// inside the tree being searched, which that tree's author could have planted.
func Within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && filepath.IsLocal(rel)
}
