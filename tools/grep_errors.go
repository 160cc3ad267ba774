package tools

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rgkit/rgkit/search"
)

// grepError turns a failed search into a message a model can act on: an
// invalid pattern with its position and a fix, an engine failure that
// cannot be mistaken for "no matches", an unknown file type with the known
// ones.
func (w *Workspace) grepError(in GrepInput, err error) error {
	var pe *search.InvalidPatternError
	var ae *ArgumentError
	var pathErr *PathError
	switch {
	case errors.As(err, &ae), errors.As(err, &pathErr):
		return err
	case errors.As(err, &pe):
		return &PatternError{Err: pe}
	case errors.Is(err, search.ErrUnavailable):
		return fmt.Errorf("search unavailable: %w (this is not \"no matches\": no search engine could run)", err)
	case strings.Contains(err.Error(), "unrecognized file type"):
		return fmt.Errorf("%w; known types include %s", err, strings.Join(commonTypes(), ", "))
	}
	return fmt.Errorf("search failed: %w (this is not \"no matches\")", err)
}

// PatternError is an invalid Grep pattern, with how to fix it.
type PatternError struct {
	Err *search.InvalidPatternError
}

func (e *PatternError) Error() string {
	return e.Err.Error() + `. Patterns use ripgrep's regex syntax: escape special characters with a backslash (\{ \( \[ \. \*), or set fixed_strings to true to search for the text as written`
}

func (e *PatternError) Unwrap() error { return e.Err }

// commonTypes are the type names a model most likely wants, when they are
// known to the type table.
func commonTypes() []string {
	known := map[string]bool{}
	for _, t := range search.TypeNames() {
		known[t] = true
	}
	var out []string
	for _, t := range []string{"go", "py", "js", "ts", "rust", "java", "c", "cpp", "cs", "rb", "php", "sh", "md", "json", "yaml", "html", "css"} {
		if known[t] {
			out = append(out, t)
		}
	}
	return out
}
