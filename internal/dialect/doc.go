// Package dialect gives each external engine a normalised Query's pattern,
// written in rg 15's regex dialect (see internal/rgregex): rg gets it as
// written, git grep -P gets PCRE and grep -E gets POSIX ERE spelled out
// from rgregex's syntax tree, or search.ErrUnsupported when the
// translation could not be exact.
package dialect
